package import SandboxContract
import SandboxSupport

/// D24's part of the sandbox's documents: its endpoints and schemas in the OpenAPI document
/// (`D24OpenAPI.swift`), its folders in the Postman collection (`D24Postman.swift`), the default
/// merchant's credentials as the provider's collection names them, and the script that signs.
enum D24Docs {
    private static let merchant = D24Merchant(D24Merchant.sandboxDefault)

    static let fragment = APIDocsFragment(
        tag: "D24", title: "D24 Cashouts API v3",
        overview: """
            Signed endpoints need `Payload-Signature`: the lowercase hex HMAC-SHA256 of the exact body with the \
            merchant's secret (`cashout-sandbox sign BODY` prints it).
            """,
        postmanOverview: """
            Import this collection with its environment (GET /postman/environment.json), or use the collection \
            variables as they are: the default merchant sandbox_login / sandbox_pass / sandbox_secret (read-only \
            key sandbox_read_only).

            The collection's pre-request script signs every /v3/cashout body: Payload-Signature is the lowercase \
            hex HMAC-SHA256 of the body, after variable substitution, with apiSignature.

            Run the folders in order (Collection Runner), or send their requests one by one at your own pace: \
            creates save cashoutId and friends for the requests after them. On the default bank a cashout is \
            DELIVERED 5 s after its creation and COMPLETED 10 s later, and can no longer be held or cancelled; \
            so the cashouts that are held, cancelled or forced are created with the magic beneficiary_name \
            NEVER, which leaves them PENDING until a request moves them.
            """,
        endpoints: OpenAPIDocument.d24Endpoints.map(\.description) + OpenAPIDocument.merchantEndpoints.map(EndpointDescription.init),
        schemas: OpenAPIDocument.d24Schemas,
        securitySchemes: [
            "PayloadSignature": [
                "type": "apiKey", "in": "header", "name": "Payload-Signature",
                "description": "Lowercase hex HMAC-SHA256 of the exact request body, keyed with the merchant's secret",
            ],
            "ReadOnlyKey": [
                "type": "http", "scheme": "bearer",
                "description": "`Authorization: Bearer <read-only key>` (sandbox_read_only for the default merchant)",
            ],
        ],
        folders: [
            .init("D24 Cashouts API v3", PostmanCollection.d24Requests, "The merchant's calls, in the order of a cashout's life."),
            .init("Errors", PostmanCollection.errorRequests, "Refusals with the provider's codes and messages."),
        ],
        // The default merchant (the D24 guide, "The default merchant"), as the provider's own collection names them.
        variables: [.init("apiKey", merchant.login), .init("apiPassphrase", merchant.pass),
                    .init("apiSignature", merchant.secret, secret: true), .init("readOnlyKey", merchant.readOnlyKey)],
        sessionVariables: ["newExternalId", "externalId", "cashoutId", "adminCashoutId", "rejectCashoutId", "timelineCashoutId", "webhookId"],
        prerequest: signatureScript,
        create: { name, idVariable, staysPending in
            PostmanCollection.create(name, cashoutID: idVariable,
                                     beneficiaryName: staysPending ? PostmanCollection.pendingName : D24Example.value("beneficiary_name"))
        },
        accountVariable: "{{apiKey}}")

    /// A fresh `external_id` for each create, then `Payload-Signature` for the signed endpoints,
    /// exactly as Postman runs it. Both happen here because the collection's script runs before a
    /// request's own: an id set by the request's script would come after the signature.
    static let signatureScript = [
        "if (/\\/v3\\/cashout/.test(pm.request.url.toString()) && pm.request.body && pm.request.body.raw) {",
        "    // A body that asks for {{newExternalId}} gets a new one on every send.",
        "    if (pm.request.body.raw.includes('{{newExternalId}}')) {",
        "        pm.collectionVariables.set('newExternalId', 'postman-' + Date.now() + '-' + Math.floor(Math.random() * 1e6));",
        "    }",
        "    // Payload-Signature: lowercase hex HMAC-SHA256 of the body Postman sends (after {{variable}}",
        "    // substitution), keyed by the merchant's API signature.",
        "    const body = pm.variables.replaceIn(pm.request.body.raw);",
        "    const signature = CryptoJS.HmacSHA256(body, pm.variables.get('apiSignature')).toString(CryptoJS.enc.Hex);",
        "    pm.request.headers.upsert({ key: 'Payload-Signature', value: signature });",
        "}",
    ]
}

extension D24Dialect: DocumentedDialect {
    package var docs: APIDocsFragment { D24Docs.fragment }
}
