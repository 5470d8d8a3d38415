import SandboxSupport

/// A request handler: runs on an event-loop thread and returns the response.
package typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// Maps `"METHOD /path/{param}"` routes to handlers.
///
/// Static paths are a dictionary lookup; paths with `{name}` segments are matched segment by
/// segment and fill ``HTTPRequest/parameters`` (percent-decoded). `HEAD` falls back to the `GET`
/// route (the server leaves out the body). A path known under other methods answers 405 with
/// `Allow`; an unknown path 404. Both bodies are ``error(_:_:)``'s JSON: `{"code":404,"message":"..."}`,
/// the message ending with the route most likely meant when one is close (Router+NearMiss).
///
/// ```swift
/// var router = Router()
/// router.add("GET /sandbox/health") { _ in .json(["status": "ok"]) }
/// router.add("POST /sandbox/cashouts/{id}/actions") { request in ... request.parameters["id"] ... }
/// ```
///
/// Every route has a number (``routeNames`` gives its `"METHOD /pattern"`; 0 is `unmatched`, for
/// 404, 405 and malformed paths), which ``use(_:)`` middleware sees and every response carries to
/// the server's ``HTTPMetrics``: labels stay bounded however many paths clients invent.
package struct Router: Sendable {
    private enum Segment: Sendable, Equatable {
        case literal(Substring)
        case parameter(String)
    }

    /// A route's handler and number; a `GET` route's `HEAD` twin is `id + 1`.
    private struct Entry: Sendable {
        var id: Int
        var handler: HTTPHandler
    }

    /// A path's handlers by method: a handful at most, compared in turn (a small string's
    /// comparison is one of its bits), not hashed per request.
    private struct Methods: Sendable {
        private(set) var entries: [(method: String, entry: Entry)] = []

        subscript(method: String) -> Entry? {
            get { entries.first { $0.method == method }?.entry }
            set {
                entries.removeAll { $0.method == method }
                if let newValue { entries.append((method, newValue)) }
            }
        }
    }

    private struct PatternRoute: Sendable {
        var segments: [Segment]
        var handlers: Methods
    }

    /// Code around every answer, matched or not: the request, its route number, and the route's
    /// handler (or the 404/405/400 answer) to call, or not.
    package typealias Middleware = @Sendable (HTTPRequest, _ route: Int, _ next: HTTPHandler) -> HTTPResponse

    private var exact: [Substring: Methods] = [:]
    private var patterns: [PatternRoute] = []
    private var middleware: Middleware?
    /// The routes as a 404 compares them with the path it did not find (Router+NearMiss), read
    /// from `routeNames` by the first 404 (a start need not pay for them).
    private var nearMissCandidates = NearMissCandidates()

    /// The route numbered `i` is `routeNames[i]`, written `"METHOD /path/{param}"`; `routeNames[0]`
    /// is `"unmatched"`. Each `GET` route is followed by its `HEAD` twin.
    package private(set) var routeNames = ["unmatched"]

    /// The number of unmatched requests (unknown paths, wrong methods, malformed paths).
    package static let unmatched = 0

    /// Creates an empty router.
    package init() {}

    /// Wraps every answer in `middleware`, registered outermost first: the first call's runs
    /// first, and each later one inside the earlier ones, next to the handler.
    ///
    /// ```swift
    /// router.use { request, route, next in
    ///     request.headers["Authorization"] == nil ? Router.error(401, "who are you?") : next(request)
    /// }
    /// ```
    package mutating func use(_ middleware: @escaping Middleware) {
        guard let outer = self.middleware else {
            self.middleware = middleware
            return
        }
        self.middleware = { request, route, next in outer(request, route) { middleware($0, route, next) } }
    }

    /// Whether `path` is `prefix` or under `prefix/`.
    package static func path(_ path: Substring, isIn prefix: String) -> Bool {
        let (path, prefix) = (path.utf8, prefix.utf8)  // bytes: no Unicode rules on the hot path
        guard path.starts(with: prefix) else { return false }
        return path.count == prefix.count || path[path.index(path.startIndex, offsetBy: prefix.count)] == UInt8(ascii: "/")
    }

    /// The method of a route name, `GET` of `"GET /v3/cashout/{id}"` (the whole name for
    /// `unmatched`); found by bytes, as a start reads every route's.
    package static func method(of route: String) -> Substring {
        route[..<(route.utf8.firstIndex(of: UInt8(ascii: " ")) ?? route.endIndex)]
    }

    /// The pattern of a route name, `/v3/cashout/{id}` of `"GET /v3/cashout/{id}"` (empty for
    /// `unmatched`); found by bytes, as a start reads every route's.
    package static func pattern(of route: String) -> Substring {
        guard let space = route.utf8.firstIndex(of: UInt8(ascii: " ")) else { return "" }
        return route[route.utf8.index(after: space)...]
    }

    /// The `HEAD` twin the router adds after a `GET` route (`"HEAD /sandbox/health"`); nil for another method.
    package static func headTwin(of route: String) -> String? {
        route.hasPrefix("GET /") ? "HEAD" + route.dropFirst(3) : nil
    }

    /// Adds a route written `"METHOD /path"`; segments in braces are parameters.
    package mutating func add(_ route: String, _ handler: @escaping HTTPHandler) {
        let method = String(Self.method(of: route)), path = Self.pattern(of: route)
        precondition(!method.isEmpty && path.hasPrefix("/"), "route must be \"METHOD /path\": \(route)")
        func entry(replacing existing: Entry?) -> Entry {
            if let existing { return Entry(id: existing.id, handler: handler) }
            let name = "\(method) \(path)"
            routeNames.append(name)
            if let twin = Self.headTwin(of: name) { routeNames.append(twin) }
            nearMissCandidates = NearMissCandidates()
            return Entry(id: routeNames.count - (method == "GET" ? 2 : 1), handler: handler)
        }
        guard path.utf8.contains(UInt8(ascii: "{")) else {  // bytes: a start adds a hundred routes
            exact[path, default: Methods()][method] = entry(replacing: exact[path]?[method])
            return
        }
        let segments = Self.split(path).map { part -> Segment in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(part)
        }
        if let i = patterns.firstIndex(where: { $0.segments == segments }) {
            patterns[i].handlers[method] = entry(replacing: patterns[i].handlers[method])
        } else {
            var handlers = Methods()
            handlers[method] = entry(replacing: nil)
            patterns.append(PatternRoute(segments: segments, handlers: handlers))
        }
    }

    /// Finds the route for `request` and runs it (through the middleware); the response carries
    /// the route's number.
    package func respond(to request: HTTPRequest) -> HTTPResponse {
        let (route, handler, parameters) = find(request)
        func run(_ request: HTTPRequest) -> HTTPResponse {
            middleware.map { $0(request, route, handler) } ?? handler(request)
        }
        // A static path's request goes on as it came, not copied.
        var response = parameters.map { parameters in
            var request = request
            request.parameters = parameters
            return run(request)
        } ?? run(request)
        response.route = route
        return response
    }

    /// The route's number and handler, and the path parameters of a pattern route; unmatched: 0
    /// and the error answer.
    private func find(_ request: HTTPRequest) -> (Int, HTTPHandler, [String: String]?) {
        let path = request.path
        var handlers = exact[path]
        var parameters: [String: String]?
        if handlers == nil {
            let parts = Self.split(path)
            for route in patterns {
                guard let matched = Self.match(route.segments, parts) else { continue }
                guard let decoded = matched else {
                    return (Self.unmatched, { _ in Self.error(400, "malformed percent-encoding in path") }, nil)
                }
                parameters = decoded
                handlers = route.handlers
                break
            }
        }
        guard let handlers else {
            return (Self.unmatched, { [nearMissCandidates, routeNames] request in
                let nearMiss = Self.nearMiss(method: request.method, path: request.path, candidates: nearMissCandidates.of(routeNames))
                var response = Self.error(404, "No such endpoint: \(request.method) \(request.path)" + Self.hint(nearMiss))
                response.nearMiss = nearMiss
                return response
            }, nil)
        }
        if let entry = handlers[request.method] { return (entry.id, entry.handler, parameters) }
        if request.method == "HEAD", let entry = handlers["GET"] { return (entry.id + 1, entry.handler, parameters) }
        var allowed = Set(handlers.entries.map(\.method))
        if allowed.contains("GET") { allowed.insert("HEAD") }
        let allow = allowed.sorted().joined(separator: ", ")
        let routes = handlers.entries.map { routeNames[$0.entry.id] }
        return (Self.unmatched, { request in
            let nearMiss = Self.closestMethod(request.method, among: routes)
            var response = Self.error(405, "Method \(request.method) not allowed on \(request.path)" + Self.hint(nearMiss))
            response.headers.add("Allow", allow)
            response.nearMiss = nearMiss
            return response
        }, parameters)
    }

    /// A JSON error body `{"code": status, "message": message}`: the sandbox's own shape (its admin API's).
    package static func error(_ status: Int, _ message: String) -> HTTPResponse {
        .json(["code": .number(status), "message": .string(message)], status: status)
    }

    static func split(_ path: Substring) -> [Substring] {
        // At "/" bytes, as RFC 3986 separates path segments (not Characters: a start splits a
        // hundred route patterns, and a request to a pattern route its path).
        var parts: [Substring] = [], start = path.startIndex
        let bytes = path.utf8
        var index = start
        while index != bytes.endIndex {
            if bytes[index] == UInt8(ascii: "/") {
                parts.append(path[start..<index])
                start = bytes.index(after: index)
            }
            bytes.formIndex(after: &index)
        }
        parts.append(path[start...])
        return Array(parts.dropFirst())
    }

    /// nil: no match; .some(nil): matched but a parameter is not valid percent-encoding.
    private static func match(_ segments: [Segment], _ parts: [Substring]) -> [String: String]?? {
        guard segments.count == parts.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal):
                guard literal == part else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                guard let value = FormURLEncoding.percentDecode(part.utf8) else { return .some(nil) }
                parameters[name] = value
            }
        }
        return .some(parameters)
    }
}
