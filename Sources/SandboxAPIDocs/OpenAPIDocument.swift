import SandboxJSON

/// The OpenAPI 3.1 description of every endpoint of the payout APIs served and of the admin API,
/// as `GET /openapi.json` and `cashout-sandbox openapi` serve it.
///
/// ```swift
/// let document = OpenAPIDocument.document(serverURL: "http://127.0.0.1:8080", apis: [d24.docs!])
/// document["paths"]?["/v3/cashout"]?["post"]?["operationId"]   // "createCashout"
/// ```
package enum OpenAPIDocument {
    /// The document of `apis` (in their order) and the admin API, with `serverURL` as its only server.
    package static func document(serverURL: String, apis: [APIDocsFragment]) -> JSON {
        let titles = apis.map { "the \($0.title)" }.joined(separator: ", ")
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "CashoutSandbox", "version": .string(SandboxVersion.current),
                "description": .string(
                    "A local stand-in for \(titles.isEmpty ? "payout APIs" : titles) (same paths, fields, codes and messages) with a "
                    + "scriptable bank on a virtual clock, and the sandbox's own admin API under `/sandbox/`. "
                    + apis.map { $0.overview + " " }.joined()
                    + """
                    A scenario's HTTP faults may answer any endpoint but `/sandbox/...` with another status, late, or not at \
                    all. A sandbox started with `--admin-token` wants `Authorization: Bearer <admin token>` on `/sandbox/...` \
                    (not on `GET /sandbox/health` or `POST /sandbox/sink/{name}`).
                    """),
            ],
            "servers": [["url": .string(serverURL), "description": "This sandbox"]],
            "tags": .array(apis.map { ["name": .string($0.tag), "description": .string("The \($0.title)")] } + [
                ["name": "Sandbox", "description": "The admin API: clock, cashouts, merchants, ledger, webhooks, scenarios"],
                ["name": "Sink", "description": "The built-in webhook receiver"],
                ["name": "Documents", "description": "This document, the Postman collection, the dashboard"],
            ]),
            "paths": paths(apis),
            "components": [
                "schemas": .object(apis.reduce(adminSchemas.merging(requestJournalSchemas) { $1 }.merging(reportSchemas(apis)) { $1 }
                    .merging(suiteSchemas) { $1 }) { $0.merging($1.schemas) { $1 } }),
                "securitySchemes": .object(apis.reduce(["AdminToken": adminTokenScheme]) { $0.merging($1.securitySchemes) { $1 } }),
            ],
        ]
    }

    /// Every endpoint's path item: the APIs', then the admin API's and the documents'.
    private static func paths(_ apis: [APIDocsFragment]) -> JSON {
        let endpoints: [OpenAPIEndpoint] = apis.flatMap { $0.endpoints.map { $0.documented(among: apis) } }
        return OpenAPI.paths(endpoints.map(adminTokenProtected) + adminEndpoints(apis) + AccountsResource.endpoints(apis) + documentEndpoints)
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
            asset("GET /favicon.ico", "getDashboardIcon", "The dashboard's icon (SVG)", "image/svg+xml"),
        ]
    }
}
