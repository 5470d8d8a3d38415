import SandboxContract
import SandboxSupport

/// PayoutService merchants in the OpenAPI document, at the admin API's older path
/// (`/sandbox/prism-merchants`), as `PrismMerchant.kind` serves them.
enum PrismMerchantDocs {
    /// Its operations in the OpenAPI document.
    static var endpoints: [OpenAPIEndpoint] {
        let merchantID = OpenAPI.path("id", Schema.string("1 to \(PrismMerchant.kind.idLimit) characters", example: "acme"),
                                      "The merchant's `x-merchant-id`")
        return [
            OpenAPIEndpoint(PrismMerchant.kind.legacyOperations!.list, OpenAPI.operation(
                tag: "Sandbox", summary: "PayoutService merchants",
                description: "With the metadata their calls need (`x-merchant-id`, `x-api-key`, and `x-key1`, `x-api-secret`), balances, "
                    + "limits, recipients (CreateRecipient) and enrolled disburse accounts (EnrollDisburseAccount).",
                responses: ["200": OpenAPI.json("The merchants", Schema.object(["merchants": Schema.array(of: Schema.ref("PrismMerchant"))],
                                                                               required: ["merchants"]))])),
            OpenAPIEndpoint(PrismMerchant.kind.legacyOperations!.put, OpenAPI.operation(
                tag: "Sandbox", summary: "Create or update a PayoutService merchant",
                description: "Creates the merchant (which needs `api_key`), or changes the members given. `require_auth: false` lets calls "
                    + "naming it (or none, for DefaultMerchantId) come without credentials.",
                parameters: [merchantID],
                body: OpenAPI.body(Schema.ref("PrismMerchantUpdate"), examples: [
                    "a second merchant": ["api_key": "acme_key", "balance": "5000.00", "currency": "USD"],
                ]),
                responses: [
                    "200": OpenAPI.json("Updated", Schema.ref("PrismMerchant")),
                    "201": OpenAPI.json("Created", Schema.ref("PrismMerchant")),
                    "400": OpenAPI.error(400, AdminMessage.notAnObject, PrismMerchant.kind.idRefusal, AdminMessage.unknownField("colour"),
                                         PrismMerchant.needsAPIKey, AdminMessage.expectedAmount("balance"),
                                         AdminMessage.expectedBool(PrismMerchant.Key.requireAuth),
                                         AdminMessage.otherAPIsAccount("sandbox_login", of: "d24"),
                                         AdminMessage.idMember("merchant_id", id: "acme")),
                    "409": OpenAPI.error(409, PrismMerchant.kind.currencyKept),
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
            "key1": Schema.nullable("string", "Its `x-key1`, if it has one"),
            "api_secret": Schema.nullable("string", "Its `x-api-secret`, if it has one"),
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
                "merchant_id": Schema.string("The path's id, or absent: a merchant's id does not change, so another is refused (400)"),
                "api_key": nonEmpty, "key1": nonEmpty,
                "api_secret": nonEmpty, "currency": nonEmpty, "balance": Schema.amount(), "require_auth": Schema.boolean(),
                "limits": Schema.object(["transaction": limit, "daily": limit, "monthly": limit]),
            ], description: "Only the members given change."),
        ]
    }
}
