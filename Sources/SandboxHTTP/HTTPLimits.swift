/// Size limits checked while bytes arrive, so a hostile peer cannot make the parser buffer more.
public struct HTTPLimits: Sendable, Equatable {
    /// The request line (or status line) plus every header field, in bytes. Over it: 431.
    public var maxHeaderBytes = 16 * 1024
    /// The number of header fields. Over it: 431.
    public var maxHeaderCount = 100
    /// The decoded body, in bytes. Over it: 413, before the body is read when its length is declared.
    public var maxBodyBytes = 1 << 20
    /// Other body limits for some paths (the target before any `?`), such as a state upload.
    public var bodyLimitsByPath: [String: Int] = [:]

    /// The defaults: 16 KiB of headers, 100 fields, 1 MiB of body.
    public init() {}

    /// The body limit for a request to `target`.
    @inline(__always)
    func maxBodyBytes(target: String) -> Int {
        guard !bodyLimitsByPath.isEmpty else { return maxBodyBytes }
        return bodyLimitsByPath[String(target.prefix { $0 != "?" })] ?? maxBodyBytes
    }
}
