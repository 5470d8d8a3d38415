/// A request to pay out, as a dialect hands it to the bank after its own validation.
public struct PayoutRequest: Sendable, Equatable {
    /// The API it came through (`Dialect.name`): it renders the payout's notifications.
    public var dialect: String
    public var merchant: String
    public var reference: String
    public var country: String
    public var currency: String
    public var amount: Money
    public var onHold: Bool
    /// nil: the merchant's default URL, if any.
    public var callbackURL: String?
    /// Every field of the request by its wire name (shown in the admin API, matched by scenarios).
    public var fields: PayoutFields

    public init(dialect: String, merchant: String, reference: String, country: String, currency: String, amount: Money,
                onHold: Bool = false, callbackURL: String? = nil, fields: PayoutFields = [:]) {
        self.dialect = dialect
        self.merchant = merchant
        self.reference = reference
        self.country = country
        self.currency = currency
        self.amount = amount
        self.onHold = onHold
        self.callbackURL = callbackURL
        self.fields = fields
    }
}

/// Why the bank refused to create a payout, in the order it checks.
public enum PayoutRefusal: Error, Sendable, Equatable {
    case unknownMerchant
    /// The merchant already used this reference.
    case duplicateReference
    /// No exchange rate between the payout's currency and the settlement currency.
    case unsupportedCurrency
    /// Below the merchant's minimum for the country, given in the payout's currency.
    case belowMinimum(currency: String, amount: Money)
    case limitExceeded(Limit)
    case insufficientFunds
    /// Refused by the scenario.
    case declined(Decline)

    /// Which limit.
    public enum Limit: String, Sendable { case transaction = "TRANSACTION", daily = "DAILY", monthly = "MONTHLY" }
}

/// A status change that the lifecycle does not allow.
public struct TransitionError: Error, Sendable, Equatable {
    public let from: PayoutStatus
    public let to: PayoutStatus
}
