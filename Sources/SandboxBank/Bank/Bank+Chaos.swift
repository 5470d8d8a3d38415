import Dispatch
import SandboxSupport
import Synchronization

// Carrying out webhook chaos (see WebhookChaos.swift): the plan is decided when a notification's
// first attempt comes due and journaled at once; what follows (copies queued, a held notification
// released, a replay set off) follows from journaled attempts, so a replay does it again.

extension Bank {
    /// Sends a chaos copy of a notification now (`duplicate`, `forged` or `replay`), and calls
    /// `done` with the notification once its answer is recorded (nil, at once, when it has no URL).
    /// Like a redelivery, outside the retry schedule; unlike one, it never settles the notification.
    package func sendChaos(notificationID: Int, kind: ChaosKind, then done: @escaping @Sendable (StatusNotification?) -> Void) {
        precondition(kind.isCopy, "only a copy can be sent by hand")
        sendNow(notificationID: notificationID, chaos: kind, then: done)
    }

    /// `sendChaos(notificationID:kind:then:)`, waiting for the answer.
    func sendChaos(notificationID: Int, kind: ChaosKind) -> StatusNotification? {
        let answered = DispatchSemaphore(value: 0)
        let result = Mutex<StatusNotification?>(nil)
        sendChaos(notificationID: notificationID, kind: kind) { notification in
            result.withLock { $0 = notification }
            answered.signal()
        }
        answered.wait()
        return result.withLock { $0 }
    }

    /// Asks the policy for a plan for a notification whose first attempt is due, and adopts it;
    /// true when the attempt moved (delayed or held). Nothing when a plan was decided already.
    func decideChaos(_ s: inout State, notificationID id: Int, at: VirtualTime) -> Bool {
        guard let policy = s.configuration.chaos, s.notifications[id - 1].chaos == nil,
              let payout = s.payouts[s.notifications[id - 1].payoutID],
              let plan = policy.plan(s.notifications[id - 1], payout, s.chaosCounts)
        else { return false }
        adopt(&s, plan, notificationID: id, at: at)
        return plan.shift != nil
    }

    /// Counts the plan's matches, keeps it with the notification, moves its first attempt, and
    /// journals it.
    private func adopt(_ s: inout State, _ plan: ChaosPlan, notificationID id: Int, at: VirtualTime) {
        for rule in plan.matched { s.chaosCounts[rule, default: 0] += 1 }
        s.notifications[id - 1].chaos = plan
        let moved: VirtualTime? = switch plan.shift {
        case .delay(let delay)?: at.adding(delay)
        case .hold(let atMost)?: at.adding(atMost)
        case nil: nil
        }
        if let moved {
            s.notifications[id - 1].nextAttemptAt = moved
            schedule(&s, .delivery(notificationID: id, attempt: 0), at: moved)
        }
        if plan.waitsForLater(s.notifications[id - 1]) { s.chaosWatch[s.notifications[id - 1].payoutID, default: []].append(id) }
        journal(&s, .chaosPlanned(notificationID: id, plan, at: at))
    }

    /// A notification's own attempt, as it is sent, with the earliest chaos delivery its answer
    /// may queue (`chaosFollows`): its own copies after a first attempt, earlier notifications of
    /// its payout held for it (at once), their replays after its delivery. (`inout` though it
    /// only reads: a state passed by value from where it is `inout` is copied whole.)
    func ownAttempt(_ s: inout State, notificationID id: Int, at: VirtualTime) -> Sending {
        let notification = s.notifications[id - 1]
        let first = notification.scheduledAttempts == 0
        var soonest: Duration?
        func consider(_ copies: [ChaosPlan.Copy], replays: Bool) {
            for copy in copies where (copy.kind == .replay) == replays && copy.progress == .waiting {
                soonest = min(soonest ?? copy.after, copy.after)
            }
        }
        if first, let plan = notification.chaos { consider(plan.copies, replays: false) }
        for earlier in s.chaosWatch[notification.payoutID] ?? [] where earlier < id {
            guard let plan = s.notifications[earlier - 1].chaos else { continue }
            if first, plan.holds(s.notifications[earlier - 1]) { soonest = .zero }
            if notification.state != .delivered { consider(plan.copies, replays: true) }
        }
        return Sending(notification, at: at, chaosFrom: soonest.map { at.adding($0) })
    }

    /// One of a notification's chaos copies, as it is sent: forged when it is (`inout`: as
    /// `ownAttempt`).
    func chaosCopy(_ s: inout State, notificationID id: Int, copy index: Int, at: VirtualTime) -> Sending {
        var notification = s.notifications[id - 1]
        let copy = notification.chaos!.copies[index]
        notification.forged = copy.kind == .forged
        return Sending(notification, at: at, mark: ChaosMark(kind: copy.kind, rule: copy.rule, copy: index, copyOf: notification.firstOwnAttempt,
                                                             delay: copy.after, after: copy.setOffBy))
    }

    /// The mark of a notification's first own attempt when chaos moved it.
    static func shiftMark(_ notification: StatusNotification) -> ChaosMark? {
        guard let plan = notification.chaos else { return nil }
        switch plan.shift {
        case .delay(let delay)?: return ChaosMark(kind: .delayed, rule: plan.shiftRule, delay: delay)
        case .hold(let atMost)?: return ChaosMark(kind: .outOfOrder, rule: plan.shiftRule, delay: plan.releasedBy == nil ? atMost : nil,
                                                  after: plan.releasedBy)
        case nil: return nil
        }
    }

