import SandboxJSON

/// The OpenAPI 3.1 description of every D24 and admin endpoint, as `GET /openapi.json` and
/// `cashout-sandbox openapi` serve it.
///
/// ```swift
/// let document = OpenAPIDocument.document(serverURL: "http://127.0.0.1:8080")
/// document["paths"]?["/v3/cashout"]?["post"]?["operationId"]   // "createCashout"
/// ```
public enum OpenAPIDocument {
    /// The document, with `serverURL` as its only server.
    public static func document(serverURL: String) -> JSON {
        [
            "openapi": "3.1.0",
            "info": [
                "title": "CashoutSandbox", "version": "0.2.0",
                "description": """
                    A local stand-in for the D24 Cashouts API v3 (same paths, fields, codes and messages) with a \
                    scriptable bank on a virtual clock, and the sandbox's own admin API under `/sandbox/`. \
                    Signed endpoints need `Payload-Signature`: the lowercase hex HMAC-SHA256 of the exact body \
                    with the merchant's secret (`cashout-sandbox sign BODY` prints it). A scenario's HTTP faults \
                    may answer any endpoint but `/sandbox/...` with another status, late, or not at all. A sandbox \
                    started with `--admin-token` wants `Authorization: Bearer <admin token>` on `/sandbox/...` \
                    (not on `GET /sandbox/health` or `POST /sandbox/sink/{name}`).
                    """,
            ],
            "servers": [["url": .string(serverURL), "description": "This sandbox"]],
            "tags": [
                ["name": "D24", "description": "The D24 Cashouts API v3"],
                ["name": "Sandbox", "description": "The admin API: clock, cashouts, merchants, ledger, webhooks, scenarios"],
                ["name": "Sink", "description": "The built-in webhook receiver"],
                ["name": "Documents", "description": "This document, the Postman collection, the dashboard"],
            ],
            "paths": OpenAPI.paths(d24Endpoints + adminEndpoints + documentEndpoints),
            "components": [
                "schemas": .object(d24Schemas.merging(adminSchemas) { $1 }),
                "securitySchemes": [
                    "PayloadSignature": [
                        "type": "apiKey", "in": "header", "name": "Payload-Signature",
                        "description": "Lowercase hex HMAC-SHA256 of the exact request body, keyed with the merchant's secret",
                    ],
                    "AdminToken": adminTokenScheme,
                    "ReadOnlyKey": [
                        "type": "http", "scheme": "bearer",
                        "description": "`Authorization: Bearer <read-only key>` (sandbox_read_only for the default merchant)",
                    ],
                ],
            ],
        ]
    }

    /// The documents and the dashboard.
    static var documentEndpoints: [OpenAPIEndpoint] {
        func document(_ route: String, _ id: String, _ summary: String, required: String) -> OpenAPIEndpoint {
            OpenAPIEndpoint(route: route, operation: OpenAPI.operation(
                id, tag: "Documents", summary: summary, description: "Names the server by the request's `Host`.",
                responses: ["200": OpenAPI.json(summary, Schema.object([required: [:]], required: [required], open: true))]))
        }
        func asset(_ route: String, _ id: String, _ summary: String, _ type: String) -> OpenAPIEndpoint {
            OpenAPIEndpoint(route: route, operation: OpenAPI.operation(
                id, tag: "Documents", summary: summary, description: "Compiled into the binary.",
                responses: ["200": ["description": .string(summary), "content": [type: ["schema": Schema.string()]]]]))
        }
        return [
            document("GET /openapi.json", "getOpenAPIDocument", "This OpenAPI 3.1 document", required: "openapi"),
            document("GET /postman.json", "getPostmanCollection", "A Postman collection (v2.1) of every endpoint", required: "item"),
            document("GET /postman/environment.json", "getPostmanEnvironment", "Its Postman environment", required: "values"),
            asset("GET /", "getDashboard", "The dashboard page", "text/html"),
            asset("GET /dashboard.css", "getDashboardStyle", "The dashboard's style sheet", "text/css"),
            asset("GET /dashboard.js", "getDashboardScript", "The dashboard's script", "text/javascript"),
        ]
    }
}
