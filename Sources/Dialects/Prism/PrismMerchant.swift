package import SandboxBank
import SandboxContract

/// A PayoutService merchant: an account of the bank owned by the PayoutService dialect, named by
/// the `x-merchant-id` it is called with, with its credentials (`api_key`, and optionally `key1`
/// and `api_secret`) in the account's settings under the scenario file's names, so that the
/// journal, snapshots and the admin API keep them as they keep every account's.
///
/// ```swift
/// let account = PrismMerchant.account(id: "acme", apiKey: "k", balance: Money("5000.00")!)
/// PrismMerchant(account).apiKey   // "k"
/// ```
package struct PrismMerchant: Sendable {
    package let account: Account

    package init(_ account: Account) {
        self.account = account
    }

    /// `account` as a PayoutService merchant; nil when another API owns it.
    package init?(owned account: Account) {
        guard account.dialect == PrismDialect.name else { return nil }
        self.account = account
    }

    /// The `x-merchant-id` it is called with: the account's id.
    package var id: String { account.id }
    /// What `x-api-key` (or the connector config's `api_key`) must be.
    package var apiKey: String { account.settings[Key.apiKey] ?? "" }
    /// What `x-key1` must be when the merchant has one (`body-key`, `signature-key`).
    var key1: String? { account.settings[Key.key1] }
    /// What `x-api-secret` must be when the merchant has one (`signature-key`).
    var apiSecret: String? { account.settings[Key.apiSecret] }

    /// Whether calls must bring credentials (`x-connector` and `x-auth`, or
    /// `x-connector-config`): true unless the scenario or the admin API set `require_auth: false`,
    /// for load tests and clients that send no metadata.
    var requiresAuth: Bool { account.settings[Key.requireAuth] != "false" }

    /// The settings' names, as the scenario file and the admin API spell them.
    package enum Key {
        package static let apiKey = "api_key", key1 = "key1", apiSecret = "api_secret", requireAuth = "require_auth"
    }

    /// The scenario file's section of PayoutService merchants.
    static let section = "prism_merchants"

    /// The merchant an `x-merchant-id`-less call uses, as Prism defaults it.
    package static let defaultID = "DefaultMerchantId"

    /// A new merchant.
    package static func account(id: String, apiKey: String, key1: String? = nil, apiSecret: String? = nil, currency: String = "USD",
                               balance: Money) -> Account {
        var settings: Fields = [Key.apiKey: apiKey]
        if let key1 { settings[Key.key1] = key1 }
        if let apiSecret { settings[Key.apiSecret] = apiSecret }
        return Account(id: id, dialect: PrismDialect.name, currency: currency, balance: balance, settings: settings)
    }

    /// The merchant when no scenario defines one (the PayoutService guide, "The default merchant and the metadata").
    package static let sandboxDefault = account(id: defaultID, apiKey: "sandbox_prism_key", balance: Money(hundredths: 100_000_000))

    /// Reads a merchant of the scenario file's `prism_merchants` section:
    /// `{"merchant_id", "api_key", "key1"?, "api_secret"?, "balance": {"USD": "5000.00"}?, "limits"?,
    /// "require_auth"?}`.
    @Sendable static func read(_ node: ScenarioNode) throws(ScenarioError) -> Account {
        let fields = try node.object(allowed: PrismDialect.merchantFormat.keys)
        guard let id = fields["merchant_id"] else { throw node.fail("expected \"merchant_id\"") }
        guard let apiKey = fields["api_key"] else { throw node.fail("expected \"api_key\"") }
        let balance = try fields["balance"]?.balance() ?? (currency: "USD", amount: .zero)
        var account = account(id: try id.nonEmptyString(), apiKey: try apiKey.nonEmptyString(), key1: try fields["key1"]?.nonEmptyString(),
                              apiSecret: try fields["api_secret"]?.nonEmptyString(), currency: balance.currency, balance: balance.amount)
        if let limits = fields["limits"] { account.limits = try limits.limits() }
        if let required = fields["require_auth"], try !required.bool() { account.settings[Key.requireAuth] = "false" }
        return account
    }
}
