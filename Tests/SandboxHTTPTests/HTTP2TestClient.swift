import Glibc
@testable import SandboxWire
import TestHelpers

// The test side of HTTP/2: a frame builder for what a client sends, a reader for what the server
// writes, and a tiny blocking client over a real socket. HPACK comes from SandboxWire.

/// One frame as it travels.
struct H2Frame: Equatable, CustomStringConvertible {
    var type: UInt8
    var flags: UInt8
    var stream: UInt32
    var payload: [UInt8]

    init(_ type: HTTP2FrameType, flags: UInt8 = 0, stream: UInt32 = 0, payload: [UInt8] = []) {
        self.init(rawType: type.rawValue, flags: flags, stream: stream, payload: payload)
    }

    init(rawType: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) {
        self.type = rawType
        self.flags = flags
        self.stream = stream
        self.payload = payload
    }

    var kind: HTTP2FrameType? { HTTP2FrameType(rawValue: type) }
    func has(_ flag: UInt8) -> Bool { flags & flag != 0 }

    /// The error code of RST_STREAM or GOAWAY.
    var errorCode: HTTP2ErrorCode? {
        switch kind {
        case .rstStream? where payload.count == 4: HTTP2ErrorCode(rawValue: Self.uint32(payload, 0))
        case .goaway? where payload.count >= 8: HTTP2ErrorCode(rawValue: Self.uint32(payload, 4))
        default: nil
        }
    }

    /// GOAWAY's last stream id.
    var lastStream: UInt32? { kind == .goaway && payload.count >= 8 ? Self.uint32(payload, 0) & 0x7FFF_FFFF : nil }

    /// WINDOW_UPDATE's increment.
    var increment: Int? { kind == .windowUpdate && payload.count == 4 ? Int(Self.uint32(payload, 0) & 0x7FFF_FFFF) : nil }

    /// SETTINGS' pairs.
    var settings: [(UInt16, UInt32)] {
        stride(from: 0, to: payload.count - payload.count % 6,
               by: 6).map { (UInt16(payload[$0]) << 8 | UInt16(payload[$0 + 1]), Self.uint32(payload, $0 + 2)) }
    }

    var bytes: [UInt8] {
        var out: [UInt8] = []
        out.append(UInt8(truncatingIfNeeded: payload.count >> 16))
        out.append(UInt8(truncatingIfNeeded: payload.count >> 8))
        out.append(UInt8(truncatingIfNeeded: payload.count))
        out.append(type)
        out.append(flags)
        out.appendUInt32(stream)
        return out + payload
    }

    var description: String {
        let name = kind.map { "\($0)" } ?? "type\(type)"
        var text = "\(name)(stream \(stream), flags \(flags), \(payload.count) bytes"
        if let errorCode { text += ", \(errorCode)" }
        return text + ")"
    }

    static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    /// Splits `bytes` into frames; nil if they are not a whole sequence of frames.
    static func parse(_ bytes: [UInt8]) -> [H2Frame]? {
        var frames: [H2Frame] = []
        var offset = 0
        while offset < bytes.count {
            guard bytes.count - offset >= 9 else { return nil }
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            guard bytes.count - offset - 9 >= length else { return nil }
            frames.append(H2Frame(rawType: bytes[offset + 3], flags: bytes[offset + 4], stream: uint32(bytes, offset + 5) & 0x7FFF_FFFF,
                                  payload: Array(bytes[offset + 9 ..< offset + 9 + length])))
            offset += 9 + length
        }
        return frames
    }
}

/// What a client sends, built up frame by frame.
struct H2Writer {
    var bytes: [UInt8] = []
    var encoder = HPACKEncoder()

    /// The preface and a SETTINGS frame with `settings`.
    static func opening(_ settings: [(HTTP2SettingID, UInt32)] = []) -> H2Writer {
        var writer = H2Writer()
        writer.bytes = HTTP2Preface.bytes
        writer.settings(settings)
        return writer
    }

    mutating func frame(_ type: HTTP2FrameType, flags: UInt8 = 0, stream: UInt32 = 0, _ payload: [UInt8] = []) {
        bytes += H2Frame(type, flags: flags, stream: stream, payload: payload).bytes
    }

    mutating func rawFrame(type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, _ payload: [UInt8] = []) {
        bytes += H2Frame(rawType: type, flags: flags, stream: stream, payload: payload).bytes
    }

    mutating func settings(_ settings: [(HTTP2SettingID, UInt32)]) {
        rawSettings(settings.map { ($0.0.rawValue, $0.1) })
    }

    mutating func rawSettings(_ settings: [(UInt16, UInt32)]) {
        var payload: [UInt8] = []
        for (id, value) in settings {
            payload += [UInt8(id >> 8), UInt8(truncatingIfNeeded: id)]
            payload.appendUInt32(value)
        }
        frame(.settings, payload)
    }

    mutating func settingsAck() { frame(.settings, flags: HTTP2Flags.ack) }

