import Dispatch
import Glibc
@testable import SandboxSupport
import Synchronization
import TestHelpers
@testable import SandboxWire

/// A server on a free port with routes that echo what they received, and `/held...` routes that
/// answer when `held` lets them. Its header, body and idle timeouts are an hour unless the test
/// sets one: a connection closed within a test's wait was closed by the timer it sets.
func startTestServer(held: Held? = nil, _ adjust: (inout HTTPServer.Configuration) -> Void = { _ in }) throws -> HTTPServer {
    var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: 2)
    (configuration.headerTimeout, configuration.bodyTimeout, configuration.idleTimeout) = (.seconds(3600), .seconds(3600), .seconds(3600))
    adjust(&configuration)
    var router = Router()
    router.add("GET /hello") { _ in .text("hello") }
    router.add("POST /echo") { request in
        HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream", "X-Method": request.method], body: request.body)
    }
    router.add("GET /query") { request in
        guard let items = request.queryItems else { return Router.error(400, "bad query") }
        return .json(.object(Dictionary(items.map { ($0.name, JSON.string($0.value)) }, uniquingKeysWith: { $1 })))
    }
    router.add("GET /items/{id}") { request in .json(["id": .string(request.parameters["id"] ?? "")]) }
    router.add("POST /form") { request in
        guard let fields = FormURLEncoding.decode(request.body) else { return Router.error(400, "bad form") }
        return .json(.object(Dictionary(fields.map { ($0.name, JSON.string($0.value)) }, uniquingKeysWith: { $1 })))
    }
    router.add("GET /big") { _ in HTTPResponse(body: [UInt8](repeating: UInt8(ascii: "x"), count: 8 << 20)) }
    router.add("GET /slow") { _ in
        usleep(300_000)
        return .text("slow")
    }
    router.add("GET /peer") { request in .text(request.remoteAddress?.host ?? "?") }
    router.add("GET /nothing") { _ in HTTPResponse(status: 204) }
    router.add("GET /dropped") { _ in .closeWithoutAnswer }
    router.add("GET /later") { _ in
        .later(on: laterQueue) {
            usleep(300_000)
            return .text("later")
        }
    }
    router.add("GET /deferred") { _ in
        .deferred { answer in laterQueue.asyncAfter(deadline: .now() + 0.3) { answer(.text("deferred")) } }
    }
    router.add("PUT /upload") { request in  // spooled when the server's limits say so (SpooledBodyTests)
        let spooled = request.spooledBody.map { readAll($0) }
        return HTTPResponse(headers: ["X-Spooled": spooled == nil ? "no" : "yes"], body: spooled ?? request.body)
    }
    router.add("GET /echo-header/{value}") { request in
        HTTPResponse(headers: ["X-Echo": request.parameters["value"] ?? "", "X-Fixed": "yes"])
    }
    if let held {
        router.add("GET /held") { _ in  // produced off the loop, as /later
            .later(on: laterQueue) {
                held.arrive()
                held.release.wait()
                return .text("held")
            }
        }
        router.add("GET /held-deferred") { _ in  // no thread waits, as /deferred
            .deferred { answer in
                held.arrive()
                held.release.notify { answer(.text("held deferred")) }
            }
        }
        router.add("GET /held-on-loop") { _ in  // the loop's own thread waits, as /slow
            held.arrive()
            held.release.wait()
            return .text("held on loop")
        }
    }
    return try HTTPServer.start(configuration: configuration, handler: router.respond)
}

private let laterQueue = DispatchQueue(label: "test.later", attributes: .concurrent)

/// What a test server's `/held...` routes wait for: they answer once `release` opens, so that a
/// test sees what happens while they are in flight for as long as it takes to look.
final class Held: Sendable {
    let release = Latch()
    private let count = Atomic<Int>(0)

    /// How many held requests have reached their handler.
    var arrived: Int { count.load(ordering: .acquiring) }

    fileprivate func arrive() { count.add(1, ordering: .releasing) }
}

/// Every byte of a spooled body, read from its file.
func readAll(_ spooled: SpooledBody) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: spooled.count)
    var done = 0
    spooled.withFileDescriptor { fd in
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(done)) }
            guard n > 0 else { break }
            done += n
        }
    }
    return Array(bytes[..<done])
}

/// A blocking client socket for driving the server byte by byte.
final class RawConnection {
    let fd: Int32
    private var parser = HTTPParser(mode: .response)

    /// `receiveTimeout` bounds each read: by default `Waiting.limit`, as a read waits for what
    /// the server is going to send (`isQuiet(for:)` checks that nothing comes).
    init(host: String = "127.0.0.1", port: Int, receiveTimeout: Double = Double(Waiting.seconds)) throws {
        guard let address = try SocketAddress.resolve(host: host, port: port).first else { throw SocketError("resolve") }
        fd = socket(address.isIPv6 ? AF_INET6 : AF_INET, csockStream, 0)
        var timeout = timeval(tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout - receiveTimeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = address.withSockAddr { connect(fd, $0, $1) }
        // No close here: a class whose init throws after setting every property still runs deinit,
        // and closing twice could close a descriptor another thread has just been given.
        guard result == 0 else { throw SocketError("connect") }
    }

    deinit { Glibc.close(fd) }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Sends all of `bytes` unless the peer stops taking them; returns how many were sent.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { break }
            offset += n
        }
        return offset
    }

    /// Makes a send that cannot progress give up after `seconds`.
    func setSendTimeout(_ seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads the next response; throws on timeout or a close before a whole response.
    func readResponse(method: String = "GET") throws -> HTTPResponse {
        parser.requestMethod = method
        if case .response(let response)? = try parser.next() { return response }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 {
                if case .response(let response)? = try parser.finish() { return response }
                throw SocketError(n == 0 ? "closed" : "recv")
            }
            parser.append(buffer[0 ..< n])
            if case .response(let response)? = try parser.next() { return response }
        }
    }

    /// Reads raw bytes until `count` arrived, the peer closed, or the timeout passed.
    func readRaw(count: Int) -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while out.count < count {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min($0.count, count - out.count), 0) }
            guard n > 0 else { break }
            out += buffer[0 ..< n]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether nothing arrives (no byte, no close) for `seconds`; 0 asks about now.
    func isQuiet(for seconds: Double) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, Int32(seconds * 1000)) == 0
    }

    /// Ends the connection from this side too (a shutdown: the descriptor is closed by `deinit`).
    func hangUp() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Whether the peer closes the connection within the receive timeout (discarding any bytes).
    func closedByPeer() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 || (n < 0 && errno == ECONNRESET) { return true }
            if n < 0 { return false }  // timeout
        }
    }
}

let csockStream = Int32(SOCK_STREAM.rawValue)

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