    /// What a notification's first scheduled attempt (`firstAttempt`), or its delivery, sets off:
    /// its own duplicates and forgeries are queued; earlier notifications of the same payout held
    /// for it are released (sent at once); their replays wait for its delivery.
    func chaosFollows(_ s: inout State, notificationID id: Int, at: VirtualTime, firstAttempt: Bool, delivered: Bool) {
        if firstAttempt, let plan = s.notifications[id - 1].chaos {
            for (index, copy) in plan.copies.enumerated() where copy.kind != .replay && copy.progress == .waiting {
                queueCopy(&s, notificationID: id, copy: index, at: at.adding(copy.after), setOffBy: nil)
            }
        }
        let payoutID = s.notifications[id - 1].payoutID
        guard var watched = s.chaosWatch[payoutID] else { return }
        for earlier in watched where earlier < id {
            guard let plan = s.notifications[earlier - 1].chaos else { continue }
            if firstAttempt, plan.holds(s.notifications[earlier - 1]) {
                s.notifications[earlier - 1].chaos!.releasedBy = id
                s.notifications[earlier - 1].nextAttemptAt = at
                schedule(&s, .delivery(notificationID: earlier, attempt: 0), at: at)
            }
            guard delivered else { continue }
            for (index, copy) in plan.copies.enumerated() where copy.kind == .replay && copy.progress == .waiting {
                queueCopy(&s, notificationID: earlier, copy: index, at: at.adding(copy.after), setOffBy: id)
            }
        }
        watched.removeAll { !(s.notifications[$0 - 1].chaos?.waitsForLater(s.notifications[$0 - 1]) ?? false) }
        s.chaosWatch[payoutID] = watched.isEmpty ? nil : watched
    }

    private func queueCopy(_ s: inout State, notificationID id: Int, copy index: Int, at: VirtualTime, setOffBy: Int?) {
        s.notifications[id - 1].chaos!.copies[index].progress = .due(at)
        s.notifications[id - 1].chaos!.copies[index].setOffBy = setOffBy
        schedule(&s, .chaos(notificationID: id, copy: index), at: at)
    }

    /// Journals a chaos copy's answer: never retried, and the notification's state and retries
    /// stay as they were.
    func recordCopy(_ outcome: DeliveryOutcome, notificationID id: Int, at: VirtualTime, mark: ChaosMark, in s: inout State) {
        s.notifications[id - 1].attempts.append(at: at, outcome: s.outcomes.intern(outcome, OutOfLine.init), manual: mark.rule == nil, chaos: mark)
        if let copy = mark.copy { s.notifications[id - 1].chaos!.copies[copy].progress = .sent }
        journal(&s, .chaosAttempt(notificationID: id, at: at, outcome: outcome, mark))
        s.observer?(.deliveryAttempt(s.notifications[id - 1], s.notifications[id - 1].attempts[s.notifications[id - 1].attempts.count - 1]))
    }

    /// Queues again the copies that were due when a snapshot was taken but not in its queue (on
    /// their way then: their answers are not in it).
    func rescheduleTakenCopies(_ s: inout State) {
        var queued = Set<[Int]>()
        for event in s.queue.events where !s.isStale(event) {
            if case .chaos(let id, let copy) = event.kind { queued.insert([id, copy]) }
        }
        for notification in s.notifications {
            for (index, copy) in (notification.chaos?.copies ?? []).enumerated() {
                if case .due(let at) = copy.progress, !queued.contains([notification.id, index]) {
                    schedule(&s, .chaos(notificationID: notification.id, copy: index), at: at)
                }
            }
        }
    }

    // MARK: - Replay

    func replayChaosPlanned(_ s: inout State, notificationID id: Int, plan: ChaosPlan, at: VirtualTime) throws(ReplayError) {
        guard s.notifications.indices.contains(id - 1), s.notifications[id - 1].url != nil, s.notifications[id - 1].chaos == nil else {
            throw ReplayError(description: "no notification \(id) waiting for its first attempt to plan chaos for")
        }
        guard !plan.copies.contains(where: { $0.progress != .waiting || $0.setOffBy != nil }), plan.releasedBy == nil else {
            throw ReplayError(description: "a chaos plan for notification \(id) already carried out")
        }
        if plan.shift != nil { dropFirstEvent(&s, if: .delivery(notificationID: id, attempt: 0)) }
        clock.advance(to: at)
        adopt(&s, plan, notificationID: id, at: at)
    }

    func replayChaosAttempt(_ s: inout State, notificationID id: Int, at: VirtualTime, outcome: DeliveryOutcome,
                            mark: ChaosMark) throws(ReplayError) {
        guard s.notifications.indices.contains(id - 1), mark.kind.isCopy else {
            throw ReplayError(description: "no notification \(id) for a chaos \(mark.kind.rawValue)")
        }
        if let copy = mark.copy {
            guard let plan = s.notifications[id - 1].chaos, plan.copies.indices.contains(copy), plan.copies[copy].kind == mark.kind else {
                throw ReplayError(description: "notification \(id) has no chaos copy \(copy) of kind \(mark.kind.rawValue)")
            }
            dropFirstEvent(&s, if: .chaos(notificationID: id, copy: copy))
        }
        clock.advance(to: at)
        recordCopy(outcome, notificationID: id, at: at, mark: mark, in: &s)
    }
}
