import SandboxBank

// Mannco's fee table (its API docs, "Cashout"): Payoneer 2 %, 1–3 business days; Tipalti 1.5 %, 3–5 business days;
// a $50 minimum for both. The sandbox's choices (the Mannco guide, "Endpoints"): the fee
// is rounded to whole cents, halves away from zero, and withheld from the amount; the estimate is
// the upper bound in business days (Saturdays and Sundays skipped, UTC).

/// A payout method `POST /cashout/process` takes, with its fee and its time.
enum ManncoMethod: String, Sendable, CaseIterable {
    case payoneer, tipalti

    /// The fee in hundredths of a percent: 200 is 2 %.
    var feeBasisPoints: Int64 {
        switch self {
        case .payoneer: 200
        case .tipalti: 150
        }
    }

    /// The upper bound of its processing time.
    var businessDays: Int {
        switch self {
        case .payoneer: 3
        case .tipalti: 5
        }
    }

    /// The method users link to receive it.
    var provider: ManncoProvider { self == .payoneer ? .payoneer : .tipalti }

    /// The fee of `cents`, rounded to whole cents, halves away from zero: Tipalti's fee of 5001 is
    /// 75.015, so 75; of 5100, 76.5, so 77. (Amounts are positive and at most 2^53 cents, so the
    /// product fits.)
    func fee(_ cents: Int64) -> Int64 {
        (cents * feeBasisPoints + 5000) / 10000
    }

    /// When a cashout created at `time` should be complete.
    func estimatedCompletion(from time: VirtualTime) -> VirtualTime {
        time.addingBusinessDays(businessDays)
    }
}
