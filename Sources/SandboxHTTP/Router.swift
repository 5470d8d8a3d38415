import SandboxJSON

/// A request handler: runs on an event-loop thread and returns the response.
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// Maps `"METHOD /path/{param}"` routes to handlers.
///
/// Static paths are a dictionary lookup; paths with `{name}` segments are matched segment by
/// segment and fill ``HTTPRequest/parameters`` (percent-decoded). `HEAD` falls back to the `GET`
/// route (the server leaves out the body). A path known under other methods answers 405 with
/// `Allow`; an unknown path 404. Both bodies are JSON: `{"code":404,"message":"..."}`.
///
/// ```swift
/// var router = Router()
/// router.add("GET /sandbox/health") { _ in .json(["status": "ok"]) }
/// router.add("POST /sandbox/cashouts/{id}/actions") { request in ... request.parameters["id"] ... }
/// ```
public struct Router: Sendable {
    private enum Segment: Sendable, Equatable {
        case literal(Substring)
        case parameter(String)
    }

    private struct PatternRoute: Sendable {
        var segments: [Segment]
        var handlers: [String: HTTPHandler]
    }

    private var exact: [Substring: [String: HTTPHandler]] = [:]
    private var patterns: [PatternRoute] = []

    /// Creates an empty router.
    public init() {}

    /// Adds a route written `"METHOD /path"`; segments in braces are parameters.
    public mutating func add(_ route: String, _ handler: @escaping HTTPHandler) {
        let parts = route.split(separator: " ", maxSplits: 1)
        precondition(parts.count == 2 && parts[1].hasPrefix("/"), "route must be \"METHOD /path\": \(route)")
        let method = String(parts[0])
        let path = parts[1]
        guard path.contains("{") else {
            exact[path, default: [:]][method] = handler
            return
        }
        let segments = Self.split(path).map { part -> Segment in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(part)
        }
        if let i = patterns.firstIndex(where: { $0.segments == segments }) {
            patterns[i].handlers[method] = handler
        } else {
            patterns.append(PatternRoute(segments: segments, handlers: [method: handler]))
        }
    }

    /// Finds the route for `request` and runs it.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        var request = request
        let path = request.path
        var handlers = exact[path]
        if handlers == nil {
            let parts = Self.split(path)
            for route in patterns {
                guard let parameters = Self.match(route.segments, parts) else { continue }
                guard let decoded = parameters else {
                    return Self.error(400, "malformed percent-encoding in path")
                }
                request.parameters = decoded
                handlers = route.handlers
                break
            }
        }
        guard let handlers else { return Self.error(404, "No such endpoint: \(request.method) \(path)") }
        if let handler = handlers[request.method] ?? (request.method == "HEAD" ? handlers["GET"] : nil) {
            return handler(request)
        }
        var allowed = Set(handlers.keys)
        if allowed.contains("GET") { allowed.insert("HEAD") }
        var response = Self.error(405, "Method \(request.method) not allowed on \(path)")
        response.headers.add("Allow", allowed.sorted().joined(separator: ", "))
        return response
    }

    /// A JSON error body in the `{"code","message"}` shape the D24 API uses.
    public static func error(_ status: Int, _ message: String) -> HTTPResponse {
        .json(["code": .number(status), "message": .string(message)], status: status)
    }

    private static func split(_ path: Substring) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
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
