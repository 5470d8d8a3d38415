package import SandboxBank
import SandboxContract

/// A D24 merchant: an account of the bank owned by D24, with its credentials in the account's
/// settings under the scenario file's names (`pass`, `secret`, `read_only_key`, `allowed_ips`).
///
/// ```swift
/// let account = D24Merchant.account(login: "acme", pass: "p", secret: "s", balance: Money("5000")!)
/// D24Merchant(account).secret   // "s"
/// ```
public struct D24Merchant: Sendable {
    package let account: Account

    package init(_ account: Account) {
        self.account = account
    }

    /// `account` as a D24 merchant; nil when another API owns it (a D24 login cannot use it).
    package init?(owned account: Account) {
        guard account.dialect == D24Dialect.name else { return nil }
        self.account = account
    }

    /// API key, sent as `login`: the account's id.
    public var login: String { account.id }
    /// API passphrase, sent as `pass`.
    public var pass: String { account.settings[Self.numbered.pass] ?? "" }
    /// API signature: the HMAC key for requests and notifications.
    public var secret: String { account.settings[Self.numbered.secret] ?? "" }
    /// Read-only key for `Authorization: Bearer` on GET endpoints; empty for none.
    public var readOnlyKey: String { account.settings[Key.readOnlyKey] ?? "" }
    /// The secret before the admin API last changed it, kept to tell a client still signing with it.
    public var previousSecret: String? { account.settings[Key.previousSecret] }
    /// Client addresses allowed to call; empty allows any.
    public var allowedIPs: [String] { Self.addresses(account.settings[Self.numbered.allowedIPs]) }

    /// Whether a client at `address` may call: any, without an allow-list (read without building it).
    func allows(_ address: String?) -> Bool {
        guard let list = account.settings[Self.numbered.allowedIPs] else { return true }
        return address.map { address in list.split(separator: ",").contains { $0 == address } } ?? false
    }

    /// The names read on every request and notification, numbered once.
    private static let numbered = (pass: Fields.Name(Key.pass), secret: Fields.Name(Key.secret), allowedIPs: Fields.Name(Key.allowedIPs))

    /// The settings' names, as the scenario file and the admin API spell them.
    public enum Key {
        static let pass = "pass", secret = "secret", readOnlyKey = "read_only_key", allowedIPs = "allowed_ips"
        /// Not a scenario's or the admin API's: kept by `PUT /sandbox/merchants` when it changes `secret`.
        static let previousSecret = "previous_secret"
    }

    /// A new D24 account.
    package static func account(login: String, pass: String, secret: String, readOnlyKey: String = "", currency: String = "USD",
                               balance: Money, limits: Account.Limits = Account.Limits(), minimumAmounts: [String: Money] = [:],
                               allowedIPs: [String] = [], callbackURL: String? = nil) -> Account {
        Account(id: login, dialect: D24Dialect.name, currency: currency, balance: balance, limits: limits,
                minimumAmounts: minimumAmounts, callbackURL: callbackURL,
                settings: settings(pass: pass, secret: secret, readOnlyKey: readOnlyKey, allowedIPs: allowedIPs))
    }

    /// The settings of the credentials (`allowed_ips` joined by commas; empty ones left out).
    package static func settings(pass: String, secret: String, readOnlyKey: String, allowedIPs: [String]) -> Fields {
        var settings: Fields = [Key.pass: pass, Key.secret: secret]
        if !readOnlyKey.isEmpty { settings[Key.readOnlyKey] = readOnlyKey }
        if !allowedIPs.isEmpty { settings[Key.allowedIPs] = allowedIPs.joined(separator: ",") }
        return settings
    }

    static func addresses(_ text: String?) -> [String] {
        text.map { $0.split(separator: ",").map(String.init) } ?? []
    }

    /// The merchant used when no scenario defines one (the D24 guide, "The default merchant").
    package static let sandboxDefault = account(login: "sandbox_login", pass: "sandbox_pass", secret: "sandbox_secret",
                                               readOnlyKey: "sandbox_read_only", balance: Money(hundredths: 100_000_000))

    /// Reads a merchant of the scenario file's `merchants` section.
    @Sendable static func read(_ node: ScenarioNode) throws(ScenarioError) -> Account {
        let fields = try node.object(allowed: D24Dialect.merchantFormat.keys)
        func required(_ key: String) throws(ScenarioError) -> String {
            guard let field = fields[key] else { throw node.fail("expected \"\(key)\"") }
            return try field.nonEmptyString()
        }
        let login = try required("login")
        let (pass, secret) = (try required("pass"), try required("secret"))
        var merchant = account(login: login, pass: pass, secret: secret, readOnlyKey: try fields["read_only_key"]?.string() ?? "",
                               balance: .zero,
                               allowedIPs: try fields["allowed_ips"]?.array().map { (node) throws(ScenarioError) in try node.string() } ?? [])
        if let balance = fields["balance"] { (merchant.currency, merchant.balance) = try balance.balance() }
        if let limits = fields["limits"] { merchant.limits = try limits.limits() }
        if let minimums = fields["minimum_amounts"] { merchant.minimumAmounts = try minimums.amountsByCountry() }
        if let url = fields["notification_url"] { merchant.callbackURL = try url.string() }
        return merchant
    }
}
