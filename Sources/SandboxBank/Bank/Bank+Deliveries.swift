import Dispatch
import SandboxSupport
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
    func sendAndRecordOnArrival(_ sending: Sending) {
        let deliveries = state.withLock { $0.deliveries }
        deliveries.onTheirWay.enter()
        let recordAnswer = { @Sendable (outcome: DeliveryOutcome) in
            self.state.withLock { s in
                if s.deliveries === deliveries { self.record(outcome, for: sending, in: &s) }
            }
            deliveries.onTheirWay.leave()
        }
        if let outcome = deliver(self, sending.notification, recordAnswer) { recordAnswer(outcome) }
    }

    /// Waits until every attempt a clock driver sent has been answered and recorded.
    func waitForDeliveriesOnTheirWay() {
        state.withLock { $0.deliveries }.onTheirWay.wait()
    }

    /// Sends a notification once more, now, whatever its state, and calls `done` with it once the
    /// attempt is recorded (nil, at once, when it has no URL).
    package func redeliver(notificationID: Int, then done: @escaping @Sendable (StatusNotification?) -> Void) {
        sendNow(notificationID: notificationID, chaos: nil, then: done)
    }

    /// Sends a notification now, as itself or as a chaos copy of `kind` (duplicate, forged or
    /// replay: an attempt the retry schedule does not count), and calls `done` with it once the
    /// attempt is recorded (nil, at once, when it has no URL).
    func sendNow(notificationID: Int, chaos kind: ChaosKind?, then done: @escaping @Sendable (StatusNotification?) -> Void) {
        let (found, deliveries) = state.withLock { s in
            (s.notifications.indices.contains(notificationID - 1) ? s.notifications[notificationID - 1] : nil, s.deliveries)
        }
        guard var notification = found, notification.url != nil else { return done(nil) }
        let mark = kind.map { ChaosMark(kind: $0, rule: nil, copyOf: notification.firstOwnAttempt) }
        notification.forged = kind == .forged
        let at = clock.now
        let recordAnswer = { @Sendable (outcome: DeliveryOutcome) in
            let recorded = self.state.withLock { s -> StatusNotification? in
                guard s.deliveries === deliveries else { return nil }
                if let mark {
                    self.recordCopy(outcome, notificationID: notificationID, at: at, mark: mark, in: &s)
                } else {
                    self.record(outcome, notificationID: notificationID, at: at, scheduled: false, in: &s)
                }
                return s.notifications[notificationID - 1]
            }
            done(recorded)
        }
        if let outcome = deliver(self, notification, recordAnswer) { recordAnswer(outcome) }
    }

    /// `redeliver(notificationID:then:)`, waiting for the answer.
    func redeliver(notificationID: Int) -> StatusNotification? {
        let answered = DispatchSemaphore(value: 0)
        let result = Mutex<StatusNotification?>(nil)
        redeliver(notificationID: notificationID) { notification in
            result.withLock { $0 = notification }
            answered.signal()
        }
        answered.wait()
        return result.withLock { $0 }
    }

    /// Journals the answer to a delivery an event sent: an attempt of the notification's own, or a chaos copy.
    func record(_ outcome: DeliveryOutcome, for sending: Sending, in s: inout State) {
        if let mark = sending.mark {
            recordCopy(outcome, notificationID: sending.notification.id, at: sending.at, mark: mark, in: &s)
        } else {
            record(outcome, notificationID: sending.notification.id, at: sending.at, scheduled: true, in: &s)
        }
    }

    /// Journals an attempt. A scheduled attempt that fails schedules the next one, or gives up
    /// after the last; a manual redelivery (`scheduled` false) only ever settles a notification
    /// by succeeding, and leaves its pending retries as they were. The first scheduled attempt,
    /// and a delivery, may set off webhook chaos (`chaosFollows`).
    func record(_ outcome: DeliveryOutcome, notificationID: Int, at: VirtualTime, scheduled: Bool, in s: inout State) {
        let index = notificationID - 1
        let first = scheduled && s.notifications[index].scheduledAttempts == 0
        let settles = outcome.succeeded && s.notifications[index].state != .delivered
        // Changed in place: copying it out (and back) would copy its attempts and its references.
        s.notifications[index].attempts.append(at: at, outcome: s.outcomes.intern(outcome, OutOfLine.init), manual: !scheduled,
                                               chaos: first ? Self.shiftMark(s.notifications[index]) : nil)
        if outcome.succeeded {
            s.notifications[index].state = .delivered
            s.notifications[index].nextAttemptAt = nil
        } else if scheduled, s.notifications[index].state == .pending {  // not when a redelivery succeeded meanwhile
            let failures = s.notifications[index].scheduledAttempts
            if failures <= s.configuration.retrySchedule.count {
                let next = at.adding(s.configuration.retrySchedule[failures - 1])
                s.notifications[index].nextAttemptAt = next
                schedule(&s, .delivery(notificationID: notificationID, attempt: failures), at: next)
            } else {
                s.notifications[index].state = .exhausted
                s.notifications[index].nextAttemptAt = nil
            }
        }
        // Without webhook chaos (no plan of its own, no notification waiting for a later one), nothing follows.
        if first || settles, (first && s.notifications[index].chaos != nil) || !s.chaosWatch.isEmpty {
            chaosFollows(&s, notificationID: notificationID, at: at, firstAttempt: first, delivered: settles)
        }
        journal(&s, .attempt(notificationID: notificationID, at: at, outcome: outcome, scheduled: scheduled))
        if let observer = s.observer { observer(.deliveryAttempt(s.notifications[index], s.notifications[index].attempts.last!)) }
    }
}

