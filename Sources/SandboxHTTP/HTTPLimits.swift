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
    public var bodyLimitsByRoute: [String: Int] = [:]
    /// Requests, by method and path as in `bodyLimitsByRoute`, whose body goes to a temporary file
    /// as it arrives instead of memory (an upload of saved state): the handler finds it in
    /// ``HTTPRequest/spooledBody``, and ``HTTPRequest/body`` is empty.
    public var spooledBodyRoutes: Set<String> = []
    /// Where spooled bodies' files go (each is unlinked as soon as it is made); nil: `$TMPDIR`, or `/tmp`.
    public var spoolDirectory: String?
    /// HTTP/2's own settings and bounds (streams, frames, windows, floods).
    public var http2 = HTTP2Limits()

    /// The defaults: 16 KiB of headers, 100 fields, 1 MiB of body.
    public init() {}

    /// The body limit for a request.
    @inline(__always)
    func maxBodyBytes(method: String, target: String) -> Int {
        guard !bodyLimitsByRoute.isEmpty else { return maxBodyBytes }
        return bodyLimitsByRoute[Self.route(method, target)] ?? maxBodyBytes
    }

    /// Whether a request's body is spooled to a file.
    @inline(__always)
    func spoolsBody(method: String, target: String) -> Bool {
        !spooledBodyRoutes.isEmpty && spooledBodyRoutes.contains(Self.route(method, target))
    }

    private static func route(_ method: String, _ target: String) -> String {
        "\(method) \(target.prefix { $0 != "?" })"
    }
}
