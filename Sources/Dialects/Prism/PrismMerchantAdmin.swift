import SandboxAPIDocs
import SandboxBank
import SandboxDialect
import SandboxHTTP
import SandboxJSON

/// PayoutService merchants in the sandbox's admin API: `GET /sandbox/prism-merchants` lists them
/// with the metadata a call needs (`x-merchant-id`, `x-api-key`, and `x-key1` and `x-api-secret`
/// when they have them), their balances, limits, recipients and enrolled disburse accounts (the
/// dashboard's form and its PayoutService view read it), and `PUT /sandbox/prism-merchants/{id}`
/// creates one or changes the fields given (`api_key`, `key1`, `api_secret`, `currency`,
/// `balance`, `limits`, `require_auth`). Errors in the admin API's `{"code","message"}`.
struct PrismMerchantAdmin {
    let bank: Bank

    /// The admin API's path.
    static let path = "/sandbox/prism-merchants"

    func register(in router: inout Router) {
        router.add("GET /sandbox/prism-merchants") { _ in
            .json(["merchants": .array(bank.accounts.compactMap(PrismMerchant.init(owned:)).map(Self.json))])
        }
        router.add("PUT /sandbox/prism-merchants/{id}") { request in put(request) }
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

    /// The members `PUT` takes.
    static let updatable = [PrismMerchant.Key.apiKey, PrismMerchant.Key.key1, PrismMerchant.Key.apiSecret, "currency", "balance", "limits",
                            PrismMerchant.Key.requireAuth]

    /// Applies the fields present in `body`; returns what is wrong with the first bad one.
    static func apply(_ body: [String: JSON], to account: inout Account) -> String? {
        typealias Key = PrismMerchant.Key
        if let unknown = body.keys.sorted().first(where: { $0 != "merchant_id" && !updatable.contains($0) }) { return "\(unknown): unknown field" }
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
        if let limits = body["limits"], let problem = account.limits.apply(limits) { return problem }
        if let required = body[Key.requireAuth] {
            guard let flag = required.boolValue else { return "\(Key.requireAuth): expected true or false" }
            account.settings[Key.requireAuth] = flag ? nil : "false"
        }
        return nil
    }

    /// A merchant as the admin API shows it.
    static func json(_ merchant: PrismMerchant) -> JSON {
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

    /// Its operations in the OpenAPI document.
    static var endpoints: [OpenAPIEndpoint] {
        let merchantID = OpenAPI.path("id", Schema.string("1 to 64 characters", example: "acme"), "The merchant's `x-merchant-id`")
        return [
            OpenAPIEndpoint(route: "GET /sandbox/prism-merchants", operation: OpenAPI.operation(
                "listPrismMerchants", tag: "Sandbox", summary: "PayoutService merchants",
                description: "With the metadata their calls need (`x-merchant-id`, `x-api-key`, and `x-key1`, `x-api-secret`), balances, "
                    + "limits, recipients (CreateRecipient) and enrolled disburse accounts (EnrollDisburseAccount).",
                responses: ["200": OpenAPI.json("The merchants", Schema.object(["merchants": Schema.array(of: Schema.ref("PrismMerchant"))],
                                                                               required: ["merchants"]))])),
            OpenAPIEndpoint(route: "PUT /sandbox/prism-merchants/{id}", operation: OpenAPI.operation(
                "putPrismMerchant", tag: "Sandbox", summary: "Create or update a PayoutService merchant",
                description: "Creates the merchant (which needs `api_key`), or changes the members given. `require_auth: false` lets calls "
                    + "naming it (or none, for DefaultMerchantId) come without credentials.",
                parameters: [merchantID],
                body: OpenAPI.body(Schema.ref("PrismMerchantUpdate"), examples: [
                    "a second merchant": ["api_key": "acme_key", "balance": "5000.00", "currency": "USD"],
                ]),
                responses: [
                    "200": OpenAPI.json("Updated", Schema.ref("PrismMerchant")),
                    "201": OpenAPI.json("Created", Schema.ref("PrismMerchant")),
                    "400": OpenAPI.error(400, "the body must be a JSON object", "id: 1 to 64 characters", "colour: unknown field",
                                         #"a new merchant needs "api_key""#, #"balance: expected a decimal amount such as "5000.00""#,
                                         "require_auth: expected true or false", "sandbox_login is an account of d24"),
                    "409": OpenAPI.error(409, "currency: a merchant with payouts keeps its currency"),
                ])),
        ]
    }

    static var schemas: [String: JSON] {
        let limit = Schema.nullable("string")
        let recipient = Schema.object(["name": Schema.string(example: "Ana Lima"), "recipient_type": Schema.string(example: "INDIVIDUAL"),
                                       "method": Schema.string(example: "sepa")])
        let account = Schema.object(["method": Schema.string(example: "sepa"), "recipient_name": Schema.string(example: "Ana Lima"),
                                     "recipient": Schema.string(example: "rcp_000001")], required: ["method"])
        let members: [String: JSON] = [
            "merchant_id": Schema.string("Its `x-merchant-id`", example: PrismMerchant.defaultID),
            "api_key": Schema.string("Its `x-api-key`", example: PrismMerchant(PrismMerchant.sandboxDefault).apiKey),
            "key1": Schema.nullable("string", "Its `x-key1`, if it has one"), "api_secret": Schema.nullable("string", "Its `x-api-secret`, if it has one"),
            "currency": Schema.string(example: "USD"), "balance": Schema.amount(),
            "limits": Schema.object(["transaction": limit, "daily": limit, "monthly": limit], required: ["transaction", "daily", "monthly"]),
            "require_auth": Schema.boolean("false: calls need no credentials"),
            "recipients": Schema.map(of: recipient, description: "CreateRecipient's recipients, by id (rcp_000001)"),
            "payout_methods": Schema.map(of: account, description: "EnrollDisburseAccount's accounts, by id (pm_000001)"),
        ]
        let nonEmpty = Schema.string().merging(["minLength": 1])
        return [
            "PrismMerchant": Schema.object(members, required: members.keys.sorted()),
            "PrismMerchantUpdate": Schema.object([
                "merchant_id": Schema.string("Ignored: the path names the merchant"), "api_key": nonEmpty, "key1": nonEmpty,
                "api_secret": nonEmpty, "currency": nonEmpty, "balance": Schema.amount(), "require_auth": Schema.boolean(),
                "limits": Schema.object(["transaction": limit, "daily": limit, "monthly": limit]),
            ], description: "Only the members given change."),
        ]
    }
}
