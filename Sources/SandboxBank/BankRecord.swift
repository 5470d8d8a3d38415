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
    /// The first scheduled event ran (a timeline step or a delivery attempt, with its outcome) at `at`.
    case eventRan(at: VirtualTime, outcome: DeliveryOutcome?)
    /// A notification was sent once more by hand at `at`.
    case redelivered(notificationID: Int, at: VirtualTime, outcome: DeliveryOutcome)
    /// The clock was moved to `to` (the end of an advance).
    case clock(to: VirtualTime)
    /// A merchant was created or changed: its whole record after the change.
    case merchant(Merchant)
    /// Everything was forgotten; these merchants remain.
    case reset([Merchant])
}
