import Foundation
import Glibc
import Synchronization
import TestHelpers

/// HTTP/2 by hand (RFC 9113 frames; RFC 7541 HPACK literals from the static table, no Huffman),
/// for clients that break its rules on purpose.
enum H2 {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    static let data: UInt8 = 0x0, headers: UInt8 = 0x1, rstStream: UInt8 = 0x3, settings: UInt8 = 0x4, ping: UInt8 = 0x6
    static let goaway: UInt8 = 0x7, windowUpdate: UInt8 = 0x8, continuation: UInt8 = 0x9
    static let endStream: UInt8 = 0x1, ack: UInt8 = 0x1, endHeaders: UInt8 = 0x4
    static let initialWindowSize: UInt16 = 0x4
    static let maxWindow: UInt32 = 0x7FFF_FFFF
    static let errorNames: [UInt32: String] = [0x0: "NO_ERROR", 0x1: "PROTOCOL_ERROR", 0x3: "FLOW_CONTROL_ERROR", 0x6: "FRAME_SIZE_ERROR",
                                               0x7: "REFUSED_STREAM", 0x9: "COMPRESSION_ERROR", 0xB: "ENHANCE_YOUR_CALM"]

    struct Frame {
        let type: UInt8
        let flags: UInt8
        let stream: UInt32
        let payload: [UInt8]
    }

    static func frame(_ type: UInt8, _ flags: UInt8, _ stream: UInt32, _ payload: [UInt8] = []) -> [UInt8] {
        [UInt8(payload.count >> 16 & 0xFF), UInt8(payload.count >> 8 & 0xFF), UInt8(payload.count & 0xFF), type, flags] + bigEndian(stream) + payload
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func settingsFrame(_ pairs: [(UInt16, UInt32)] = []) -> [UInt8] {
        frame(settings, 0, 0, pairs.flatMap { [UInt8($0.0 >> 8), UInt8($0.0 & 0xFF)] + bigEndian($0.1) })
    }

    /// `GET path`: literal fields without indexing named by static entries 2 :method, 6 :scheme,
    /// 4 :path, 1 :authority (RFC 7541 §6.2.2); every value shorter than 127 bytes.
    static func requestBlock(_ path: String) -> [UInt8] {
        let fields: [(UInt8, String)] = [(2, "GET"), (6, "http"), (4, path), (1, "127.0.0.1")]
        return fields.flatMap { field in [field.0, UInt8(field.1.utf8.count)] + Array(field.1.utf8) }
    }

    static func errorName(_ payload: some Collection<UInt8>) -> String {
        let code = payload.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return errorNames[code] ?? String(code, radix: 16)
    }

    /// The whole frames at the start of `buffer`, removed from it.
    static func frames(_ buffer: inout [UInt8]) -> [Frame] {
        var frames: [Frame] = []
        var offset = 0
        while buffer.count - offset >= 9 {
            let length = Int(buffer[offset]) << 16 | Int(buffer[offset + 1]) << 8 | Int(buffer[offset + 2])
            guard buffer.count - offset >= 9 + length else { break }
            let stream = buffer[offset + 5 ..< offset + 9].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
            frames.append(Frame(type: buffer[offset + 3], flags: buffer[offset + 4], stream: stream,
                                payload: Array(buffer[offset + 9 ..< offset + 9 + length])))
            offset += 9 + length
        }
        buffer.removeFirst(offset)
        return frames
    }

    /// A connection with the preface and `pairs` sent; -1 when refused.
    static func open(port: Int, _ pairs: [(UInt16, UInt32)] = []) -> Int32 {
        let fd = RawSocket.connect(port: port)
        guard fd >= 0 else { return -1 }
        RawSocket.sendAll(fd, preface + settingsFrame(pairs))
        return fd
    }
}

/// The normal client over h2c: one connection, a stream per `GET /sandbox/health`, every window
/// opened once. The status needs no HPACK decoder: the server encodes `:status: 200` as static
/// index 8 (0x88).
final class H2NormalClient {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var stream: UInt32 = 1
    private let block = H2.requestBlock("/sandbox/health")

