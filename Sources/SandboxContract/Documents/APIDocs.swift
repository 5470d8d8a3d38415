package import SandboxWire
import SandboxSupport

/// The machine-readable descriptions integrators load into their tools: the OpenAPI 3.1
/// document (`GET /openapi.json`) and the Postman collection and environment
/// (`GET /postman.json`, `GET /postman/environment.json`), served beside the dashboard. Each
/// names the server by the address the request came in on, so an import works as is.
package enum APIDocs {
    /// The routes of the dashboard and the documents, which hand out the server's URL (they are
    /// kept out of the request log).
    package static let routes = DocumentRoute.all.map(\.route)

    /// Adds the dashboard's and the documents' routes to `router`: documents of `apis`, in that
    /// order, and of the admin API `admin` serves. `apis` is called when a document is first
    /// asked for, not here (the APIs' parts take longer to make than the rest of a start), and its
    /// answer kept.
    package static func register<Admin: AdminServing>(in router: inout Router, dashboard: Dashboard.Assets, admin: Admin.Type,
                                                      apis: @escaping @Sendable () -> [APIDocsFragment]) {
        // What the document describes besides the APIs is made with it, on first use, not at start.
        router.add(documentEndpoints, serving: Documents(apis: Lazy(apis), dashboard: dashboard, served: Lazy { sandboxEndpoints(admin: admin) }))
    }

    /// What the sandbox serves besides the payout APIs, as the documents describe it: the
    /// dashboard and the documents, and the admin API `admin` serves.
    package static func sandboxEndpoints<Admin: AdminServing>(admin: Admin.Type) -> [EndpointDescription] {
        let (upToAccounts, afterAccounts) = OpenAPIDocument.adminEndpoints(for: admin)
        return documentEndpoints.map(\.description) + (upToAccounts + afterAccounts).map(\.description)
    }

    /// What the dashboard's and the documents' handlers read.
    struct Documents: Sendable {
        let apis: Lazy<[APIDocsFragment]>
        let dashboard: Dashboard.Assets
        let served: Lazy<[EndpointDescription]>
    }

    /// The dashboard and the documents, each declared once, in the order they are served.
    static let documentEndpoints: [Endpoint<Documents>] = {
        func asset(_ operation: APIOperation, _ summary: String, _ type: String,
                   _ answer: @escaping @Sendable (Dashboard.Assets) -> HTTPResponse) -> Endpoint<Documents> {
            Endpoint(operation, OpenAPI.operation(
                tag: "Documents", summary: summary, description: "Compiled into the binary.",
                responses: ["200": ["description": .string(summary), "content": [type: ["schema": Schema.string()]]]])) { documents, _ in
                answer(documents.dashboard)
            }
        }
        func document(_ operation: APIOperation, _ summary: String, required: String,
                      _ answer: @escaping @Sendable (_ baseURL: String, Documents) -> JSON) -> Endpoint<Documents> {
            Endpoint(operation, OpenAPI.operation(
                tag: "Documents", summary: summary, description: "Names the server by the request's `Host`.",
                responses: ["200": OpenAPI.json(summary, Schema.object([required: [:]], required: [required], open: true))])) { documents, request in
                .json(answer(baseURL(of: request), documents))
            }
        }
        return [
            asset(DocumentRoute.dashboard, "The dashboard page", "text/html") { $0.page() },
            asset(DocumentRoute.dashboardStyle, "The dashboard's style sheet", "text/css") { $0.style() },
            asset(DocumentRoute.dashboardScript, "The dashboard's script", "text/javascript") { $0.script() },
            asset(DocumentRoute.dashboardIcon, "The dashboard's icon (SVG)", "image/svg+xml") { $0.icon() },
            document(DocumentRoute.openAPI, "This OpenAPI 3.1 document", required: "openapi") { url, documents in
                OpenAPIDocument.document(serverURL: url, apis: documents.apis.value, served: documents.served.value)
            },
            document(DocumentRoute.postman, "A Postman collection (v2.1) of every endpoint", required: "item") {
                PostmanCollection.collection(baseURL: $0, apis: $1.apis.value)
            },
            document(DocumentRoute.postmanEnvironment, "Its Postman environment", required: "values") {
                PostmanCollection.environment(baseURL: $0, apis: $1.apis.value)
            },
        ]
    }()

    /// `http://` and the request's `Host`, or the loopback default.
    static func baseURL(of request: HTTPRequest) -> String {
        "http://\(request.headers["Host"] ?? "127.0.0.1:8080")"
    }
}