/// A delivery an event sends: the notification as it goes out (a forged copy says so), when it
/// was due, and, for a chaos copy, its mark.
struct Sending: Sendable {
    let notification: StatusNotification
    let at: VirtualTime
    /// A chaos copy's mark: out of line (a reference, not its 100 bytes), as most sent have none
    /// and a run of events moves each one sent several times.
    private let chaosMark: OutOfLine<ChaosMark>?
    var mark: ChaosMark? { chaosMark?.value }
    /// The earliest time a chaos delivery its answer may queue is due (a copy, a held notification
    /// released, a replay): an advance records the answer before it runs a later event.
    let chaosFrom: VirtualTime?

    init(_ notification: StatusNotification, at: VirtualTime, mark: ChaosMark? = nil, chaosFrom: VirtualTime? = nil) {
        self.notification = notification
        self.at = at
        chaosMark = mark.map(OutOfLine.init)
        self.chaosFrom = chaosFrom
    }
}

/// Attempts an advance sent and whose answers it awaits, in the order they were sent.
struct AwaitedAnswers {
    /// Answers by their place in `sent`; one signal per answer.
    private final class Slots: Sendable {
        let answers = Mutex<[Int: DeliveryOutcome]>([:])
        let arrived = DispatchSemaphore(value: 0)
    }

    /// What the next event's turn depends on: when the first attempt awaited was due, the
    /// payouts whose notifications are awaited (their next waits: one payout's go out in order),
    /// and the earliest chaos delivery an answer awaited may queue (a later event waits).
    struct Summary {
        let firstDue: VirtualTime
        let payouts: Set<Int>
        let chaosFrom: VirtualTime?
    }

    private var sent: [Sending] = []
    private var payouts = Set<Int>()
    private var chaosFrom: VirtualTime?
    private var slots = Slots()

    var isEmpty: Bool { sent.isEmpty }
    var summary: Summary? { sent.first.map { Summary(firstDue: $0.at, payouts: payouts, chaosFrom: chaosFrom) } }

    /// Sends an attempt. An answer known at once (the sink's) is recorded at once when no answer
    /// sent before it is awaited, so that such deliveries keep their place among the events.
    mutating func send(_ sending: Sending, by bank: Bank) {
        let (slot, slots) = (sent.count, slots)
        let atOnce = bank.deliver(bank, sending.notification) { outcome in
            slots.answers.withLock { $0[slot] = outcome }
            slots.arrived.signal()
        }
        if let atOnce {
            if sent.isEmpty {
                bank.runningEvents { s in bank.record(atOnce, for: sending, in: &s) }
                return
            }
            slots.answers.withLock { $0[slot] = atOnce }
        }
        sent.append(sending)
        payouts.insert(sending.notification.payoutID)
        if let from = sending.chaosFrom { chaosFrom = min(chaosFrom ?? from, from) }
    }

    /// Waits for every answer and records them in the order the attempts were sent.
    mutating func record(into bank: Bank) {
        for (slot, sending) in sent.enumerated() {
            var outcome = slots.answers.withLock { $0[slot] }
            while outcome == nil {
                slots.arrived.wait()
                outcome = slots.answers.withLock { $0[slot] }
            }
            bank.runningEvents { s in bank.record(outcome!, for: sending, in: &s) }
        }
        sent.removeAll(keepingCapacity: true)
        payouts.removeAll(keepingCapacity: true)
        chaosFrom = nil
        slots = Slots()
    }
}
