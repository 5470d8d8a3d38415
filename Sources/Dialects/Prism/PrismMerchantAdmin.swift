import SandboxAPIDocs
import SandboxBank
import SandboxHTTP
import SandboxJSON

/// PayoutService's merchants in the sandbox's admin API: `GET /sandbox/prism-merchants` lists
/// them with the metadata a call needs (`x-merchant-id`, `x-api-key`, and `x-key1` and
/// `x-api-secret` when they have them), their balances and limits. The dashboard's form and its
/// PayoutService view read it.
struct PrismMerchantAdmin {
    let bank: Bank

    /// The admin API's path.
    static let path = "/sandbox/prism-merchants"

    func register(in router: inout Router) {
        router.add("GET /sandbox/prism-merchants") { _ in
            .json(["merchants": .array(bank.accounts.compactMap(PrismMerchant.init(owned:)).map(Self.json))])
        }
    }

    /// A merchant as the admin API shows it.
    static func json(_ merchant: PrismMerchant) -> JSON {
        let account = merchant.account
        func optional(_ text: String?) -> JSON { text.map { .string($0) } ?? .null }
        return [
            "merchant_id": .string(merchant.id), "api_key": .string(merchant.apiKey), "key1": optional(merchant.key1),
            "api_secret": optional(merchant.apiSecret), "currency": .string(account.currency), "balance": .string(account.balance.description),
            "limits": ["transaction": optional(account.limits.transaction?.description), "daily": optional(account.limits.daily?.description),
                       "monthly": optional(account.limits.monthly?.description)],
        ]
    }

    /// Its operation and schema in the OpenAPI document.
    static let endpoint = OpenAPIEndpoint(route: "GET /sandbox/prism-merchants", operation: OpenAPI.operation(
        "listPrismMerchants", tag: "Sandbox", summary: "PayoutService merchants",
        description: "With the metadata their calls need (`x-merchant-id`, `x-api-key`, and `x-key1`, `x-api-secret`), balances and limits.",
        responses: ["200": OpenAPI.json("The merchants", Schema.object(["merchants": Schema.array(of: Schema.ref("PrismMerchant"))],
                                                                       required: ["merchants"]))]))

    static var schemas: [String: JSON] {
        let limit = Schema.nullable("string")
        let members: [String: JSON] = [
            "merchant_id": Schema.string("Its `x-merchant-id`", example: PrismMerchant.defaultID),
            "api_key": Schema.string("Its `x-api-key`", example: PrismMerchant(PrismMerchant.sandboxDefault).apiKey),
            "key1": Schema.nullable("string", "Its `x-key1`, if it has one"), "api_secret": Schema.nullable("string", "Its `x-api-secret`, if it has one"),
            "currency": Schema.string(example: "USD"), "balance": Schema.amount(),
            "limits": Schema.object(["transaction": limit, "daily": limit, "monthly": limit], required: ["transaction", "daily", "monthly"]),
        ]
        return ["PrismMerchant": Schema.object(members, required: members.keys.sorted())]
    }
}
