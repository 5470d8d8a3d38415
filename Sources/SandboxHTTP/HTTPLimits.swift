/// Size limits checked while bytes arrive, so a hostile peer cannot make the parser buffer more.
public struct HTTPLimits: Sendable, Equatable {
    /// The request line (or status line) plus every header field, in bytes. Over it: 431.
    public var maxHeaderBytes = 16 * 1024
    /// The number of header fields. Over it: 431.
    public var maxHeaderCount = 100
    /// The decoded body, in bytes. Over it: 413, before the body is read when its length is declared.
    public var maxBodyBytes = 1 << 20
    /// Other body limits for some requests, by method and path (`"PUT /sandbox/snapshot"`; the
    /// path is the target before any `?`), such as an upload of saved state.
    public var bodyLimitsByRoute: [String: Int] = [:] { didSet { routedPaths = Self.paths(bodyLimitsByRoute.keys, spooledBodyRoutes) } }
    /// Requests, by method and path as in `bodyLimitsByRoute`, whose body goes to a temporary file
    /// as it arrives instead of memory (an upload of saved state): the handler finds it in
    /// ``HTTPRequest/spooledBody``, and ``HTTPRequest/body`` is empty.
    public var spooledBodyRoutes: Set<String> = [] { didSet { routedPaths = Self.paths(bodyLimitsByRoute.keys, spooledBodyRoutes) } }
    /// The paths the two above name: a request to any other path (nearly all) is told apart by its
    /// path alone, with no `"METHOD /path"` string made for it.
    private var routedPaths: Set<Substring> = []
    /// Where spooled bodies' files go (each is unlinked as soon as it is made); nil: `$TMPDIR`, or `/tmp`.
    public var spoolDirectory: String?
    /// HTTP/2's own settings and bounds (streams, frames, windows, floods).
    public var http2 = HTTP2Limits()

    /// The defaults: 16 KiB of headers, 100 fields, 1 MiB of body.
    public init() {}

    /// The body limit for a request.
    @inline(__always)
    func maxBodyBytes(method: String, target: String) -> Int {
        guard let route = route(method, target) else { return maxBodyBytes }
        return bodyLimitsByRoute[route] ?? maxBodyBytes
    }

    /// Whether a request's body is spooled to a file.
    @inline(__always)
    func spoolsBody(method: String, target: String) -> Bool {
        guard let route = route(method, target) else { return false }
        return spooledBodyRoutes.contains(route)
    }

    /// `"METHOD /path"` of a request to a path named by some route; nil for any other.
    private func route(_ method: String, _ target: String) -> String? {
        guard !routedPaths.isEmpty else { return nil }
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
        guard routedPaths.contains(path) else { return nil }
        return "\(method) \(path)"
    }

    /// The paths of `"METHOD /path"` routes.
    private static func paths(_ limited: some Sequence<String>, _ spooled: Set<String>) -> Set<Substring> {
        Set((Array(limited) + spooled).map { $0.drop { $0 != " " }.dropFirst() })
    }
}
