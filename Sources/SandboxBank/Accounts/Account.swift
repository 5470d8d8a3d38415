/// An account that one API owns (a merchant of one, a user of another): a balance in its
/// settlement currency, limits, and what the owning API keeps with it, which the bank does not read.
@usableFromInline package struct Account: Sendable, Equatable {
    /// Unique in the bank, across APIs.
    package var id: String
    /// The API that owns it (`Dialect.name`): only that API's requests use it.
    package var dialect: String
    /// The settlement currency of the balance.
    package var currency: String
    /// Available balance in `currency`.
    package var balance: Money
    /// Limits in the settlement currency; nil for none.
    package var limits: Limits
    /// Minimum payout amount per country, in the settlement currency.
    package var minimumAmounts: [String: Money]
    /// Where notifications go when a payout names no URL.
    package var callbackURL: String?
    /// What the owning API keeps with the account (credentials, settings), by its own names.
    package var settings: Fields

    /// Per-payout, per-day and per-month limits (days and months of the virtual clock, UTC).
    package struct Limits: Sendable, Equatable {
        package var transaction: Money?
        package var daily: Money?
        package var monthly: Money?

        package init(transaction: Money? = nil, daily: Money? = nil, monthly: Money? = nil) {
            self.transaction = transaction
            self.daily = daily
            self.monthly = monthly
        }
    }

    package init(id: String, dialect: String, currency: String = "USD", balance: Money, limits: Limits = Limits(),
                minimumAmounts: [String: Money] = [:], callbackURL: String? = nil, settings: Fields = [:]) {
        self.id = id
        self.dialect = dialect
        self.currency = currency
        self.balance = balance
        self.limits = limits
        self.minimumAmounts = minimumAmounts
        self.callbackURL = callbackURL
        self.settings = settings
    }
}
