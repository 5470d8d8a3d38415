/// Size limits checked while bytes arrive, so a hostile peer cannot make the parser buffer more.
package struct HTTPLimits: Sendable, Equatable {
    /// The request line (or status line) plus every header field, in bytes. Over it: 431.
    var maxHeaderBytes = 16 * 1024
    /// The number of header fields. Over it: 431.
    var maxHeaderCount = 100
    /// The decoded body, in bytes. Over it: 413, before the body is read when its length is declared.
    package var maxBodyBytes = 1 << 20
    /// Other body limits for some requests, by method and path (`"PUT /sandbox/snapshot"`; the
    /// path is the target before any `?`), such as an upload of saved state.
    package var bodyLimitsByRoute: [String: Int] = [:] { didSet { rulesByPath = Self.rules(bodyLimitsByRoute, spooledBodyRoutes) } }
    /// Requests, by method and path as in `bodyLimitsByRoute`, whose body goes to a temporary file
    /// as it arrives instead of memory (an upload of saved state): the handler finds it in
    /// ``HTTPRequest/spooledBody``, and ``HTTPRequest/body`` is empty.
    package var spooledBodyRoutes: Set<String> = [] { didSet { rulesByPath = Self.rules(bodyLimitsByRoute, spooledBodyRoutes) } }
    /// What the two above say, by path: a request's rule is found by its path and its method
    /// compared, with no `"METHOD /path"` string made for it (a gRPC call's path has a limit).
    private var rulesByPath: [Substring: [BodyRule]] = [:]
    /// Where spooled bodies' files go (each is unlinked as soon as it is made); nil: `$TMPDIR`, or `/tmp`.
    var spoolDirectory: String?
    /// HTTP/2's own settings and bounds (streams, frames, windows, floods).
    var http2 = HTTP2Limits()

    /// The defaults: 16 KiB of headers, 100 fields, 1 MiB of body.
    package init() {}

    /// The body limit of a request, and whether its body is spooled to a file.
    func body(method: String, target: String) -> (limit: Int, spooled: Bool) {
        guard !rulesByPath.isEmpty else { return (maxBodyBytes, false) }
        guard let rule = rulesByPath[HTTPRequest.path(of: target)]?.first(where: { $0.method == method }) else { return (maxBodyBytes, false) }
        return (rule.limit ?? maxBodyBytes, rule.spooled)
    }

    /// A route's own limit and spooling, for its method.
    private struct BodyRule: Sendable, Equatable {
        let method: String
        let limit: Int?
        let spooled: Bool
    }

    /// The rules of `"METHOD /path"` routes, by path.
    private static func rules(_ limits: [String: Int], _ spooled: Set<String>) -> [Substring: [BodyRule]] {
        var rules: [Substring: [BodyRule]] = [:]
        for route in Set(limits.keys).union(spooled) {
            guard let space = route.firstIndex(of: " ") else { continue }  // no request's route
            rules[route[route.index(after: space)...], default: []].append(
                BodyRule(method: String(route[..<space]), limit: limits[route], spooled: spooled.contains(route)))
        }
        return rules
    }
}
