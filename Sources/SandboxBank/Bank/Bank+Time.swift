import Synchronization
// Moving time: events run one at a time in time order (ties in the order they were scheduled),
// the clock stepping to each event's time, so an advance of two days replays the bank's two days
// exactly. A due delivery is sent and the run goes on without waiting for the answer (see
// Bank+Deliveries.swift): a receiver that hangs holds up no other payout or receiver.

extension Bank {
    /// What running the next event came to.
    enum Work {
        /// Nothing is due by the target.
        case none
        /// The next event is due where an answer still awaited could schedule a retry: record the answers first.
        case awaitAnswers
        /// A timeline step ran (applied, or refused by the lifecycle).
        case ranStep
        /// A delivery is due: the caller sends it outside the lock.
        case deliver(Sending)
        /// Webhook chaos moved a notification's first attempt (delayed or held): nothing was sent.
        case moved
    }

    /// Moves the clock forward by `duration`, running every event due on the way. Returns how
    /// many events ran (status changes and delivery attempts). It returns once every delivery
    /// due on the way has been answered (or timed out), and their retries due on the way made.
    @discardableResult
    package func advance(by duration: Duration) -> Int {
        move { $0.adding(duration) }
    }

    /// Moves the clock forward to `time` (never back), running every event due on the way.
    @discardableResult
    package func advance(to time: VirtualTime) -> Int {
        move { _ in time }
    }

    /// Moves the clock to the next scheduled event and runs everything due then; 0 if none is.
    @discardableResult
    package func advanceToNextEvent() -> Int {
        move { now in self.nextEventAt.map { max($0, now) } }
    }

    /// Runs the events due by the clock's time and waits for the deliveries among them to be
    /// answered: afterwards nothing due is left undone (what a test does before it looks).
    /// `yieldingToAdvances` (a manual clock's driver): stops early, once the answers awaited are
    /// recorded, when an advance waits to run; the advance runs what is still due first.
    @discardableResult
    package func runDueEvents(yieldingToAdvances: Bool = false) -> Int {
        runner.withLock { _ in
            waitForDeliveriesOnTheirWay()
            return runEvents(until: clock.now, waitingForAnswers: true, yielding: yieldingToAdvances)
        }
    }

    /// Runs the events due by the clock's time and sends the deliveries among them without
    /// waiting: each answer is recorded when it arrives. What a real-time clock's driver calls;
    /// it stops early when an advance waits to run.
    @discardableResult
    package func startDueEvents() -> Int {
        runner.withLock { _ in runEvents(until: clock.now, waitingForAnswers: false, yielding: true) }
    }

