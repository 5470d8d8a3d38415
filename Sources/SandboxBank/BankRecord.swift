/// One change to the bank as the journal keeps it: what the bank needs to make the same change
/// again, the same way, when the journal is replayed.
///
/// The journal is logical: replay runs the bank's own code on these records in order, so every
/// consequence (ledger entries, notifications, the event queue and its order) comes out exactly
/// as it did. What the bank cannot decide again by itself is in the record: the time, the
/// timeline the scenario chose, the settlement amount, and what a webhook receiver answered.
public enum BankRecord: Sendable, Equatable {
    /// A payout was created at `at` with `timeline` (the scenario's choice) and debited `settlement`.
    case created(PayoutRequest, at: VirtualTime, settlement: Money, timeline: [TimelineStep])
    /// A payout's status was changed by `actor` (the merchant through the API, or the admin), at `at`.
    case statusChanged(payoutID: Int, to: TimelineStep, by: String, at: VirtualTime)
    /// The first scheduled event was taken off the queue at `at` and run: a timeline step is
    /// applied (or refused by the lifecycle); a delivery is sent, and its `attempt` follows.
    case eventRan(at: VirtualTime)
    /// A delivery attempt's outcome: `scheduled` by the retry policy, or a redelivery asked for by hand.
    case attempt(notificationID: Int, at: VirtualTime, outcome: DeliveryOutcome, scheduled: Bool)
    /// The clock was moved to `to` (the end of an advance).
    case clock(to: VirtualTime)
    /// A merchant was created or changed: its whole record after the change.
    case merchant(Merchant)
    /// Everything was forgotten; these merchants remain.
    case reset([Merchant])
}
