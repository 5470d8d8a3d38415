package import SandboxWire
package import SandboxSupport

/// One endpoint, declared once: its route, what the OpenAPI document says of it (its request,
/// its answers with examples, its errors), and its handler on a `Server` (the API's value that
/// serves it). The router serves it (``SandboxWire/Router/add(_:serving:)``), the OpenAPI document
/// describes it (``description``) and the Postman collection's requests name it
/// (``PostmanCollection/Item``): a route cannot be served undocumented, nor documented unserved.
///
/// ```swift
/// static let banks = Endpoint<D24API>(D24Operation.banks, OpenAPI.operation(tag: "D24", ...)) { api, request in api.banks(request) }
/// router.add([banks], serving: D24API(bank: bank))
/// ```
package struct Endpoint<Server: Sendable>: Sendable {
    /// `"METHOD /path/{param}"`, as ``SandboxWire/Router`` takes it.
    let route: String
    /// Its OpenAPI operation among `apis` (the admin API's list the APIs served), made when a
    /// document is asked for.
    package let describe: @Sendable (_ apis: [APIDocsFragment]) -> JSON
    package let handle: @Sendable (Server, HTTPRequest) -> HTTPResponse

    /// An endpoint whose operation depends on the APIs served.
    package init(_ route: String, describedAmong describe: @escaping @Sendable (_ apis: [APIDocsFragment]) -> JSON,
                 handle: @escaping @Sendable (Server, HTTPRequest) -> HTTPResponse) {
        self.route = route
        self.describe = describe
        self.handle = handle
    }

    /// An endpoint whose operation is `operation`, whatever else is served.
    package init(_ route: String, _ operation: @autoclosure @escaping @Sendable () -> JSON,
                 handle: @escaping @Sendable (Server, HTTPRequest) -> HTTPResponse) {
        self.init(route, describedAmong: { _ in operation() }, handle: handle)
    }

    /// The endpoint of `operation`: its route, and its description (made without an id) under
    /// the operation's id.
    package init(_ operation: APIOperation, _ description: @autoclosure @escaping @Sendable () -> JSON,
                 handle: @escaping @Sendable (Server, HTTPRequest) -> HTTPResponse) {
        self.init(operation, describedAmong: { _ in description() }, handle: handle)
    }

    /// The endpoint of `operation`, whose description depends on the APIs served.
    package init(_ operation: APIOperation, describedAmong describe: @escaping @Sendable (_ apis: [APIDocsFragment]) -> JSON,
                 handle: @escaping @Sendable (Server, HTTPRequest) -> HTTPResponse) {
        let id = JSON.string(operation.id)
        self.init(operation.route, describedAmong: { describe($0).merging(["operationId": id]) }, handle: handle)
    }

    /// Its route and description, without its handler: what the documents read.
    package var description: EndpointDescription { EndpointDescription(route: route, describe: describe) }
}

/// An ``Endpoint`` as the documents read it: its route and its operation.
package struct EndpointDescription: Sendable {
    let route: String
    package let describe: @Sendable (_ apis: [APIDocsFragment]) -> JSON

    init(route: String, describe: @escaping @Sendable (_ apis: [APIDocsFragment]) -> JSON) {
        self.route = route
        self.describe = describe
    }

    /// One described elsewhere: a gRPC method's, from its service (served by the gRPC server).
    package init(_ endpoint: OpenAPIEndpoint) {
        self.init(route: endpoint.route) { _ in endpoint.operation }
    }

    /// Its path item entry among `apis`.
    func documented(among apis: [APIDocsFragment]) -> OpenAPIEndpoint {
        OpenAPIEndpoint(route: route, operation: describe(apis))
    }
}

extension Router {
    /// Adds `endpoints`, in order, each answered by its handler on `server`.
    package mutating func add<Server>(_ endpoints: [Endpoint<Server>], serving server: Server) {
        for endpoint in endpoints {
            let handle = endpoint.handle
            add(endpoint.route) { handle(server, $0) }
        }
    }
}
