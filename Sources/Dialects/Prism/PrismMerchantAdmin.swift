import SandboxBank
import SandboxHTTP
import SandboxJSON

/// PayoutService merchants in the sandbox's admin API: `GET /sandbox/prism-merchants` lists them
/// with their recipients and enrolled disburse accounts, and `PUT /sandbox/prism-merchants/{id}`
/// creates one or changes the fields given (`api_key`, `key1`, `api_secret`, `currency`,
/// `balance`, `require_auth`). Errors in the admin API's `{"code","message"}`.
struct PrismMerchantAdmin {
    let bank: Bank

    static let path = "/sandbox/prism-merchants"

    func register(in router: inout Router) {
        router.add("GET \(Self.path)") { _ in
            .json(["merchants": .array(bank.accounts.compactMap(PrismMerchant.init(owned:)).map(Self.json))])
        }
        router.add("PUT \(Self.path)/{id}") { request in put(request) }
    }

    private func put(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.parameters["id"], !id.isEmpty, id.count <= 64 else { return Router.error(400, "id: 1 to 64 characters") }
        guard case .object(let body)? = try? JSON.parse(request.body) else { return Router.error(400, "the body must be a JSON object") }
        if let given = body["merchant_id"], given != .string(id) { return Router.error(400, "merchant_id: expected the path's id, \(id), or none") }
        do throws(Bank.AccountChangeError) {
            let template = PrismMerchant.account(id: id, apiKey: "", balance: .zero)
            let (account, created) = try bank.updateAccount(id: id, creatingFrom: template) { account in
                guard PrismMerchant(owned: account) != nil else { return "\(id) is an account of \(account.dialect)" }
                if let problem = Self.apply(body, to: &account) { return problem }
                return PrismMerchant(account).apiKey.isEmpty ? "a new merchant needs \"api_key\"" : nil
            }
            return .json(Self.json(PrismMerchant(account)), status: created ? 201 : 200)
        } catch .invalid(let problem) {
            return Router.error(400, problem)
        } catch {
            return Router.error(409, "currency: a merchant with payouts keeps its currency")
        }
    }

    /// Applies the fields present in `body`; returns what is wrong with the first bad one.
    static func apply(_ body: [String: JSON], to account: inout Account) -> String? {
        typealias Key = PrismMerchant.Key
        let known: Set = ["merchant_id", Key.apiKey, Key.key1, Key.apiSecret, "currency", "balance", Key.requireAuth]
        if let unknown = body.keys.sorted().first(where: { !known.contains($0) }) { return "\(unknown): unknown field" }
        for key in [Key.apiKey, Key.key1, Key.apiSecret, "currency"] {
            guard let value = body[key] else { continue }
            guard let text = value.stringValue, !text.isEmpty else { return "\(key): expected a non-empty string" }
            if key == "currency" { account.currency = text } else { account.settings[key] = text }
        }
        if let balance = body["balance"] {
            guard let money = balance.stringValue.flatMap({ Money($0) }) ?? balance.numberText.flatMap({ Money($0) }), money >= .zero else {
                return "balance: expected a decimal amount such as \"5000.00\""
            }
            account.balance = money
        }
        if let required = body[Key.requireAuth] {
            guard let flag = required.boolValue else { return "\(Key.requireAuth): expected true or false" }
            account.settings[Key.requireAuth] = flag ? nil : "false"
        }
        return nil
    }

    /// A merchant as the admin API shows it.
    static func json(_ merchant: PrismMerchant) -> JSON {
        var recipients: [String: JSON] = [:], methods: [String: JSON] = [:]
        for setting in merchant.account.settings {
            if let id = setting.name.dropPrefix(PrismRecipients.Prefix.recipientSetting) {
                recipients[id] = (try? JSON.parse(Array(setting.value.utf8))) ?? .string(setting.value)
            } else if let id = setting.name.dropPrefix(PrismRecipients.Prefix.methodSetting) {
                methods[id] = (try? JSON.parse(Array(setting.value.utf8))) ?? .string(setting.value)
            }
        }
        return [
            "merchant_id": .string(merchant.id), "api_key": .string(merchant.apiKey), "key1": merchant.key1.map(JSON.string) ?? .null,
            "api_secret": merchant.apiSecret.map(JSON.string) ?? .null, "currency": .string(merchant.account.currency),
            "balance": .string(merchant.account.balance.description), "require_auth": .bool(merchant.requiresAuth),
            "recipients": .object(recipients), "payout_methods": .object(methods),
        ]
    }
}

extension String {
    /// The rest of the string after `prefix`, when it starts with it.
    fileprivate func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
