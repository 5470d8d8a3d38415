/// Size limits checked while bytes arrive, so a hostile peer cannot make the parser buffer more.
public struct HTTPLimits: Sendable, Equatable {
    /// The request line (or status line) plus every header field, in bytes. Over it: 431.
    public var maxHeaderBytes = 16 * 1024
    /// The number of header fields. Over it: 431.
    public var maxHeaderCount = 100
    /// The decoded body, in bytes. Over it: 413, before the body is read when its length is declared.
    public var maxBodyBytes = 1 << 20

    /// The defaults: 16 KiB of headers, 100 fields, 1 MiB of body.
    public init() {}
}
