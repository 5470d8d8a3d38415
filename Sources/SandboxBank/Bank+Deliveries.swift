import Dispatch
import Synchronization

// Delivering notifications: a due attempt is handed to `deliver` outside the lock, and the bank
// goes on with other events while it is on its way; many are on their way at once (`deliver`
// decides how many run side by side). A receiver that never answers holds up nothing but its
// own notification, whose retry follows the schedule from that attempt's outcome.
//
// When its answer is recorded depends on who runs the events:
// - an advance (and `runDueEvents`) records answers in the order the attempts were sent, before
//   any event a retry could precede, and before it returns: the same steps give the same journal
//   and the same results, however fast or slow the receivers are;
// - a clock driver (`startDueEvents`) records each answer when it arrives; an advance first waits
//   for those still on their way.

extension Bank {
    /// The attempts a clock driver sent, still on their way. A reset or a restore starts a new
    /// set: answers for an old one are dropped (their notifications are gone or restored).
    final class Deliveries: Sendable {
        let onTheirWay = DispatchGroup()
    }

    /// Sends an attempt and records its answer when it arrives.
    func sendAndRecordOnArrival(_ notification: StatusNotification, at: VirtualTime) {
        let deliveries = state.withLock { $0.deliveries }
        deliveries.onTheirWay.enter()
        let recordAnswer = { @Sendable (outcome: DeliveryOutcome) in
            self.state.withLock { s in
                if s.deliveries === deliveries { self.record(outcome, notificationID: notification.id, at: at, scheduled: true, in: &s) }
            }
            deliveries.onTheirWay.leave()
        }
        if let outcome = deliver(notification, recordAnswer) { recordAnswer(outcome) }
    }

    /// Waits until every attempt a clock driver sent has been answered and recorded.
    func waitForDeliveriesOnTheirWay() {
        state.withLock { $0.deliveries }.onTheirWay.wait()
    }

    /// Sends a notification once more, now, whatever its state, and calls `done` with it once the
    /// attempt is recorded (nil, at once, when it has no URL).
    public func redeliver(notificationID: Int, then done: @escaping @Sendable (StatusNotification?) -> Void) {
        let (found, deliveries) = state.withLock { s in
            (s.notifications.indices.contains(notificationID - 1) ? s.notifications[notificationID - 1] : nil, s.deliveries)
        }
        guard let notification = found, notification.url != nil else { return done(nil) }
        let at = clock.now
        let recordAnswer = { @Sendable (outcome: DeliveryOutcome) in
            let recorded = self.state.withLock { s -> StatusNotification? in
                guard s.deliveries === deliveries else { return nil }
                self.record(outcome, notificationID: notificationID, at: at, scheduled: false, in: &s)
                return s.notifications[notificationID - 1]
            }
            done(recorded)
        }
        if let outcome = deliver(notification, recordAnswer) { recordAnswer(outcome) }
    }

    /// `redeliver(notificationID:then:)`, waiting for the answer.
    public func redeliver(notificationID: Int) -> StatusNotification? {
        let answered = DispatchSemaphore(value: 0)
        let result = Mutex<StatusNotification?>(nil)
        redeliver(notificationID: notificationID) { notification in
            result.withLock { $0 = notification }
            answered.signal()
        }
        answered.wait()
        return result.withLock { $0 }
    }

    /// Journals an attempt. A scheduled attempt that fails schedules the next one, or gives up
    /// after the last; a manual redelivery (`scheduled` false) only ever settles a notification
    /// by succeeding, and leaves its pending retries as they were.
    func record(_ outcome: DeliveryOutcome, notificationID: Int, at: VirtualTime, scheduled: Bool, in s: inout State) {
        // Changed in place: copying it out would copy its attempts on every append.
        s.notifications[notificationID - 1].attempts.append(DeliveryAttempt(
            number: s.notifications[notificationID - 1].attempts.count + 1, at: at, outcome: outcome, manual: !scheduled))
        var notification = s.notifications[notificationID - 1]
        if outcome.succeeded {
            notification.state = .delivered
            notification.nextAttemptAt = nil
        } else if scheduled, notification.state == .pending {  // not when a redelivery succeeded meanwhile
            let failures = notification.scheduledAttempts
            if failures <= s.configuration.retrySchedule.count {
                let next = at.adding(s.configuration.retrySchedule[failures - 1])
                notification.nextAttemptAt = next
                schedule(&s, .delivery(notificationID: notificationID, attempt: failures), at: next)
            } else {
                notification.state = .exhausted
                notification.nextAttemptAt = nil
            }
        }
        s.notifications[notificationID - 1] = notification
        journal(&s, .attempt(notificationID: notificationID, at: at, outcome: outcome, scheduled: scheduled))
        s.observer?(.deliveryAttempt(notification, notification.attempts[notification.attempts.count - 1]))
    }
}

/// Attempts an advance sent and whose answers it awaits, in the order they were sent.
struct AwaitedAnswers {
    /// Answers by their place in `sent`; one signal per answer.
    private final class Slots: Sendable {
        let answers = Mutex<[Int: DeliveryOutcome]>([:])
        let arrived = DispatchSemaphore(value: 0)
    }

    /// What the next event's turn depends on: when the first attempt awaited was due, and the
    /// payouts whose notifications are awaited (their next waits: one payout's go out in order).
    struct Summary {
        let firstDue: VirtualTime
        let payouts: Set<Int>
    }

    private var sent: [(notificationID: Int, at: VirtualTime)] = []
    private var payouts = Set<Int>()
    private var slots = Slots()

    var isEmpty: Bool { sent.isEmpty }
    var summary: Summary? { sent.first.map { Summary(firstDue: $0.at, payouts: payouts) } }

    /// Sends an attempt. An answer known at once (the sink's) is recorded at once when no answer
    /// sent before it is awaited, so that such deliveries keep their place among the events.
    mutating func send(_ notification: StatusNotification, at: VirtualTime, by bank: Bank) {
        let (slot, slots) = (sent.count, slots)
        let atOnce = bank.deliver(notification) { outcome in
            slots.answers.withLock { $0[slot] = outcome }
            slots.arrived.signal()
        }
        if let atOnce {
            if sent.isEmpty {
                bank.runningEvents { s in bank.record(atOnce, notificationID: notification.id, at: at, scheduled: true, in: &s) }
                return
            }
            slots.answers.withLock { $0[slot] = atOnce }
        }
        sent.append((notification.id, at))
        payouts.insert(notification.payoutID)
    }

    /// Waits for every answer and records them in the order the attempts were sent.
    mutating func record(into bank: Bank) {
        for (slot, attempt) in sent.enumerated() {
            var outcome = slots.answers.withLock { $0[slot] }
            while outcome == nil {
                slots.arrived.wait()
                outcome = slots.answers.withLock { $0[slot] }
            }
            bank.runningEvents { s in bank.record(outcome!, notificationID: attempt.notificationID, at: attempt.at, scheduled: true, in: &s) }
        }
        sent.removeAll(keepingCapacity: true)
        payouts.removeAll(keepingCapacity: true)
        slots = Slots()
    }
}
