import SandboxBank
import SandboxDialect
import SandboxHTTP
import SandboxJSON

/// D24's merchants in the sandbox's admin API (`/sandbox/merchants`): list them, and create or
/// update one (only the fields given change). Errors in the admin API's `{"code","message"}`.
struct D24MerchantAdmin {
    let bank: Bank

    func register(in router: inout Router) {
        router.add("GET /sandbox/merchants") { _ in
            .json(["merchants": .array(bank.accounts.compactMap(D24Merchant.init(owned:)).map { Self.json($0.account) })])
        }
        router.add("PUT /sandbox/merchants/{login}") { request in
            guard let login = request.parameters["login"], !login.isEmpty, login.count <= 32 else {
                return Router.error(400, "login: 1 to 32 characters")
            }
            guard case .object(let body)? = try? JSON.parse(request.body) else { return Router.error(400, "the body must be a JSON object") }
            let template = D24Merchant.account(login: login, pass: "", secret: "", balance: .zero)
            do throws(Bank.AccountChangeError) {
                let (merchant, created) = try bank.updateAccount(id: login, creatingFrom: template) { account in
                    guard D24Merchant(owned: account) != nil else { return "\(login) is an account of \(account.dialect)" }
                    if let problem = Self.apply(body, to: &account) { return problem }
                    let merchant = D24Merchant(account)
                    return merchant.pass.isEmpty || merchant.secret.isEmpty ? "a new merchant needs \"pass\" and \"secret\"" : nil
                }
                return .json(Self.json(merchant), status: created ? 201 : 200)
            } catch .invalid(let problem) {
                return Router.error(400, problem)
            } catch {
                return Router.error(409, "currency: a merchant with cashouts keeps its settlement currency")
            }
        }
    }

    /// Applies the fields present in `body`; returns what is wrong with the first bad one.
    static func apply(_ body: [String: JSON], to merchant: inout Account) -> String? {
        let known: Set = ["pass", "secret", "read_only_key", "currency", "balance", "limits", "minimum_amounts",
                          "allowed_ips", "notification_url", "login"]
        if let unknown = body.keys.sorted().first(where: { !known.contains($0) }) { return "\(unknown): unknown field" }
        func text(_ key: String) -> String?? {
            guard let value = body[key] else { return .none }
            return .some(value.stringValue)
        }
        for key in [D24Merchant.Key.pass, D24Merchant.Key.secret, D24Merchant.Key.readOnlyKey, "currency"] {
            switch text(key) {
            case .none: continue
            case .some(nil), .some(""?): return "\(key): expected a non-empty string"
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
                return "balance: expected a decimal amount such as \"5000.00\""
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
    static func json(_ account: Account) -> JSON {
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
