// Moving time: events run one at a time in time order (ties in the order they were scheduled),
// the clock stepping to each event's time, so an advance of two days replays the bank's two days
// exactly. Deliveries happen outside the state lock but inside the run, in order: a retry they
// schedule within the same advance runs in it too.

extension Bank {
    enum Work {
        case none
        case skipped
        case applied
        case deliver(StatusNotification, VirtualTime)
    }

    /// Moves the clock forward by `duration`, running every event due on the way. Returns how
    /// many events were applied (status changes and delivery attempts).
    @discardableResult
    public func advance(by duration: Duration) -> Int {
        runner.withLock { _ in
            let from = clock.now
            let target = from.adding(duration)
            let applied = runEvents(until: target)
            moveClock(to: target)
            notifyAdvanced(from: from, applied: applied)
            return applied
        }
    }

    /// Moves the clock forward to `time` (never back), running every event due on the way.
    @discardableResult
    public func advance(to time: VirtualTime) -> Int {
        runner.withLock { _ in
            let from = clock.now
            let applied = runEvents(until: time)
            moveClock(to: time)
            notifyAdvanced(from: from, applied: applied)
            return applied
        }
    }

    /// Moves the clock to the next scheduled event and runs everything due then; 0 if none is.
    @discardableResult
    public func advanceToNextEvent() -> Int {
        guard let next = nextEventAt else { return 0 }
        return advance(to: max(next, clock.now))
    }

    /// Runs the events due by the clock's current time (for a clock that moves by itself).
    @discardableResult
    public func runDueEvents() -> Int {
        runner.withLock { _ in runEvents(until: clock.now) }
    }

    /// Sends a notification once more, now, whatever its state; nil when it has no URL.
    public func redeliver(notificationID: Int) -> StatusNotification? {
        runner.withLock { _ -> StatusNotification? in
            guard let notification = notification(id: notificationID), notification.url != nil else { return nil }
            let at = clock.now
            let outcome = sender(notification)
            return state.withLock { s in
                record(outcome, notificationID: notificationID, at: at, scheduled: false, in: &s)
                return s.notifications[notificationID - 1]
            }
        }
    }

    private func moveClock(to time: VirtualTime) {
        let now = clock.advance(to: time)
        state.withLock { $0.recorder?(.clock(to: now)) }
    }

    /// Takes the first event due by `target` off the queue and runs it, moving the clock to its
    /// time; a delivery is left to the caller, who sends it outside the lock.
    func runNextEvent(_ s: inout State, until target: VirtualTime) -> Work {
        dropStaleEvents(&s)
        guard let event = s.queue.first, event.at <= target.milliseconds else { return .none }
        _ = s.queue.popFirst()
        let at = VirtualTime(milliseconds: event.at)
        clock.advance(to: at)
        s.recorder?(.eventRan(at: at))
        switch event.kind {
        case .timeline(let payoutID, let generation, let index):
            guard let plan = s.payouts.plan(payoutID), generation == plan.generation, index < plan.timeline.count else {
                return .skipped
            }
            // A step the lifecycle refuses ends the timeline (a later step cannot follow it).
            do { try apply(&s, plan.timeline[index], to: payoutID, at: at, by: "bank") } catch { return .skipped }
            if index + 1 < plan.timeline.count {
                s.queue.schedule(.timeline(payoutID: payoutID, generation: generation, step: index + 1),
                                 at: plan.timeline[index + 1].due(after: at))
            }
            return .applied
        case .delivery(let notificationID):
            let notification = s.notifications[notificationID - 1]
            return notification.state == .pending ? .deliver(notification, at) : .skipped
        }
    }

    private func runEvents(until target: VirtualTime) -> Int {
        var applied = 0
        while true {
            let work = state.withLock { s -> Work in runNextEvent(&s, until: target) }
            switch work {
            case .none:
                return applied
            case .skipped:
                continue
            case .applied:
                applied += 1
            case .deliver(let notification, let at):
                let outcome = sender(notification)
                state.withLock { s in record(outcome, notificationID: notification.id, at: at, scheduled: true, in: &s) }
                applied += 1
            }
        }
    }

    /// Journals an attempt. A scheduled attempt that fails schedules the next one, or gives up
    /// after the last; a manual redelivery (`scheduled` false) only ever settles a notification
    /// by succeeding, and leaves its pending retries as they were.
    func record(_ outcome: DeliveryOutcome, notificationID: Int, at: VirtualTime, scheduled: Bool, in s: inout State) {
        s.recorder?(.attempt(notificationID: notificationID, at: at, outcome: outcome, scheduled: scheduled))
        // Changed in place: copying it out would copy its attempts on every append.
        s.notifications[notificationID - 1].attempts.append(DeliveryAttempt(
            number: s.notifications[notificationID - 1].attempts.count + 1, at: at, outcome: outcome, manual: !scheduled))
        var notification = s.notifications[notificationID - 1]
        if outcome.succeeded {
            notification.state = .delivered
            notification.nextAttemptAt = nil
        } else if scheduled {
            let failures = notification.attempts.count { !$0.manual }
            if failures <= s.configuration.retrySchedule.count {
                let next = at.adding(s.configuration.retrySchedule[failures - 1])
                notification.nextAttemptAt = next
                s.queue.schedule(.delivery(notificationID: notificationID), at: next)
            } else {
                notification.state = .exhausted
                notification.nextAttemptAt = nil
            }
        }
        s.notifications[notificationID - 1] = notification
        s.observer?(.deliveryAttempt(notification, notification.attempts[notification.attempts.count - 1]))
    }
}
