import Synchronization
// The bank's side of persistence: every change goes to a recorder as it is made, and a recorded
// change can be made again. A record holds the change's effect, not the command that led to it
// (which step of which payout ran, what a receiver answered), so replaying a journal gives the
// same payouts, balances, ledger, notifications and schedule whatever the queue of events held
// when the process stopped: a crash between taking an event and journaling its outcome, or a
// restart in the middle of an advance, changes nothing that follows.

extension Bank {
    /// A record that does not fit the state it is replayed onto: the journal is not this bank's,
    /// or was changed by hand. Replaying it changed nothing.
    package struct ReplayError: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// Passes every change from now on to `recorder`, under the bank's lock, in the order the
    /// changes are made (so it must be quick: encode and append, nothing that waits).
    package func startRecording(_ recorder: @escaping @Sendable (BankRecord) -> Void) {
        state.withLock { $0.recorder = recorder }
    }

    /// Passes no more changes on, and drops the answers of attempts still on their way: once a
    /// sandbox stops, its journal may be another's (started on the same folder), and an attempt
    /// whose answer was not journaled is sent again by whoever replays it, as after a crash.
    package func stopRecording() {
        state.withLock { s in
            s.recorder = nil
            s.deliveries = Deliveries()
        }
    }

    /// Makes a recorded change again (call before `startRecording`). `reset` starts again with
    /// `resetConfiguration`, as the live reset did. A record that does not fit throws before
    /// changing anything, so the bank stays as the records before it left it.
    package func replay(_ recorded: BankRecord, resetConfiguration: Configuration) throws(ReplayError) {
        try state.withLock { (s) throws(ReplayError) in
            if let taken = s.legacyTakenDelivery, Self.endsLegacyDelivery(recorded, taken) { rescheduleLegacyTakenDelivery(&s) }
            switch recorded {
            case .created(let request, let at, let settlement, let timeline, let decision):
                guard s.accounts[request.account] != nil else { throw ReplayError(description: "a payout of unknown account \(request.account)") }
                clock.advance(to: at)
                _ = insert(&s, request, settlement: settlement, at: at, timeline: DecidedTimeline(timeline, decision: decision))
            case .executed(let payoutID, let actor, let at):
                guard let payout = s.payouts[payoutID], payout.status.awaitsExecution else {
                    throw ReplayError(description: "no staged payout \(payoutID) to execute")
                }
                clock.advance(to: at)
                execute(&s, payoutID, by: actor, at: at)
            case .detailsAdded(let payoutID, let details, let timeline, let at, let decision):
                guard s.payouts[payoutID] != nil else { throw ReplayError(description: "no payout \(payoutID) to add details to") }
                clock.advance(to: at)
                add(&s, details, to: payoutID, at: at, timeline: DecidedTimeline(timeline, decision: decision))
            case .statusChanged(let payoutID, let step, let actor, let at):
                let changed: Payout?
                do throws(TransitionError) { changed = try change(&s, payoutID, to: step, by: actor, at: at) } catch {
                    throw ReplayError(description: "payout \(payoutID) cannot go from \(error.from.name) to \(error.to.name)")
                }
                guard changed != nil else { throw ReplayError(description: "no payout \(payoutID) to change") }
                clock.advance(to: at)
            case .stepRan(let payoutID, let step, let at):
                guard let plan = s.payouts.plan(payoutID) else { throw ReplayError(description: "no payout \(payoutID) for a timeline step") }
                guard plan.nextStep == step, step < plan.timeline.count else {
                    throw ReplayError(description: "step \(step) of payout \(payoutID)'s timeline ran, but its next step is "
                        + (plan.nextStep < plan.timeline.count ? "\(plan.nextStep)" : "none (its timeline has \(plan.timeline.count) steps)"))
                }
                dropFirstEvent(&s, if: .timeline(payoutID: payoutID, generation: plan.generation, step: step))
                clock.advance(to: at)
                runStep(&s, payoutID: payoutID, step: step, at: at)
            case .eventRan(let at):
                switch runNextEvent(&s, until: at, decidingChaos: false) {
                case .none, .awaitAnswers: throw ReplayError(description: "no event due at \(at)")
                case .ranStep, .moved: break
                case .deliver(let sending): s.legacyTakenDelivery = sending.notification.id
                }
            case .attempt(let notificationID, let at, let outcome, let scheduled):
                guard s.notifications.indices.contains(notificationID - 1) else {
                    throw ReplayError(description: "no notification \(notificationID)")
                }
                if scheduled {
                    let made = s.notifications[notificationID - 1].scheduledAttempts
                    dropFirstEvent(&s, if: .delivery(notificationID: notificationID, attempt: made))
                    if s.legacyTakenDelivery == notificationID { s.legacyTakenDelivery = nil }
                }
                clock.advance(to: at)  // an advance killed after an attempt, before its clock record, had reached it
                self.record(outcome, notificationID: notificationID, at: at, scheduled: scheduled, in: &s)
            case .clock(let time):
                clock.advance(to: time)
            case .account(let account):
                if s.accounts[account.id] == nil { s.accountOrder.append(account.id) }
                s.accounts[account.id] = account
            case .reset(let accounts):
                Self.reset(&s, accounts: accounts, configuration: resetConfiguration)
            case .chaosPlanned(let notificationID, let plan, let at):
                try replayChaosPlanned(&s, notificationID: notificationID, plan: plan, at: at)
            case .chaosAttempt(let notificationID, let at, let outcome, let mark):
                try replayChaosAttempt(&s, notificationID: notificationID, at: at, outcome: outcome, mark: mark)
            }
        }
    }

    /// After the last record: a delivery an old journal's last `eventRan` took off the queue, and
    /// whose attempt was never journaled (the process stopped while sending it), is queued again.
    package func finishReplay() {
        state.withLock { rescheduleLegacyTakenDelivery(&$0) }
    }

    /// The event a replayed record stands for is, most often, first in the queue: it is taken off
    /// there. Anywhere else it stays, stale, and is dropped when it comes first (a search of the
    /// queue for it would make a replay slow).
    func dropFirstEvent(_ s: inout State, if kind: EventQueue.Kind) {
        dropStaleEvents(&s)
        if s.queue.first?.kind == kind { _ = s.queue.popFirst() }
    }

    /// Whether `record` shows that the process that took an old journal's delivery off the queue
    /// stopped before sending it: versions before 0.2 journaled an attempt right after its
    /// `eventRan`, with only creates, status changes and account changes in between.
    private static func endsLegacyDelivery(_ record: BankRecord, _ taken: Int) -> Bool {
        switch record {
        case .created, .executed, .detailsAdded, .statusChanged, .account: false
        case .attempt(taken, _, _, true): false
        case .attempt, .stepRan, .eventRan, .clock, .reset, .chaosPlanned, .chaosAttempt: true
        }
    }

    private func rescheduleLegacyTakenDelivery(_ s: inout State) {
        guard let id = s.legacyTakenDelivery else { return }
        s.legacyTakenDelivery = nil
        let notification = s.notifications[id - 1]
        if notification.state == .pending, let due = notification.nextAttemptAt {
            schedule(&s, .delivery(notificationID: id, attempt: notification.scheduledAttempts), at: due)
        }
    }
}
