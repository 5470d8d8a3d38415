import Synchronization
// Watching the bank: one event per thing that happened, for logs and dashboards. The bank knows
// nothing of what an observer does with them; it only promises to call it, in order.

/// Something that happened in the bank, as an observer sees it.
package enum BankEvent: Sendable {
    /// A payout was accepted, in the status its request asked for (`PayoutRequest.status`).
    case created(Payout)
    /// A payout changed status: `payout` is as it is after the change, `by` says who changed it
    /// (`bank` for its timeline, `merchant` for an API caller, `admin`).
    case statusChanged(Payout, from: PayoutStatus, by: String, at: VirtualTime)
    /// A notification was sent once: `notification` is as it is after the attempt (its state and
    /// `nextAttemptAt` say whether and when it is tried again).
    case deliveryAttempt(StatusNotification, DeliveryAttempt)
    /// The clock was moved forward on request (not the real-time clock's own ticks).
    case clockAdvanced(from: VirtualTime, to: VirtualTime, eventsApplied: Int)
}

extension Bank {
    /// Passes every event from now on to `observer`, in the order they happen. It is called under
    /// the bank's lock, so it must be quick and must not call the bank: hand the event to a queue,
    /// never write or wait. A later call replaces the observer; without one events cost nothing.
    ///
    /// ```swift
    /// bank.observe { event in log.enqueue(event) }
    /// ```
    package func observe(_ observer: @escaping @Sendable (BankEvent) -> Void) {
        state.withLock { $0.observer = observer }
    }
}
