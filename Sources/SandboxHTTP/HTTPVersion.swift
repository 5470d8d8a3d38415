/// The protocol version of a message; only HTTP/1.0 and HTTP/1.1 are spoken.
public enum HTTPVersion: Sendable, Equatable {
    case http1_0
    case http1_1

    /// The version as it appears on the wire, e.g. `HTTP/1.1`.
    public var text: String { self == .http1_0 ? "HTTP/1.0" : "HTTP/1.1" }
}
