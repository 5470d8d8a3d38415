package import SandboxContract
import SandboxSupport

/// Mannco's part of the sandbox's documents: its endpoints and schemas in the OpenAPI document
/// (`ManncoOpenAPI.swift`, `ManncoOpenAPI+Schemas.swift`, its users and emails in
/// `ManncoOpenAPI+Admin.swift`), its folders in the Postman collection (`ManncoPostman.swift`),
/// and the default user's API key and id as collection variables. It needs no collection script:
/// the login request saves the JWT, and the requests after it send it.
enum ManncoDocs {
    static let user = ManncoUser(ManncoUser.sandboxDefault)

    static let fragment = APIDocsFragment(
        tag: "Mannco", title: "Mannco.store user cashouts",
        overview: """
            Mannco routes (`/user/...`, `/cashout/...`) take `Authorization: Bearer <jwt>`, the `content.jwt` of \
            `POST /user/login {"apiKey"}` (the default user's key is `\(user.apiKey)`), and answer \
            `{"err","success","content"}`: business errors are HTTP 300 with the message as `content`, a missing or \
            bad token HTTP 403 `forbidden`.
            """,
        postmanOverview: """
            Mannco: "Login" sends manncoApiKey (the default user's, \(user.apiKey)) and saves the JWT in the \
            collection variable manncoJwt, which the other Mannco requests send as Authorization: Bearer {{manncoJwt}}.

            A user has one cashout in flight and one request a day: a second "Process cashout" within 24 h (virtual \
            clock) is answered 300 "\(ManncoMessage.pendingExists)" or "\(ManncoMessage.cooldown)". Run the Mannco \
            folders once on a fresh sandbox (POST /sandbox/reset before running them again); on a real clock the \
            cashout is processing 5 s after its request and completed 10 s later, which their tests allow.
            """,
        endpoints: OpenAPIDocument.manncoEndpoints.map(\.description)
            + OpenAPIDocument.manncoAdminEndpoints.map(EndpointDescription.init),
        schemas: OpenAPIDocument.manncoSchemas.merging(OpenAPIDocument.manncoAdminSchemas) { $1 },
        securitySchemes: [
            "ManncoJWT": [
                "type": "http", "scheme": "bearer", "bearerFormat": "JWT",
                "description": """
                    `Authorization: Bearer <jwt>`: the `content.jwt` of `POST /user/login`, an HS256 token valid for 31 days \
                    of the virtual clock
                    """,
            ],
        ],
        folders: [
            .init("Mannco user cashouts", PostmanCollection.manncoRequests,
                  "A user's calls: log in, link payout methods, cash out, read the history, unlink."),
            .init("Mannco errors", PostmanCollection.manncoErrorRequests,
                  "Refusals: HTTP 300 with the message as content, 403 for credentials. Runs after \"Mannco user cashouts\"."),
        ],
        variables: [.init("manncoApiKey", user.apiKey, secret: true), .init("manncoUserId", user.id)],
        sessionVariables: ["manncoJwt", "manncoLinkToken", "manncoCashoutId"],
        prerequest: [],
        create: nil,
        accountVariable: nil)
}

extension ManncoDialect: DocumentedDialect {
    package var docs: APIDocsFragment { ManncoDocs.fragment }
}
