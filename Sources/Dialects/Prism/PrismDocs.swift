import SandboxAPIDocs
import SandboxJSON

// The PayoutService dialect's HTTP/1.1 routes in the OpenAPI document: so far only CreateLink's
// recipient pages (PrismLinks). Its gRPC methods are described by its .proto and reflection; the
// Connect JSON paths, their schemas and a Postman folder come with Connect.

enum PrismDocs {
    static let fragment = APIDocsFragment(
        tag: "PayoutService", title: "Hyperswitch Prism PayoutService",
        overview: """
            PayoutService (`types.PayoutService`) is served over gRPC (h2c) on the same port, its metadata `x-connector`, \
            `x-auth` and `x-api-key` (the default merchant `\(PrismMerchant.defaultID)`'s key is `sandbox_prism_key`). Its \
            only HTTP/1.1 routes so far are CreateLink's recipient pages, whose URL CreateLink answers in the response \
            metadata `x-payout-link`.
            """,
        postmanOverview: "",
        endpoints: [
            OpenAPIEndpoint(route: "GET /prism/payout-links/{token}", operation: OpenAPI.operation(
                "prismOpenPayoutLink", tag: "PayoutService", summary: "Open a CreateLink page",
                description: "The recipient's form (method, holder name, account) of a payout awaiting its details. It works for 24 h of virtual time.",
                parameters: [token],
                responses: ["200": page("The form"), "404": page("Not a link of this sandbox"),
                            "410": page("The payout expired, was cancelled, or has its details already")])),
            OpenAPIEndpoint(route: "POST /prism/payout-links/{token}", operation: OpenAPI.operation(
                "prismSubmitPayoutLink", tag: "PayoutService", summary: "Send a CreateLink page's form",
                description: "Executes the payout (debit, PENDING, then the bank's timeline).",
                parameters: [token],
                body: ["required": true, "content": ["application/x-www-form-urlencoded": ["schema": [
                    "type": "object", "required": ["method", "holder_name", "account"],
                    "properties": ["method": ["type": "string", "enum": ["card", "sepa", "ach"]], "holder_name": ["type": "string"],
                                   "account": ["type": "string"]],
                ]]]],
                responses: ["200": page("The payout is on its way"), "400": page("A field is missing"),
                            "402": page("The merchant's balance or limits refuse it now"), "404": page("Not a link of this sandbox"),
                            "410": page("The payout expired, was cancelled, or has its details already")])),
        ] + PrismMerchantAdmin.endpoints,
        schemas: PrismMerchantAdmin.schemas, securitySchemes: [:], folders: [], variables: [], sessionVariables: [], prerequest: [], create: nil,
        accountVariable: nil)

    private static let token = OpenAPI.path("token", ["type": "string", "pattern": "^lnk_[0-9a-f]{32}$"], "The last segment of the link")

    private static func page(_ description: String) -> JSON {
        ["description": .string(description), "content": ["text/html": ["schema": ["type": "string"]]]]
    }
}
