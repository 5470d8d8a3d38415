import SandboxContract
import SandboxBank
import SandboxSupport

extension D24Merchant {
    /// What a merchant's `PUT` is refused with, beside the admin API's own (`AdminMessage`): the
    /// kind answers them and the API's OpenAPI document shows them.
    static let needsCredentials = #"a new merchant needs "pass" and "secret""#

    /// The members of a merchant's `PUT` that are non-empty strings (the OpenAPI document's `minLength`).
    static let textKeys = [Key.pass, Key.secret, Key.readOnlyKey, "currency"]

    /// D24's merchants on the seam: the scenario's `merchants` section, the admin API's
    /// `/sandbox/accounts/d24/{login}` (and `/sandbox/merchants`), where a new merchant needs
    /// `pass` and `secret` and a changed `secret` keeps the old one to tell a client still signing
    /// with it; the start-up line with every credential, and `LOGIN`, `PASS`, `SECRET_KEY` (the
    /// `Payload-Signature` HMAC key) and, when it has one, `READ_ONLY_KEY` for an app.
    static let kind = AccountKind(
        template: { login in account(login: login, pass: "", secret: "", balance: .zero) }, defaults: [sandboxDefault],
        section: ("merchants", read), legacyPath: ("/sandbox/merchants", "merchants", ("listMerchants", "putMerchant")), idName: "login", idLimit: 32,
        sectionFormat: D24Dialect.merchantsFormat,
        schemaNames: ("Merchant", "MerchantUpdate"),
        apply: { apply($0, to: &$1) },
        lacking: { account in
            let merchant = D24Merchant(account)
            return merchant.pass.isEmpty || merchant.secret.isEmpty ? needsCredentials : nil
        },
        currencyKept: "currency: a merchant with cashouts keeps its settlement currency", json: { json($0) },
        startupLine: { account in
            let merchant = D24Merchant(account)
            return ("merchant: login \(merchant.login), pass \(merchant.pass), secret \(merchant.secret), "
                    + "read-only key \(merchant.readOnlyKey), balance \(account.currency) \(account.balance)", "server.merchant",
                    [("login", merchant.login), ("currency", account.currency), ("balance", account.balance.description)])
        },
        environment: { account in
            let merchant = D24Merchant(account)
            let readOnly = merchant.readOnlyKey.isEmpty ? [] : [(name: "READ_ONLY_KEY", value: merchant.readOnlyKey)]
            return [("LOGIN", merchant.login), ("PASS", merchant.pass), ("SECRET_KEY", merchant.secret)] + readOnly
        })

    /// Applies the fields present in `body`; returns what is wrong with the first bad one.
    @Sendable static func apply(_ body: [String: JSON], to merchant: inout Account) -> String? {
        let known: Set = ["pass", "secret", "read_only_key", "currency", "balance", "limits", "minimum_amounts",
                          "allowed_ips", "notification_url", "login"]
        if let unknown = body.keys.sorted().first(where: { !known.contains($0) }) { return AdminMessage.unknownField(unknown) }
        func text(_ key: String) -> String?? {
            guard let value = body[key] else { return .none }
            return .some(value.stringValue)
        }
        for key in D24Merchant.textKeys {
            switch text(key) {
            case .none: continue
            case .some(nil), .some(""?): return AdminMessage.expectedNonEmptyString(key)
            case .some(let value?) where key == "currency": merchant.currency = value
            case .some(let value?):
                if key == D24Merchant.Key.secret, let old = merchant.settings[key], !old.isEmpty, old != value {
                    merchant.settings[D24Merchant.Key.previousSecret] = old  // to tell a client that still signs with it
                }
                merchant.settings[key] = value
            }
        }
        if let balance = body["balance"] {
            guard let money = balance.stringValue.flatMap({ Money($0) }) ?? balance.numberText.flatMap({ Money($0) }), money >= .zero else {
                return AdminMessage.expectedAmount("balance")
            }
            merchant.balance = money
        }
        if let limits = body["limits"], let problem = merchant.limits.apply(limits) { return problem }
        if let minimums = body["minimum_amounts"] {
            guard let object = minimums.objectValue else { return "minimum_amounts: expected an object of country: amount" }
            var parsed: [String: Money] = [:]
            for (country, value) in object {
                guard let money = value.stringValue.flatMap({ Money($0) }) ?? value.numberText.flatMap({ Money($0) }) else {
                    return "minimum_amounts.\(country): expected a decimal amount"
                }
                parsed[country] = money
            }
            merchant.minimumAmounts = parsed
        }
        if let ips = body["allowed_ips"] {
            guard let list = ips.arrayValue?.compactMap(\.stringValue), list.count == ips.arrayValue?.count else {
                return "allowed_ips: expected an array of addresses"
            }
            merchant.settings[D24Merchant.Key.allowedIPs] = list.isEmpty ? nil : list.joined(separator: ",")
        }
        if let url = body["notification_url"] {
            guard url.isNull || url.stringValue != nil else { return "notification_url: expected a URL or null" }
            merchant.callbackURL = url.stringValue
        }
        return nil
    }

    /// A merchant as the admin API shows it.
    @Sendable static func json(_ account: Account) -> JSON {
        let merchant = D24Merchant(account)
        func optional(_ text: String?) -> JSON { text.map { .string($0) } ?? .null }
        return [
            "login": .string(merchant.login), "pass": .string(merchant.pass), "secret": .string(merchant.secret),
            "read_only_key": .string(merchant.readOnlyKey), "currency": .string(account.currency),
            "balance": .string(account.balance.description),
            "limits": ["transaction": optional(account.limits.transaction?.description),
                       "daily": optional(account.limits.daily?.description),
                       "monthly": optional(account.limits.monthly?.description)],
            "minimum_amounts": .object(account.minimumAmounts.mapValues { .string($0.description) }),
            "allowed_ips": .array(merchant.allowedIPs.map { .string($0) }),
            "notification_url": optional(account.callbackURL),
        ]
    }
}
