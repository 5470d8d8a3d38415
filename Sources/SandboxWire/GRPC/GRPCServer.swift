
// gRPC over HTTP/2: https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md
// Every method is a route `POST /package.Service/Method` on the sandbox's Router, so route
// numbers, HTTP metrics and middleware apply to gRPC calls as to any other request. Unary calls
// are answered from the whole request body; streaming calls are streamed through the server's
// `streamOpener` (and, when a server reads a streaming call's whole body instead, answered in
// one batch by the same code).

/// A unary method's handler: the decoded request and the call's context in, a reply out.
/// Thrown ``GRPCStatus`` errors are the call's status; other errors are UNKNOWN.
package typealias GRPCUnaryHandler = @Sendable (ProtoMessage, GRPCCallContext) throws -> GRPCReply

/// The gRPC services the sandbox serves: the ones declared in its ``ProtoFile``s, plus
/// `grpc.health.v1.Health` and server reflection (`grpc.reflection.v1` and `v1alpha`).
///
/// ```swift
/// var grpc = GRPCServer(files: [PayoutProtos.file])
/// let registry = grpc.registry
/// grpc.handle("/types.PayoutService/Get") { request, context in
///     var response = registry.message("types.PayoutServiceGetResponse")
///     response["connector_payout_id"] = .string(request.string("connector_payout_id"))
///     return .message(response)
/// }
/// grpc.install(on: &router)                      // routes, and UNIMPLEMENTED for unknown methods
/// configuration.streamOpener = grpc.streamOpener // reflection and health Watch, streamed
/// grpc.metrics.render(into: &text)               // cashout_sandbox_grpc_requests_total
/// ```
///
/// Register handlers before ``install(on:)``: the router keeps the server as it was then.
package struct GRPCServer: Sendable {
    /// The declared files and the health and reflection files: what reflection serves.
    package let registry: ProtoRegistry
    /// Calls answered, by method and status code.
    package let metrics: GRPCMetrics
    /// The largest request message accepted (RESOURCE_EXHAUSTED beyond).
    package var maxMessageSize = GRPCDeframer.defaultMaxMessageSize
    /// The largest message of a streaming call (health's and reflection's requests are a few
    /// bytes): a stream's partial message is held in memory, and a connection has many streams.
    var maxStreamingMessageSize = 64 * 1024

    var unaryHandlers: [String: GRPCUnaryHandler] = [:]
    var streamingMethods: [String: GRPCStreamingMethod] = [:]

    /// A server for the services of `files` (which must include everything they import).
    init(files: [ProtoFile]) {
        self.init(registry: ProtoRegistry(files + [GRPCHealth.file] + GRPCReflection.files))
    }

    /// A server for `services`, declared in the files that `files` gives (with everything they
    /// import), which it reads when a call, a reflection request or a journaled message first
    /// needs them, not at start (``ProtoRegistry/init(services:files:)``).
    ///
    /// ```swift
    /// var grpc = GRPCServer(services: try ProtoText.services(of: sources[0])) { try! ProtoText.files(sources) }
    /// ```
    package init(services: [ServiceSchema], files: @escaping @Sendable () -> [ProtoFile]) {
        let own = GRPCHealth.file.services + GRPCReflection.packages.map(GRPCReflection.service(package:))
        self.init(registry: ProtoRegistry(services: services + own) { files() + [GRPCHealth.file] + GRPCReflection.files })
    }

    private init(registry: ProtoRegistry) {
        self.registry = registry
        metrics = GRPCMetrics(methods: registry.services.flatMap { service in service.methods.map { "/\(service.fullName)/\($0.name)" } })
        let registry = registry
        unaryHandlers["/grpc.health.v1.Health/Check"] = { request, _ in try GRPCHealth.check(request, registry: registry) }
        streamingMethods["/grpc.health.v1.Health/Watch"] = { _ in GRPCHealth.Watch(registry: registry) }
        for package in GRPCReflection.packages {
            streamingMethods["/\(package).ServerReflection/ServerReflectionInfo"] = { _ in GRPCReflection(registry: registry) }
        }
    }

    /// Sets the handler of the unary method at `path` (`/package.Service/Method`), which must be
    /// declared in the server's files.
    package mutating func handle(_ path: String, _ handler: @escaping GRPCUnaryHandler) {
        guard let method = method(at: path) else { preconditionFailure("no method \(path) in the server's files") }
        precondition(method.isUnary, "\(path) is a streaming method")
        unaryHandlers[path] = handler
    }

    /// The unary handler registered for `path` (for another protocol on the same methods, such
    /// as Connect's JSON, to call the same code).
    package func handler(for path: String) -> GRPCUnaryHandler? {
        unaryHandlers[path]
    }

    /// Every method's path, `/package.Service/Method`.
    package var methodPaths: [String] {
        registry.services.flatMap { service in service.methods.map { "/\(service.fullName)/\($0.name)" } }
    }

    /// The method declared at `path` (`/package.Service/Method`).
    package func method(at path: some StringProtocol) -> MethodSchema? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].isEmpty else { return nil }
        return registry.service(String(parts[1]))?.method(String(parts[2]))
    }

    /// Adds a `POST` route for every declared method, and middleware that answers any other
    /// request with a gRPC content type UNIMPLEMENTED (`unknown service …`, `unknown method … for
    /// service …`, as grpc-go words them).
    func install(on router: inout Router) {
        addRoutes(to: &router)
        router.use(unknownCalls)
    }

    /// Its methods as routes of `router` (``install(on:)`` without ``unknownCalls``).
    package func addRoutes(to router: inout Router) {
        let server = self
        for service in registry.services {
            for method in service.methods {
                let path = "/\(service.fullName)/\(method.name)"
                router.add("POST \(path)") { request in server.metered(server.respond(to: request, path: path, method: method), path: path) }
            }
        }
    }

    /// A gRPC call no route took, answered `UNIMPLEMENTED` in grpc-go's words; nil for any other request.
    package func unimplemented(_ request: HTTPRequest) -> HTTPResponse? {
        GRPCServer.isGRPC(request) ? metered(unknownMethod(request), path: nil) : nil
    }

    /// The middleware that answers a gRPC call no route took: `UNIMPLEMENTED`, in grpc-go's words.
    var unknownCalls: Router.Middleware {
        let server = self
        return { request, route, next in
            guard route == Router.unmatched, let answer = server.unimplemented(request) else { return next(request) }
            return answer
        }
    }

    /// Streams the declared streaming methods' calls (give it to the HTTP server's
    /// configuration); nil for everything else, which the router answers.
    package var streamOpener: HTTPStreamOpener {
        let server = self
        return { request in
            let path = String(request.path)
            guard request.method == "POST", let open = server.streamingMethods[path], let method = server.method(at: path),
                  case .accepted(let context) = server.preflight(request, path: path) else { return nil }
            return GRPCStreamCall(server: server, method: method, context: context, call: open(context), metrics: server.metrics)
        }
    }

    /// Answers a call to a declared method: unary from the whole body, streaming in one batch.
    func respond(to request: HTTPRequest, path: String, method: MethodSchema) -> HTTPResponse {
        if let encoding = Self.connectEncoding(request) { return respondConnect(to: request, path: path, method: method, encoding: encoding) }
        let context: GRPCCallContext
        switch preflight(request, path: path) {
        case .refused(let response): return response
        case .accepted(let accepted): context = accepted
        }
        if let open = streamingMethods[path] { return GRPCStreamCall.batch(server: self, method: method, context: context, call: open(context)) }
        return respondUnary(method: method, context: context, handler: unaryHandlers[path])
    }

    /// UNIMPLEMENTED for a path no method has (or 505 over HTTP/1.x).
    private func unknownMethod(_ request: HTTPRequest) -> HTTPResponse {
        if request.version != .http2 { return Self.needsHTTP2() }
        if request.method != "POST" { return Self.trailersOnly(GRPCStatus(.unimplemented, "gRPC calls are POST requests, not \(request.method)")) }
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            return Self.trailersOnly(GRPCStatus(.unimplemented, "malformed method name: \"\(request.path)\""))
        }
        guard let service = registry.service(String(parts[1])) else {
            return Self.trailersOnly(GRPCStatus(.unimplemented, "unknown service \(parts[1])"))
        }
        return Self.trailersOnly(GRPCStatus(.unimplemented, "unknown method \(parts[2]) for service \(service.fullName)"))
    }
}
