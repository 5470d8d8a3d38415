/// A merchant account: credentials, balance in its settlement currency, limits and settings.
public struct Merchant: Sendable, Equatable {
    /// API key, sent as `login`.
    public var login: String
    /// API passphrase, sent as `pass`.
    public var pass: String
    /// API signature: the HMAC key for requests and notifications.
    public var secret: String
    /// Read-only key for `Authorization: Bearer` on GET endpoints.
    public var readOnlyKey: String
    /// The settlement currency of the balance.
    public var currency: String
    /// Available balance in `currency`.
    public var balance: Money
    /// Limits in the settlement currency; nil for none.
    public var limits: Limits
    /// Minimum payout amount per country, in the settlement currency.
    public var minimumAmounts: [String: Money]
    /// Client addresses allowed to call; empty allows any.
    public var allowedIPs: [String]
    /// Where notifications go when a payout names no URL.
    public var callbackURL: String?

    /// Per-payout, per-day and per-month limits (days and months of the virtual clock, UTC).
    public struct Limits: Sendable, Equatable {
        public var transaction: Money?
        public var daily: Money?
        public var monthly: Money?

        public init(transaction: Money? = nil, daily: Money? = nil, monthly: Money? = nil) {
            self.transaction = transaction
            self.daily = daily
            self.monthly = monthly
        }
    }

    public init(login: String, pass: String, secret: String, readOnlyKey: String, currency: String = "USD",
                balance: Money, limits: Limits = Limits(), minimumAmounts: [String: Money] = [:],
                allowedIPs: [String] = [], callbackURL: String? = nil) {
        self.login = login
        self.pass = pass
        self.secret = secret
        self.readOnlyKey = readOnlyKey
        self.currency = currency
        self.balance = balance
        self.limits = limits
        self.minimumAmounts = minimumAmounts
        self.allowedIPs = allowedIPs
        self.callbackURL = callbackURL
    }

    /// The merchant used when no scenario defines one (DESIGN.md, "Running").
    public static let sandboxDefault = Merchant(
        login: "sandbox_login", pass: "sandbox_pass", secret: "sandbox_secret", readOnlyKey: "sandbox_read_only",
        currency: "USD", balance: Money(hundredths: 100_000_000))
}
