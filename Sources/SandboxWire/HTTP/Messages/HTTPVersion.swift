/// The protocol a request arrived over: HTTP/1.0 and HTTP/1.1 (RFC 9112), or HTTP/2 (RFC 9113,
/// cleartext with prior knowledge).
package enum HTTPVersion: Sendable, Equatable {
    case http1_0
    case http1_1
    case http2

    /// The version as it appears on the wire or in a log, e.g. `HTTP/1.1`.
    package var text: String {
        switch self {
        case .http1_0: "HTTP/1.0"
        case .http1_1: "HTTP/1.1"
        case .http2: "HTTP/2"
        }
    }
}