    mutating func ping(_ payload: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]) { frame(.ping, payload) }

    mutating func windowUpdate(_ stream: UInt32, _ increment: UInt32) {
        var payload: [UInt8] = []
        payload.appendUInt32(increment)
        frame(.windowUpdate, stream: stream, payload)
    }

    mutating func rst(_ stream: UInt32, _ code: HTTP2ErrorCode = .cancel) {
        var payload: [UInt8] = []
        payload.appendUInt32(code.rawValue)
        frame(.rstStream, stream: stream, payload)
    }

    /// A header block for `fields`, indexed incrementally.
    mutating func block(_ fields: [(String, String)], indexing: HPACKEncoder.Indexing = .incremental) -> [UInt8] {
        var block: [UInt8] = []
        encoder.beginBlock(into: &block)
        for (name, value) in fields { encoder.encode(name, value, indexing: indexing, into: &block) }
        return block
    }

    /// A request's fields: the pseudo-header fields, then `headers`.
    static func fields(_ method: String = "GET", _ path: String = "/", authority: String? = "example.test",
                       _ headers: [(String, String)] = []) -> [(String, String)] {
        var fields = [(":method", method), (":scheme", "http"), (":path", path)]
        if let authority { fields.append((":authority", authority)) }
        return fields + headers
    }

    /// HEADERS (with END_HEADERS) for `fields`.
    mutating func headers(_ stream: UInt32, _ fields: [(String, String)], endStream: Bool = true) {
        let block = block(fields)
        frame(.headers, flags: HTTP2Flags.endHeaders | (endStream ? HTTP2Flags.endStream : 0), stream: stream, block)
    }

    /// A whole request: HEADERS, then DATA with `body` if any.
    mutating func request(_ stream: UInt32, _ method: String = "GET", _ path: String = "/", _ headers: [(String, String)] = [],
                          body: [UInt8]? = nil) {
        self.headers(stream, Self.fields(method, path, headers), endStream: body == nil)
        if let body { data(stream, body, endStream: true) }
    }

    mutating func data(_ stream: UInt32, _ body: [UInt8], endStream: Bool = false) {
        frame(.data, flags: endStream ? HTTP2Flags.endStream : 0, stream: stream, body)
    }
}

/// What the server said on one stream.
struct H2Answer {
    var headers: [HPACKHeader] = []
    var body: [UInt8] = []
    var trailers: [HPACKHeader]?
    var ended = false
    var reset: HTTP2ErrorCode?

    var status: Int? { headers.first { $0.name == ":status" }.flatMap { Int($0.value) } }
    func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Reads what the server writes: frames, with header blocks decoded in order.
struct H2Reader {
    var decoder = HPACKDecoder(maxTableSize: 4096, maxHeaderListSize: 1 << 24)
    var frames: [H2Frame] = []
    var answers: [UInt32: H2Answer] = [:]
    var goaway: H2Frame?
    private var pending: [UInt8] = []
    private var block: (stream: UInt32, bytes: [UInt8], endStream: Bool)?

    /// Takes output bytes; returns the whole frames they completed.
    @discardableResult
    mutating func read(_ bytes: [UInt8]) -> [H2Frame] {
        pending += bytes
        var whole: [H2Frame] = []
        var offset = 0
        while pending.count - offset >= 9 {
            let length = Int(pending[offset]) << 16 | Int(pending[offset + 1]) << 8 | Int(pending[offset + 2])
            guard pending.count - offset - 9 >= length else { break }
            whole += H2Frame.parse(Array(pending[offset ..< offset + 9 + length]))!
            offset += 9 + length
        }
        pending.removeFirst(offset)
        for frame in whole { apply(frame) }
        frames += whole
        return whole
    }

    private mutating func apply(_ frame: H2Frame) {
        switch frame.kind {
        case .headers?:
            block = (frame.stream, frame.payload, frame.has(HTTP2Flags.endStream))
            if frame.has(HTTP2Flags.endHeaders) { endBlock() }
        case .continuation?:
            block!.bytes += frame.payload
            if frame.has(HTTP2Flags.endHeaders) { endBlock() }
        case .data?:
            answers[frame.stream, default: H2Answer()].body += frame.payload
            if frame.has(HTTP2Flags.endStream) { answers[frame.stream, default: H2Answer()].ended = true }
        case .rstStream?:
            answers[frame.stream, default: H2Answer()].reset = frame.errorCode
        case .goaway?:
            goaway = frame
        default:
            break
        }
    }

    private mutating func endBlock() {
        let (stream, bytes, endStream) = block!
        block = nil
        let fields = try! decoder.decode(bytes)
        var answer = answers[stream, default: H2Answer()]
        if answer.headers.isEmpty { answer.headers = fields } else { answer.trailers = fields }
        if endStream { answer.ended = true }
        answers[stream] = answer
    }
}

/// A blocking HTTP/2 client over a real socket.
final class H2Connection {
    let raw: RawConnection
    var writer: H2Writer
    var reader = H2Reader()

    init(port: Int, settings: [(HTTP2SettingID, UInt32)] = [], receiveTimeout: Double = Double(Waiting.seconds)) throws {
        raw = try RawConnection(port: port, receiveTimeout: receiveTimeout)
        writer = H2Writer.opening(settings)
        flush()
    }

    /// A client on a connection whose preface and SETTINGS were already sent.
    init(raw: RawConnection) {
        self.raw = raw
        writer = H2Writer()
    }

    /// Sends what the writer holds.
    func flush() {
        raw.send(writer.bytes)
        writer.bytes = []
    }

    /// Reads until `done` holds; false on timeout or close.
    @discardableResult
    func read(until done: (H2Reader) -> Bool) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !done(reader) {
            let n = buffer.withUnsafeMutableBytes { recv(raw.fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return false }
            reader.read(Array(buffer[0 ..< n]))
        }
        return true
    }

    /// Reads what has arrived, without waiting: whether the connection is still open (not closed
    /// by the server, no GOAWAY).
    func isOpen() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(raw.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && reader.goaway == nil }
            reader.read(Array(buffer[0 ..< n]))
        }
    }

    /// Reads until stream `id` is answered (ended or reset).
    func answer(_ id: UInt32) -> H2Answer? {
        guard read(until: { $0.answers[id]?.ended == true || $0.answers[id]?.reset != nil }) else { return nil }
        return reader.answers[id]
    }
}