    init?(port: Int) {
        fd = H2.open(port: port, [(H2.initialWindowSize, H2.maxWindow)])
        guard fd >= 0 else { return nil }
        var timeout = timeval(tv_sec: Waiting.seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        RawSocket.sendAll(fd, H2.frame(H2.windowUpdate, 0, 0, H2.bigEndian(H2.maxWindow - 65535)))
    }

    deinit { close(fd) }

    /// `GET /sandbox/health` on a new stream: "200", or what came instead.
    func get() -> String {
        let mine = stream
        stream += 2
        guard RawSocket.sendAll(fd, H2.frame(H2.headers, H2.endStream | H2.endHeaders, mine, block)) else { return "closed while sending" }
        var status: String?
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            for frame in H2.frames(&buffer) {
                if frame.type == H2.settings && frame.flags & H2.ack == 0 {
                    RawSocket.sendAll(fd, H2.frame(H2.settings, H2.ack, 0))
                } else if frame.type == H2.goaway {
                    return "GOAWAY \(H2.errorName(frame.payload.dropFirst(4)))"
                } else if frame.stream == mine && frame.type == H2.rstStream {
                    return "RST_STREAM \(H2.errorName(frame.payload))"
                } else if frame.stream == mine && (frame.type == H2.headers || frame.type == H2.data) {
                    if frame.type == H2.headers && status == nil {
                        status = frame.payload.first == 0x88 ? "200" : "not 200 (block \(frame.payload.prefix(4)))"
                    }
                    if frame.flags & H2.endStream != 0 { return status ?? "no headers" }
                }
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return n == 0 ? "closed by the server" : "no answer (errno \(errno))" }
            buffer += chunk[0 ..< n]
        }
    }
}

/// An attacker thread: opens a connection (`pairs` settings, then `opening`), writes
/// `batch(connection, index)` again and again, reading (and dropping) what comes unless `reads`
/// is off, until the server closes it; then again, until ``finish()``. Counts how connections
/// ended: the GOAWAY's code (if read before the close), closed, reset, or held (open when stopped).
final class H2Flood: Sendable {
    typealias Batch = @Sendable (_ connection: Int, _ index: Int) -> [UInt8]
    private struct State {
        var endings: [String: Int] = [:]
        var connections = 0
        var sent = 0
    }

    private final class Shared: Sendable {
        let state = Mutex(State())
        let stopping = Atomic<Bool>(false)
    }

    private let shared: Shared
    private let done: DispatchSemaphore

    init(port: Int, pairs: [(UInt16, UInt32)] = [], reads: Bool = true, opening: [UInt8] = [], batch: @escaping Batch) {
        let shared = Shared()
        self.shared = shared
        done = detached {
            while !shared.stopping.load(ordering: .acquiring) {
                let fd = H2.open(port: port, pairs)
                guard fd >= 0 else {
                    shared.state.withLock { $0.endings["connect error", default: 0] += 1 }
                    usleep(50_000)
                    continue
                }
                let number = shared.state.withLock { $0.connections += 1; return $0.connections }
                RawSocket.setNonBlocking(fd)
                var pending = opening
                var index = 0
                var buffer: [UInt8] = []
                var goaway: String?
                var how: String?
                var chunk = [UInt8](repeating: 0, count: 64 * 1024)
                while !shared.stopping.load(ordering: .acquiring) && how == nil {
                    if pending.isEmpty {
                        pending = batch(number, index)
                        index += 1
                    }
                    let n = pending.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if n > 0 {
                        pending.removeFirst(n)
                        shared.state.withLock { $0.sent += n }
                    } else if errno == EAGAIN {
                        usleep(1000)
                    } else if errno != EINTR {
                        how = "reset"
                    }
                    guard reads || how != nil else { continue }
                    while true {
                        let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                        if got > 0 {
                            buffer += chunk[0 ..< got]
                            for frame in H2.frames(&buffer) where frame.type == H2.goaway { goaway = H2.errorName(frame.payload.dropFirst(4)) }
                            continue
                        }
                        if got == 0 { how = how ?? "closed" } else if errno != EAGAIN && errno != EINTR { how = how ?? "reset" }
                        break
                    }
                }
                close(fd)
                let ending = goaway.map { "GOAWAY \($0)" } ?? how ?? "held"
                shared.state.withLock { $0.endings[ending, default: 0] += 1 }
            }
        }
    }

    var endings: [String: Int] { shared.state.withLock { $0.endings } }
    var connections: Int { shared.state.withLock { $0.connections } }
    var sent: Int { shared.state.withLock { $0.sent } }

    /// Stops the attacker and waits for its thread.
    func finish() {
        shared.stopping.store(true, ordering: .releasing)
        _ = done.wait(timeout: .now() + .seconds(Waiting.seconds))
    }
}
