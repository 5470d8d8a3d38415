// Length-Prefixed-Message (PROTOCOL-HTTP2.md): Compressed-Flag (1 byte, 0 or 1), Message-Length
// (4 bytes, big-endian), Message. A request body carries any number of them, split across DATA
// frames wherever the peer likes.

/// Cuts a stream of bytes into gRPC messages as they arrive.
///
/// ```swift
/// var deframer = GRPCDeframer()
/// for message in try deframer.append(chunk) { handle(message) }
/// if deframer.hasPartialMessage { /* the body ended inside a message */ }
/// ```
struct GRPCDeframer: Sendable {
    /// The largest message accepted (RESOURCE_EXHAUSTED beyond, as soon as its prefix arrives).
    let maxMessageSize: Int
    private var buffer: [UInt8] = []
    private var start = 0

    /// gRPC's default limit: 4 MiB.
    static let defaultMaxMessageSize = 4 << 20

    /// A deframer that accepts messages up to `maxMessageSize` bytes.
    init(maxMessageSize: Int = defaultMaxMessageSize) {
        self.maxMessageSize = maxMessageSize
    }

    /// `message` with its 5-byte prefix (not compressed).
    static func frame(_ message: [UInt8]) -> [UInt8] {
        let length = UInt32(truncatingIfNeeded: message.count)
        return [0, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + message
    }

    /// Adds `bytes` and returns the messages they complete. A compressed message is INTERNAL
    /// (the sandbox supports identity encoding only), an oversized one RESOURCE_EXHAUSTED.
    package mutating func append(_ bytes: some Collection<UInt8>) throws(GRPCStatus) -> [[UInt8]] {
        buffer.append(contentsOf: bytes)
        var messages: [[UInt8]] = []
        while buffer.count - start >= 5 {
            let flag = buffer[start]
            guard flag == 0 else {
                throw flag == 1
                    ? GRPCStatus(.internal, "compressed message received without grpc-encoding: the sandbox supports identity encoding only")
                    : GRPCStatus(.internal, "invalid compressed flag \(flag) in a message prefix")
            }
            let length = buffer[start + 1 ..< start + 5].reduce(0) { $0 << 8 | Int($1) }
            guard length <= maxMessageSize else {
                throw GRPCStatus(.resourceExhausted, "received message larger than max (\(length) vs. \(maxMessageSize))")
            }
            guard buffer.count - start - 5 >= length else { break }
            messages.append(Array(buffer[start + 5 ..< start + 5 + length]))
            start += 5 + length
        }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 65536 {
            buffer.removeFirst(start)
            start = 0
        }
        return messages
    }

    /// Whether bytes of an unfinished message are waiting.
    var hasPartialMessage: Bool { start < buffer.count }
}
