/// A complete HTTP request, body included, as the parser hands it to a handler.
package struct HTTPRequest: Sendable {
    /// The method token as sent, e.g. `POST` (methods are case-sensitive, RFC 9110 §9.1).
    package var method: String
    /// The request-target exactly as sent, e.g. `/v3/banks?country=BR`.
    package var target: String
    /// The protocol version of the request line.
    package var version: HTTPVersion
    /// Header fields in the order received.
    package var headers: HTTPHeaders
    /// The body bytes (after chunked decoding); empty when the body is spooled.
    package var body: [UInt8]
    /// The body, in a temporary file, when its route spools bodies (``HTTPLimits/spooledBodyRoutes``).
    package var spooledBody: SpooledBody?
    /// Path parameters filled in by the ``Router``, already percent-decoded.
    package var parameters: [String: String] = [:]
    /// The client's address, set by the server (for IP allow-lists).
    package var remoteAddress: SocketAddress?
    /// Its body as read once and shared by every reader (every copy of the request shares it); nil
    /// once the request log cut the body (it keeps neither the whole body nor what it read as).
    package var decoded: DecodedBody? = DecodedBody()

    /// Creates a request; the server's parser and tests use this.
    package init(method: String, target: String, version: HTTPVersion = .http1_1,
                headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The target's path, still percent-encoded: everything before `?`.
    package var path: Substring { Self.path(of: target) }

    /// The raw query string after `?`, if any.
    package var queryString: Substring? {
        Self.queryMark(of: target).map { target[target.index(after: $0)...] }
    }

    /// A target's path: everything before `?`.
    static func path(of target: String) -> Substring {
        queryMark(of: target).map { target[..<$0] } ?? target[...]
    }

    /// Where a target's `?` is, found in its bytes where they lie (asked several times a request).
    private static func queryMark(of target: String) -> String.Index? {
        let utf8 = target.utf8
        return utf8.inPlace { $0.firstIndex(of: UInt8(ascii: "?")) }.map { utf8.index(utf8.startIndex, offsetBy: $0) }
    }

    /// The decoded query parameters in order (`+` is a space, as in form encoding); `nil` when the
    /// query has malformed percent-escapes or invalid UTF-8.
    var queryItems: [(name: String, value: String)]? {
        guard let queryString else { return [] }
        return FormURLEncoding.decode(queryString.utf8)
    }

    /// The first decoded value of the query parameter `name`.
    package func query(_ name: String) -> String? {
        queryItems?.first { $0.name == name }?.value
    }

    /// Whether the connection stays open after this request (RFC 9112 §9.3).
    var keepAlive: Bool {
        switch version {
        case .http1_1: !headers.contains("Connection", token: "close")
        case .http1_0: headers.contains("Connection", token: "keep-alive")
        case .http2: true  // streams end, the connection stays
        }
    }
}