    /// Calls `wake` whenever an event is scheduled at or before the clock's time, so that whoever
    /// runs the bank's events runs it at once, on a manual clock too (there, not for what a run of
    /// events schedules: that run takes it, see `queue`). It is called under the bank's lock: it
    /// must only signal, never call the bank or wait.
    package func whenDue(_ wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    /// Moves the clock to `target(now)` (nil: stay). What was due before it moves (answers on
    /// their way, events due now that the clock driver has not run yet) is done first, and not
    /// counted: the count is the same whoever ran them.
    ///
    /// On a manual clock answers are awaited in order while time moves, so the journal does not
    /// depend on how fast receivers answer. On a real-time clock nothing waits while time moves
    /// (the clock driver would wait too, and with it every other payout): answers are recorded
    /// as they arrive, and the advance returns once they all have.
    private func move(to target: (VirtualTime) -> VirtualTime?) -> Int {
        let inOrder = clock.mode == .manual
        defer { if !inOrder { waitForDeliveriesOnTheirWay() } }
        advancesWaiting.add(1, ordering: .relaxed)
        return runner.withLock { _ in
            advancesWaiting.subtract(1, ordering: .relaxed)
            state.withLock { $0.advancing = true }
            defer {
                state.withLock { s in
                    Self.endAdvance(&s)
                    wakeIfDue(s)
                }
            }
            if inOrder { waitForDeliveriesOnTheirWay() }
            runEvents(until: clock.now, waitingForAnswers: inOrder)
            let from = clock.now
            guard let target = target(from) else { return 0 }
            let applied = runEvents(until: target, waitingForAnswers: inOrder)
            let now = clock.advance(to: target)
            state.withLock { s in
                journal(&s, .clock(to: now))
                s.observer?(.clockAdvanced(from: from, to: now, eventsApplied: applied))
            }
            return applied
        }
    }

    /// Changes the state as part of a run of events: what `body` schedules is the run's own
    /// (a timeline's next step, a retry), not another request's.
    func runningEvents<T>(_ body: (inout State) -> T) -> T {
        state.withLock { s in
            s.running = true
            defer { s.running = false }
            return body(&s)
        }
    }

    /// Takes the first event due by `target` off the queue and runs it, moving the clock to its
    /// time; a delivery is left to the caller, who sends it outside the lock. With answers
    /// `awaiting`, an event as late as the earliest retry of the first of them, a delivery for a
    /// payout whose earlier notification is on its way, or an event after the earliest chaos
    /// delivery an answer may queue, waits for the answers. The first attempt of a notification is where chaos decides
    /// (`decidingChaos`: not when a journal of a version before 0.2 is replayed, which had none).
    func runNextEvent(_ s: inout State, until target: VirtualTime, awaiting: AwaitedAnswers.Summary? = nil,
                      decidingChaos: Bool = true) -> Work {
        dropStaleEvents(&s)
        guard let event = s.queue.first, event.at <= target.milliseconds else { return .none }
        if let awaiting {
            if let chaos = awaiting.chaosFrom, event.at > chaos.milliseconds { return .awaitAnswers }
            if let earliestRetry = s.configuration.retrySchedule.min(), event.at >= awaiting.firstDue.adding(earliestRetry).milliseconds {
                return .awaitAnswers
            }
            switch event.kind {
            case .delivery(let id, _), .chaos(let id, _):
                if awaiting.payouts.contains(s.notifications[id - 1].payoutID) { return .awaitAnswers }
            case .timeline, .expiry: break
            }
        }
        _ = s.queue.popFirst()
        let at = VirtualTime(milliseconds: event.at)
        clock.advance(to: at)
        switch event.kind {
        case .timeline(let payoutID, _, let step):
            runStep(&s, payoutID: payoutID, step: step, at: at)
            return .ranStep
        case .delivery(let notificationID, let attempt):
            if attempt == 0, decidingChaos, decideChaos(&s, notificationID: notificationID, at: at) { return .moved }
            return .deliver(ownAttempt(&s, notificationID: notificationID, at: at))
        case .expiry(let payoutID):
            // Journaled as the status change it is, which a replay makes again.
            _ = try? change(&s, payoutID, to: TimelineStep(after: .zero, status: .expired), by: "bank", at: at)
            return .ranStep
        case .chaos(let notificationID, let copy):
            return .deliver(chaosCopy(&s, notificationID: notificationID, copy: copy, at: at))
        }
    }

    /// Runs a step of a payout's timeline, its next: applies it and queues the one after, or, when
    /// the lifecycle refuses it, ends the timeline (a later step cannot follow it). Journaled as
    /// what it did, so a replay does the same whatever its queue holds.
    func runStep(_ s: inout State, payoutID: Int, step: Int, at: VirtualTime) {
        guard let plan = s.payouts.plan(payoutID), plan.timeline.indices.contains(step) else { return }
        do throws(TransitionError) {
            try apply(&s, plan.timeline[step], to: payoutID, at: at, by: "bank")
            s.payouts.setNextStep(payoutID, step + 1)
            if step + 1 < plan.timeline.count {
                schedule(&s, .timeline(payoutID: payoutID, generation: plan.generation, step: step + 1),
                         at: plan.timeline[step + 1].due(after: at))
            }
        } catch {
            s.payouts.setNextStep(payoutID, plan.timeline.count)
        }
        journal(&s, .stepRan(payoutID: payoutID, step: step, at: at))
    }

    /// Runs every event due by `target`. Deliveries are sent as they come due; with
    /// `waitingForAnswers`, their answers are recorded in the order they were sent, before any
    /// event their retries could precede, before the next notification of the same payout is
    /// sent, and before returning (so the journal and the outcome do not depend on how fast
    /// receivers answer); without, each is recorded when it arrives.
    /// `yielding`: ends (answers awaited recorded) as soon as an advance waits to run.
    @discardableResult
    private func runEvents(until target: VirtualTime, waitingForAnswers: Bool, yielding: Bool = false) -> Int {
        var applied = 0
        var awaited = AwaitedAnswers()
        while true {
            let work = yielding && advancesWaiting.load(ordering: .relaxed) > 0
                ? .none : runningEvents { s in runNextEvent(&s, until: target, awaiting: awaited.summary) }
            switch work {
            case .none:
                guard !awaited.isEmpty else { return applied }
                awaited.record(into: self)  // their retries may be due by the target
            case .awaitAnswers:
                awaited.record(into: self)
            case .ranStep:
                applied += 1
            case .moved:
                break
            case .deliver(let sending):
                applied += 1
                if waitingForAnswers { awaited.send(sending, by: self) } else { sendAndRecordOnArrival(sending) }
            }
        }
    }
}
