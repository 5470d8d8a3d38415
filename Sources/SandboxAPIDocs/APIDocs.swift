import SandboxHTTP
import SandboxJSON

/// The machine-readable descriptions integrators load into their tools: the OpenAPI 3.1
/// document (`GET /openapi.json`) and the Postman collection and environment
/// (`GET /postman.json`, `GET /postman/environment.json`). Each names the server by the address
/// the request came in on, so an import works as is.
package enum APIDocs {
    /// The documents' routes.
    package static let routes = ["GET /openapi.json", "GET /postman.json", "GET /postman/environment.json"]

    /// Adds the documents' routes to `router`: documents of `apis`, in that order, and the admin API.
    /// `apis` is called when a document is first asked for, not here (the APIs' parts take longer
    /// to make than the rest of a start), and its answer kept.
    package static func register(in router: inout Router, apis: @escaping @Sendable () -> [APIDocsFragment]) {
        let apis = Lazy(apis)
        router.add("GET /openapi.json") { request in .json(OpenAPIDocument.document(serverURL: baseURL(of: request), apis: apis.value)) }
        router.add("GET /postman.json") { request in .json(PostmanCollection.collection(baseURL: baseURL(of: request), apis: apis.value)) }
        router.add("GET /postman/environment.json") { request in
            .json(PostmanCollection.environment(baseURL: baseURL(of: request), apis: apis.value))
        }
    }

    /// `http://` and the request's `Host`, or the loopback default.
    static func baseURL(of request: HTTPRequest) -> String {
        "http://\(request.headers["Host"] ?? "127.0.0.1:8080")"
    }
}
