package import SandboxContract
import SandboxSupport
import SandboxWire

/// PayoutService's part of the sandbox's documents: its eight methods as Connect's JSON
/// (`PrismDocs+Connect.swift`, schemas made from PrismProtos) and CreateLink's recipient pages in
/// the OpenAPI document, its folder in the Postman collection (`PrismDocs+Postman.swift`), and
/// the default merchant's id and API key as collection variables.
enum PrismDocs {
    /// The default merchant, whose id and key the documents show.
    static let merchant = PrismMerchant(PrismMerchant.sandboxDefault)

    static let fragment = APIDocsFragment(
        tag: "PayoutService", title: "Hyperswitch Prism PayoutService",
        overview: """
            PayoutService (`types.PayoutService`) is served over gRPC (h2c) on the same port and, as documented here, as \
            Connect's unary JSON over HTTP/1.1: `POST /types.PayoutService/<Method>` with `Content-Type: application/json`, \
            the request message as proto3 JSON (field names in lowerCamelCase, as the answers write them, or as the .proto \
            names them; enums by name or number; 64-bit integers as strings), errors as `{"code","message"}` with Connect's \
            HTTP status. The metadata are headers: `x-connector`, `x-auth` and `x-api-key` (the default merchant \
            `\(merchant.id)`'s key is `\(merchant.apiKey)`). CreateLink's recipient pages are plain HTML.
            """,
        postmanOverview: """
            PayoutService: its requests send the metadata x-connector: sandbox, x-auth: header-key, x-api-key: \
            {{prismApiKey}} and x-merchant-id: {{prismMerchantId}} (the default merchant, \(merchant.id) / \
            \(merchant.apiKey)) as headers, with Connect's JSON bodies. Each create picks a new merchantPayoutId in its own \
            script, so the folder runs again on a used sandbox.
            """,
        endpoints: connect.endpoints.map(EndpointDescription.init) + linkEndpoints.map(\.description)
            + PrismMerchantDocs.endpoints.map(EndpointDescription.init),
        schemas: connect.schemas.merging(PrismMerchantDocs.schemas) { $1 }, securitySchemes: [:],
        folders: [.init("PayoutService (Connect JSON)", PostmanCollection.prismRequests,
                        "The eight methods over Connect's JSON: Create, Get, Void; Stage, Transfer; CreateLink; errors both ways; "
                            + "CreateRecipient, EnrollDisburseAccount and a Create to the enrolled method.")],
        variables: [.init("prismMerchantId", merchant.id), .init("prismApiKey", merchant.apiKey, secret: true)],
        sessionVariables: ["prismPayoutRef", "prismPayoutId", "prismQuoteRef", "prismStagedId", "prismLinkRef", "prismLinkToken",
                           "prismDeclineRef", "prismRecipientRef", "prismRecipientId", "prismMethodId", "prismEnrolledRef"],
        prerequest: [], create: nil, accountVariable: nil)

    /// CreateLink's recipient pages, each declared once: route, description and handler.
    static var linkEndpoints: [Endpoint<PrismLinks>] {
        [
            Endpoint<PrismLinks>(PrismOperation.openLink, OpenAPI.operation(
                tag: "PayoutService", summary: "Open a CreateLink page",
                description: "The recipient's form (method, holder name, account) of a payout awaiting its details. "
                    + "It works for 24 h of virtual time.",
                parameters: [token],
                responses: ["200": page("The form"), "404": page("Not a link of this sandbox"),
                            "410": page("The payout expired, was cancelled, or has its details already")])) { links, request in
                links.page(request.parameters["token"] ?? "")
            },
            Endpoint<PrismLinks>(PrismOperation.submitLink, OpenAPI.operation(
                tag: "PayoutService", summary: "Send a CreateLink page's form",
                description: "Executes the payout (debit, PENDING, then the bank's timeline).",
                parameters: [token],
                body: ["required": true, "content": ["application/x-www-form-urlencoded": ["schema": [
                    "type": "object", "required": ["method", "holder_name", "account"],
                    "properties": ["method": ["type": "string", "enum": ["card", "sepa", "ach"]], "holder_name": ["type": "string"],
                                   "account": ["type": "string"]],
                ]]]],
                responses: ["200": page("The payout is on its way"), "400": page("A field is missing"),
                            "402": page("The merchant's balance or limits refuse it now"), "404": page("Not a link of this sandbox"),
                            "410": page("The payout expired, was cancelled, or has its details already")])) { links, request in
                links.submit(request.parameters["token"] ?? "", request.body)
            },
        ]
    }

    private static let token = OpenAPI.path("token", ["type": "string", "pattern": "^lnk_[0-9a-f]{32}$"], "The last segment of the link")

    private static func page(_ description: String) -> JSON {
        ["description": .string(description), "content": ["text/html": ["schema": ["type": "string"]]]]
    }
}

/// The methods as Connect JSON and CreateLink's pages in the OpenAPI document, and a Postman folder.
extension PrismDialect: DocumentedDialect {
    package var docs: APIDocsFragment { PrismDocs.fragment }
}
