// Every gRPC status message the PayoutService dialect gives, in one place: the handlers throw
// these and the tests expect them (the PayoutService guide, "Errors, two ways").

/// The PayoutService dialect's status messages, worded as Prism words them.
enum PrismMessage {
    /// INVALID_ARGUMENT for a header or field that is absent: "Missing required field: x-connector".
    package static func missing(_ field: String) -> String { "Missing required field: \(field)" }
    /// INVALID_ARGUMENT for a header or field that is malformed: "Invalid data format: x-auth".
    static func invalid(_ field: String) -> String { "Invalid data format: \(field)" }
    /// UNAUTHENTICATED: the merchant is unknown, or the key (key1, secret) is not its.
    static let invalidCredentials = "Invalid credentials: the API key does not match the merchant"
    /// NOT_FOUND: no payout of the merchant has the id given (`connector_payout_id` or `merchant_payout_id`).
    static func payoutNotFound(_ id: String) -> String { "Payout not found: \(id)" }
    /// NOT_FOUND: the merchant enrolled no disburse account of this `connector_payout_method_id`.
    static func payoutMethodNotFound(_ id: String) -> String { "Payout method not found: \(id)" }
    /// FAILED_PRECONDITION: the lifecycle forbids `action` in the payout's status (a Void after SUCCESS).
    package static func forbidden(_ action: String, status: String) -> String {
        "You cannot \(action) this payout because it has status \(status)"
    }
    /// FAILED_PRECONDITION: Transfer of a payout that is not staged (REQUIRES_FULFILLMENT).
    static func notStaged(_ status: String) -> String {
        "You cannot transfer this payout because it has status \(status): only a staged payout (REQUIRES_FULFILLMENT) is transferred"
    }
    /// RESOURCE_EXHAUSTED: the merchant keeps `limit` recipients (or disburse accounts) already.
    static func tooMany(_ what: String, _ limit: Int) -> String {
        "The sandbox keeps at most \(limit) \(what) per merchant: reset the sandbox or use another merchant"
    }
    /// The connector error of a payout refused for the merchant's balance.
    static let insufficientFunds = "Insufficient balance in the merchant account"
    /// The connector error of a payout over one of the merchant's limits.
    static func limitExceeded(_ limit: String) -> String { "The payout exceeds the merchant's \(limit) limit" }
    /// The connector error of a payout in a currency the sandbox cannot settle.
    static func unsupportedCurrency(_ currency: String) -> String { "Currency \(currency) is not supported" }
    /// The connector error of a payout below the merchant's minimum.
    static func belowMinimum(_ currency: String, _ amount: String) -> String { "The minimum payout is \(currency) \(amount)" }
    /// The connector reason of a payout the bank rejected without a reason.
    package static let rejected = "The payout was rejected by the bank"
    /// The connector reason of a payout returned after success without a reason.
    static let reversed = "The payout was returned after it had succeeded"
}
