/// A request to pay out, as a dialect hands it to the bank after its own validation.
package struct PayoutRequest: Sendable, Equatable {
    /// The API it came through (`Dialect.name`): it renders the payout's notifications.
    package var dialect: String
    /// The account it is paid from, which `dialect` owns.
    package var account: String
    /// The caller's own id for it, unique per account; nil for none.
    package var reference: String?
    /// Where it goes, when the API says (the account's minimum amounts are per country).
    package var country: String?
    package var currency: String
    package var amount: Money
    /// The status it starts in: `pending` or `onHold` (debited at once), `staged` or
    /// `awaitingDetails` (debited when executed, `Bank.execute`).
    package var status: PayoutStatus
    /// nil: the account's default URL, if any.
    package var callbackURL: String?
    /// Every field of the request by the dialect's names (shown in the admin API, matched by scenarios).
    package var fields: Fields
    /// For a payout staged or awaiting details: how long it waits to be executed before the bank
    /// makes it EXPIRED (a payout link's lifetime); nil: it waits for ever. Whole milliseconds, at
    /// most `longestExpiry`.
    package var expiresAfter: Duration?

    /// The longest `expiresAfter` kept (a longer one is shortened to it): 100 years.
    static let longestExpiry = Duration.seconds(100 * 366 * 86_400)

    package init(dialect: String, account: String, reference: String? = nil, country: String? = nil, currency: String, amount: Money,
                status: PayoutStatus = .pending, callbackURL: String? = nil, fields: Fields = [:], expiresAfter: Duration? = nil) {
        precondition(status.isStart, "a payout starts pending, on hold, staged or awaiting details")
        self.dialect = dialect
        self.account = account
        self.reference = reference
        self.country = country
        self.currency = currency
        self.amount = amount
        self.status = status
        self.callbackURL = callbackURL
        self.fields = fields
        self.expiresAfter = expiresAfter
    }
}

/// What a payout learns when it is executed: fields that join (or replace) the request's, and
/// where its notifications go from then on (a transfer's webhook URL, the recipient's details).
package struct PayoutDetails: Sendable, Equatable {
    package var fields: Fields
    /// nil: where they went before.
    package var callbackURL: String?

    package init(fields: Fields = [:], callbackURL: String? = nil) {
        self.fields = fields
        self.callbackURL = callbackURL
    }

    var isEmpty: Bool { fields.count == 0 && callbackURL == nil }
}

/// Why the bank refused to create (or execute) a payout, in the order it checks.
package enum PayoutRefusal: Error, Sendable, Equatable {
    /// No such account, or one another API owns.
    case unknownAccount
    /// The account already used this reference.
    case duplicateReference
    /// No exchange rate between the payout's currency and the settlement currency.
    case unsupportedCurrency
    /// Below the account's minimum for the country, given in the payout's currency.
    case belowMinimum(currency: String, amount: Money)
    case limitExceeded(Limit)
    case insufficientFunds
    /// Refused by the scenario, or by the dialect's own check (`Bank.createPayout(_:admitting:)`).
    case declined(Decline)
    /// Only a staged payout, or one awaiting details, is executed.
    case notExecutable(PayoutStatus)

    /// Which limit.
    package enum Limit: Sendable { case transaction, daily, monthly }
}

/// A status change that the lifecycle does not allow.
package struct TransitionError: Error, Sendable, Equatable {
    package let from: PayoutStatus
    package let to: PayoutStatus
}
