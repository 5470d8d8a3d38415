package import SandboxSupport

/// The OpenAPI 3.1 description of every endpoint of the payout APIs served and of the admin API,
/// as `GET /openapi.json` and `cashout-sandbox openapi` serve it.
///
/// ```swift
/// let document = OpenAPIDocument.document(serverURL: "http://127.0.0.1:8080", apis: [d24.docs!],
///                                         served: APIDocs.sandboxEndpoints(admin: AdminAPI.self))
/// document["paths"]?["/v3/cashout"]?["post"]?["operationId"]   // "createCashout"
/// ```
package enum OpenAPIDocument {
    /// The document of `apis` (in their order) and the admin API, with `serverURL` as its only server.
    /// `served` is what the sandbox serves besides the APIs (`APIDocs.sandboxEndpoints(admin:)`).
    package static func document(serverURL: String, apis: [APIDocsFragment], served: [EndpointDescription]) -> JSON {
        let titles = apis.map { "the \($0.title)" }.joined(separator: ", ")
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "CashoutSandbox", "version": .string(SandboxVersion.current.description),
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
            "paths": paths(apis, served: served),
            "components": [
                "schemas": .object(apis.reduce(adminSchemas.merging(requestLogSchemas) { $1 }.merging(reportSchemas(apis)) { $1 }
                    .merging(suiteSchemas) { $1 }.merging(scenarioSchemas(apis)) { $1 }) { $0.merging($1.schemas) { $1 } }),
                "securitySchemes": .object(apis.reduce(["AdminToken": adminTokenScheme]) { $0.merging($1.securitySchemes) { $1 } }),
            ],
        ]
    }

    /// Every endpoint's path item: the APIs', then those of the rest the sandbox serves (`served`:
    /// the documents', the dashboard's and the admin API's).
    private static func paths(_ apis: [APIDocsFragment], served: [EndpointDescription]) -> JSON {
        OpenAPI.paths((apis.flatMap(\.endpoints) + served).map { adminTokenProtected($0.documented(among: apis)) })
    }
}
