/// One change to the bank as the journal keeps it: what the bank needs to make the same change
/// again, the same way, when the journal is replayed.
///
/// The journal is logical: replay runs the bank's own code on these records in order, so every
/// consequence (ledger entries, notifications, the event queue and its order) comes out exactly
/// as it did. What the bank cannot decide again by itself is in the record: the time, the
/// timeline the scenario chose and what chose it, the settlement amount, and what a webhook
/// receiver answered. Its binary form (`encode(into:)`, `init(decoding:format:)`) is
/// SandboxPersistence's.
package enum BankRecord: Sendable, Equatable {
    /// A payout was created at `at` with `timeline` (the scenario's choice, made by `decision`),
    /// for `settlement` in its account's currency (debited then, unless it was staged or awaits
    /// details). Journals before format 5 hold no decision: it is `unknown`.
    case created(PayoutRequest, at: VirtualTime, settlement: Money, timeline: [TimelineStep], decision: TimelineDecision = .unknown)
    /// A staged payout (or one awaiting details) was executed by `actor` at `at`: debited and pending.
    case executed(payoutID: Int, by: String, at: VirtualTime)
    /// Details were added to a payout at `at`, as it was executed (a record before `executed`),
    /// and the scenario chose its `timeline` again, by `decision`.
    case detailsAdded(payoutID: Int, PayoutDetails, timeline: [TimelineStep], at: VirtualTime, decision: TimelineDecision = .unknown)
    /// A payout's status was changed by `actor` (the account through the API, or the admin), at `at`.
    case statusChanged(payoutID: Int, to: TimelineStep, by: String, at: VirtualTime)
    /// Step `step` of a payout's timeline ran at `at`: it was applied, or the lifecycle refused it
    /// and the timeline ended.
    case stepRan(payoutID: Int, step: Int, at: VirtualTime)
    /// Written by versions before 0.2 instead of `stepRan`: the first scheduled event was taken
    /// off the queue at `at` and run. Replayed for their journals; never written any more (its
    /// effect depends on the queue's exact state, which a crash can leave different).
    case eventRan(at: VirtualTime)
    /// A delivery attempt's outcome: `scheduled` by the retry policy, or a redelivery asked for by hand.
    case attempt(notificationID: Int, at: VirtualTime, outcome: DeliveryOutcome, scheduled: Bool)
    /// The clock was moved to `to` (the end of an advance).
    case clock(to: VirtualTime)
    /// An account was created or changed: its whole record after the change.
    case account(Account)
    /// Everything was forgotten; these accounts remain.
    case reset([Account])
    /// Webhook chaos decided `plan` for a notification whose first attempt came due at `at`
    /// (the scenario's choice, as fresh: nothing of it carried out yet).
    case chaosPlanned(notificationID: Int, ChaosPlan, at: VirtualTime)
    /// A chaos copy of a notification was sent at `at` (by a rule, or by hand), and answered so.
    case chaosAttempt(notificationID: Int, at: VirtualTime, outcome: DeliveryOutcome, ChaosMark)

    /// What kind of record it is, in words (for errors that point at one).
    package var kind: String {
        switch self {
        case .created: "cashout created"
        case .statusChanged: "status changed"
        case .stepRan: "timeline step ran"
        case .eventRan: "event ran (before 0.2)"
        case .attempt: "delivery attempt"
        case .clock: "clock moved"
        case .account: "account changed"
        case .executed: "cashout executed"
        case .detailsAdded: "details added"
        case .reset: "reset"
        case .chaosPlanned: "webhook chaos planned"
        case .chaosAttempt: "webhook chaos delivery"
        }
    }
}
