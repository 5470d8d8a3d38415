import Glibc
import TestHelpers

/// A client that sees what a started sandbox writes on the socket, byte for byte: for answers a
/// fault cuts off, which no whole-answer client shows. Over HTTP/1.1 it reads to the end of the
/// connection; over HTTP/2 (prior knowledge, RFC 9113 §3.3) it sends a request's frames itself,
/// with header fields as HPACK literals (RFC 7541 §6.2.2, no Huffman), and reads frames back
/// without decoding their header blocks.
final class WireClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// One frame as the server sent it.
    struct Frame {
        let type: UInt8
        let flags: UInt8
        let stream: UInt32
        let payload: [UInt8]

        static let data: UInt8 = 0, headers: UInt8 = 1, rstStream: UInt8 = 3, settings: UInt8 = 4, goaway: UInt8 = 7
        var endStream: Bool { flags & 0x1 != 0 }
        /// RST_STREAM's error code.
        var errorCode: UInt32 { payload.prefix(4).reduce(0) { $0 << 8 | UInt32($1) } }
    }

    private let fd: Int32
    private var input: [UInt8] = []
    private(set) var closed = false

    /// Connects to the sandbox at `port`; each read waits at most `Waiting.seconds` for what the server is going to send.
    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: Waiting.seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect") }
    }

    deinit { Glibc.close(fd) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            offset += n
        }
    }

    /// Reads more bytes; false at the end of the connection (or a reset); throws when nothing came in time.
    private func fill() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 || (n < 0 && errno == ECONNRESET) {
            closed = true
            return false
        }
        guard n > 0 else { throw Failure(description: "nothing arrived within \(Waiting.seconds) s") }
        input += buffer[0 ..< n]
        return true
    }

    /// Everything the server writes until it ends the connection.
    func readToEnd() throws -> [UInt8] {
        while try fill() {}
        defer { input = [] }
        return input
    }

    // MARK: - HTTP/2

    /// The preface and an empty SETTINGS frame, then the server's SETTINGS acknowledged.
    func openHTTP2() {
        send(Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + Self.frame(type: Frame.settings, flags: 0, stream: 0, []))
    }

    /// A POST on `stream`: HEADERS with `fields` after the pseudo-header fields, then DATA with `body`, ending the stream.
    func post(stream: UInt32, path: String, _ fields: [(String, String)], body: [UInt8]) {
        var block: [UInt8] = []
        for (name, value) in [(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "127.0.0.1")] + fields {
            block += [0x00] + Self.string(name) + Self.string(value)  // a literal never added to the table
        }
        send(Self.frame(type: Frame.headers, flags: 0x4, stream: stream, block) + Self.frame(type: Frame.data, flags: 0x1, stream: stream, body))
    }

    /// The next frame; nil at the end of the connection. SETTINGS frames are acknowledged and passed over.
    func nextFrame() throws -> Frame? {
        while true {
            while input.count < 9 || input.count < 9 + Int(input[0]) << 16 + Int(input[1]) << 8 + Int(input[2]) {
                guard try fill() else { return nil }
            }
            let length = Int(input[0]) << 16 + Int(input[1]) << 8 + Int(input[2])
            let frame = Frame(type: input[3], flags: input[4], stream: input[5 ... 8].reduce(0) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF,
                              payload: Array(input[9 ..< 9 + length]))
            input.removeFirst(9 + length)
            if frame.type == Frame.settings {
                if frame.flags & 0x1 == 0 { send(Self.frame(type: Frame.settings, flags: 0x1, stream: 0, [])) }
                continue
            }
            return frame
        }
    }

    /// The frames of `stream` until it ends (END_STREAM or RST_STREAM); frames of other streams are passed over.
    func frames(of stream: UInt32) throws -> [Frame] {
        var frames: [Frame] = []
        while let frame = try nextFrame() {
            guard frame.stream == stream else { continue }
            frames.append(frame)
            if frame.endStream || frame.type == Frame.rstStream { return frames }
        }
        throw Failure(description: "the connection ended before stream \(stream) did: \(frames.map(\.type))")
    }

    private static func frame(type: UInt8, flags: UInt8, stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
        [UInt8(payload.count >> 16 & 0xFF), UInt8(payload.count >> 8 & 0xFF), UInt8(payload.count & 0xFF), type, flags,
         UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF)] + payload
    }

    /// An HPACK string literal without Huffman: its length as a 7-bit prefixed integer (RFC 7541 §5.1), then its bytes.
    private static func string(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var length = bytes.count
        guard length >= 127 else { return [UInt8(length)] + bytes }
        var out: [UInt8] = [127]
        length -= 127
        while length >= 128 {
            out.append(UInt8(length & 0x7F | 0x80))
            length >>= 7
        }
        return out + [UInt8(length)] + bytes
    }
}
