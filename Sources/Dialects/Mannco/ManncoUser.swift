package import SandboxBank
import SandboxContract

/// A Mannco user: an account of the bank owned by Mannco, whose balance is in cents (USD
/// hundredths), with its API key, verification, linked payout methods and email in the account's
/// settings under the scenario file's names.
///
/// ```swift
/// let account = ManncoUser.account(id: "76561198000000042", apiKey: "k", balanceCents: 100_000, linked: [.payoneer])
/// ManncoUser(account).linked   // [.payoneer]
/// ```
public struct ManncoUser: Sendable {
    package let account: Account

    package init(_ account: Account) {
        self.account = account
    }

    /// `account` as a Mannco user; nil when another API owns it.
    package init?(owned account: Account) {
        guard account.dialect == ManncoDialect.name else { return nil }
        self.account = account
    }

    /// The user's Steam64-style id: the account's id, the JWT's `sub`.
    public var id: String { account.id }
    /// What `POST /user/login` takes as `apiKey`.
    public var apiKey: String { account.settings[Key.apiKey] ?? "" }
    /// `POST /cashout/process` needs a verified account.
    public var verified: Bool { account.settings[Key.verified] != "false" }
    /// The payout methods linked, in the order linked.
    public var linked: [ManncoProvider] {
        (account.settings[Key.linked] ?? "").split(separator: ",").compactMap { ManncoProvider(rawValue: String($0)) }
    }
    /// Where the cashout emails go unless a cashout names another address.
    public var email: String { account.settings[Key.email] ?? "" }
    /// The Tipalti payee created when Tipalti was linked, if it was.
    public var tipaltiPayeeID: String? { account.settings[Key.tipaltiPayeeID] }
    /// The balance in cents.
    public var balanceCents: Int64 { account.balance.hundredths }

    /// The settings' names, as the scenario file and the admin API spell them.
    public enum Key {
        package static let apiKey = "api_key", verified = "verified", linked = "linked", email = "email", tipaltiPayeeID = "tipalti_payee_id"
    }

    /// A new Mannco user; its email is `user-ID@example.com` unless given.
    package static func account(id: String, apiKey: String, balanceCents: Int64, verified: Bool = true, linked: [ManncoProvider] = [],
                               email: String? = nil) -> Account {
        var settings: Fields = [Key.apiKey: apiKey, Key.email: email ?? "user-\(id)@example.com"]
        if !verified { settings[Key.verified] = "false" }
        if !linked.isEmpty { settings[Key.linked] = linked.map(\.rawValue).joined(separator: ",") }
        return Account(id: id, dialect: ManncoDialect.name, currency: "USD", balance: Money(hundredths: balanceCents), settings: settings)
    }

    /// `account` with `provider` linked or unlinked.
    static func setting(_ provider: ManncoProvider, linked: Bool, in account: inout Account) {
        var list = ManncoUser(account).linked.filter { $0 != provider }
        if linked { list.append(provider) }
        account.settings[Key.linked] = list.isEmpty ? nil : list.map(\.rawValue).joined(separator: ",")
    }

    /// The user when no scenario defines one (the Mannco guide, "The default user").
    package static let sandboxDefault = account(id: "76561198000000001", apiKey: "sandbox_mannco_key", balanceCents: 1_000_000,
                                               linked: [.payoneer, .tipalti], email: "user@example.com")

    /// Reads a user of the scenario file's `users` section:
    /// `{"id", "api_key", "balance": cents, "verified": true, "linked": ["payoneer"], "email"}`.
    @Sendable static func read(_ node: ScenarioNode) throws(ScenarioError) -> Account {
        let fields = try node.object(allowed: ManncoDialect.userFormat.keys)
        guard let id = fields["id"] else { throw node.fail("expected \"id\"") }
        guard let apiKey = fields["api_key"] else { throw node.fail("expected \"api_key\"") }
        let linked = try fields["linked"]?.array().map { (node) throws(ScenarioError) -> ManncoProvider in
            guard let provider = ManncoProvider(rawValue: try node.string()) else {
                throw node.fail("expected \"payoneer\", \"tipalti\" or \"paypal\"")
            }
            return provider
        } ?? []
        return account(id: try id.nonEmptyString(), apiKey: try apiKey.nonEmptyString(),
                       balanceCents: Int64(try fields["balance"]?.integer(0 ... Int(ManncoProcessRequest.maximumAmount)) ?? 0),
                       verified: try fields["verified"]?.bool() ?? true, linked: linked, email: try fields["email"]?.nonEmptyString())
    }
}

/// A payout method a user can link: Payoneer and Tipalti take cashouts; PayPal can only be linked
/// (the original contract, on the older "Cashout" page of Mannco.store's API docs).
public enum ManncoProvider: String, Sendable, CaseIterable {
    case payoneer, tipalti, paypal

    /// The name in emails: "Payoneer".
    var title: String { rawValue == "paypal" ? "PayPal" : rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}
