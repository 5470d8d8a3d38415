/// One operation of a payout API, declared once: its id, how it is reached (an HTTP route, or a
/// gRPC method of a service in the API's `.proto` files) and its role. The router and the gRPC
/// server serve it (`Endpoint`, `GRPCServer.handle`), the documents describe it under its id
/// (OpenAPI's `operationId`, Postman's item), and the report, a scenario's faults, `explore` and
/// the steps switch on its role, never on its route's text.
///
/// ```swift
/// enum EchoOperation {
///     static let create = APIOperation("createEchoPayout", .http("POST", "/echo/payouts"), role: .create)
///     static let get = APIOperation("echoGet", .grpc(service: "echo.EchoService", method: "Get"), role: .statusQuery)
///     static let all = [create, get]
/// }
/// ```
package struct APIOperation: Sendable, Hashable, CustomStringConvertible {
    /// How a request reaches it.
    package enum Binding: Sendable, Hashable {
        /// `method` `path`, the path with `{param}` segments as the router takes it.
        case http(_ method: String, _ path: String)
        /// A unary method of a gRPC service (`types.PayoutService`), served over HTTP/2 and as
        /// Connect's JSON at `POST /<service>/<method>`.
        case grpc(service: String, method: String)
    }

    /// What it does, as the report, faults, `explore` and the steps read it.
    package enum Role: String, Sendable, Hashable, CaseIterable {
        /// Asks for a payout that moves money now: a create, the transfer of a staged payout.
        case create
        /// Makes a payout that moves no money yet: staged, or waiting for its recipient's page.
        case prepare
        /// Reads how a payout stands: a status query, a lookup, a listing of the payouts.
        case statusQuery
        /// Changes a payout already made: a hold, a release, a cancel, a void.
        case update
        /// Gives credentials for later calls (a token).
        case login
        /// Reads or changes what a payout is sent to or from (banks, rates, recipients, methods,
        /// balances, links).
        case reference
        /// The sandbox's admin API, and an API's own account administration in it (`/sandbox/merchants`...).
        case admin
        /// The sandbox's own pages and documents: the dashboard, the OpenAPI document, the Postman collection.
        case document
    }

    /// Its operation id: OpenAPI's `operationId`, the name the dashboard and the steps use.
    package let id: String
    let binding: Binding
    package let role: Role
    /// The HTTP method of a request to it (`POST` for a gRPC method).
    package let method: String
    /// The path of a request to it, with its `{param}` segments; a gRPC method's HTTP/2 `:path`
    /// (`/types.PayoutService/Create`).
    package let path: String
    /// `"METHOD /path"` as the router names it; for a gRPC method its Connect JSON route
    /// (`"POST /types.PayoutService/Create"`), the name its calls are logged under. Made once:
    /// a request's operation is found by it (`APIContract.operation(route:)`).
    package let route: String

    package init(_ id: String, _ binding: Binding, role: Role) {
        self.id = id
        self.binding = binding
        self.role = role
        switch binding {
        case .http(let method, let path): (self.method, self.path) = (method, path)
        case .grpc(let service, let method): (self.method, self.path) = ("POST", Self.grpcPath(service: service, method: method))
        }
        route = "\(self.method) \(self.path)"
    }

    /// The HTTP/2 `:path` of a gRPC method (`/types.PayoutService/Create`); nil for an HTTP route.
    package var grpcPath: String? {
        guard case .grpc = binding else { return nil }
        return path
    }

    /// The gRPC method's name (`Create`); nil for an HTTP route.
    package var grpcMethod: String? {
        guard case .grpc(_, let method) = binding else { return nil }
        return method
    }

    /// The HTTP/2 `:path` of a service's method (`/types.PayoutService/Create`).
    private static func grpcPath(service: String, method: String) -> String { "/\(service)/\(method)" }

    /// The route under which a call of a gRPC service's method is logged and served as Connect JSON.
    package static func grpcRoute(service: String, method: String) -> String { "POST " + grpcPath(service: service, method: method) }

    package var description: String { route }
}
