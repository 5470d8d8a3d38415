import SandboxContract
import SandboxBank
import SandboxSupport

extension PrismMerchant {
    /// What a merchant's `PUT` is refused with, beside the admin API's own (`AdminMessage`): the
    /// kind answers it and the API's OpenAPI document shows it.
    static let needsAPIKey = #"a new merchant needs "api_key""#

    /// PayoutService merchants on the seam: the scenario's `prism_merchants` section, the admin
    /// API's `/sandbox/accounts/prism/{id}` (and `/sandbox/prism-merchants`) with the metadata a
    /// call needs (`x-merchant-id`, `x-api-key`, and `x-key1` and `x-api-secret` when they have
    /// them), their balances, limits, recipients and enrolled disburse accounts (the dashboard's
    /// form and its PayoutService view read it); a new merchant needs `api_key`. An app reads
    /// `MERCHANT_ID` (`x-merchant-id`), `API_KEY` (`x-api-key`) and, when it has them, `KEY1`
    /// (`x-key1`) and `API_SECRET` (`x-api-secret`).
    static let kind = AccountKind(
        template: { id in account(id: id, apiKey: "", balance: .zero) }, defaults: [sandboxDefault],
        section: (section, read), legacyPath: ("/sandbox/prism-merchants", "merchants", ("listPrismMerchants", "putPrismMerchant")),
        idMember: "merchant_id",
        sectionFormat: PrismDialect.merchantsFormat,
        schemaNames: ("PrismMerchant", "PrismMerchantUpdate"),
        apply: { apply($0, to: &$1) },
        lacking: { PrismMerchant($0).apiKey.isEmpty ? needsAPIKey : nil },
        currencyKept: "currency: a merchant with payouts keeps its currency", json: { json(PrismMerchant($0)) },
        startupLine: { account in
            let merchant = PrismMerchant(account)
            return ("payoutservice merchant: x-merchant-id \(merchant.id), api key \(merchant.apiKey), "
                        + "balance \(account.currency) \(account.balance)",
                    "server.prism_merchant",
                    [("merchant_id", merchant.id), ("api_key", merchant.apiKey), ("currency", account.currency),
                     ("balance", account.balance.description)])
        },
        environment: { account in
            let merchant = PrismMerchant(account)
            let optional = [("KEY1", merchant.key1), ("API_SECRET", merchant.apiSecret)].compactMap { name, value in
                value.map { (name: name, value: $0) }
            }
            return [("MERCHANT_ID", merchant.id), ("API_KEY", merchant.apiKey)] + optional
        })

    /// The members `PUT` takes.
    static let updatable = [PrismMerchant.Key.apiKey, PrismMerchant.Key.key1, PrismMerchant.Key.apiSecret, "currency", "balance", "limits",
                            PrismMerchant.Key.requireAuth]

    /// Applies the fields present in `body`; returns what is wrong with the first bad one.
    @Sendable static func apply(_ body: [String: JSON], to account: inout Account) -> String? {
        typealias Key = PrismMerchant.Key
        if let unknown = body.keys.sorted().first(where: { $0 != "merchant_id" && !updatable.contains($0) }) {
            return AdminMessage.unknownField(unknown)
        }
        for key in [Key.apiKey, Key.key1, Key.apiSecret, "currency"] {
            guard let value = body[key] else { continue }
            guard let text = value.stringValue, !text.isEmpty else { return AdminMessage.expectedNonEmptyString(key) }
            if key == "currency" { account.currency = text } else { account.settings[key] = text }
        }
        if let balance = body["balance"] {
            guard let money = balance.stringValue.flatMap({ Money($0) }) ?? balance.numberText.flatMap({ Money($0) }), money >= .zero else {
                return AdminMessage.expectedAmount("balance")
            }
            account.balance = money
        }
        if let limits = body["limits"], let problem = account.limits.apply(limits) { return problem }
        if let required = body[Key.requireAuth] {
            guard let flag = required.boolValue else { return AdminMessage.expectedBool(Key.requireAuth) }
            account.settings[Key.requireAuth] = flag ? nil : "false"
        }
        return nil
    }

    /// A merchant as the admin API shows it.
    @Sendable static func json(_ merchant: PrismMerchant) -> JSON {
        let account = merchant.account
        func optional(_ text: String?) -> JSON { text.map { .string($0) } ?? .null }
        let (recipients, methods) = PrismRecipients.all(of: merchant)
        return [
            "merchant_id": .string(merchant.id), "api_key": .string(merchant.apiKey), "key1": optional(merchant.key1),
            "api_secret": optional(merchant.apiSecret), "currency": .string(account.currency), "balance": .string(account.balance.description),
            "limits": ["transaction": optional(account.limits.transaction?.description), "daily": optional(account.limits.daily?.description),
                       "monthly": optional(account.limits.monthly?.description)],
            "require_auth": .bool(merchant.requiresAuth), "recipients": .object(recipients), "payout_methods": .object(methods),
        ]
    }
}
