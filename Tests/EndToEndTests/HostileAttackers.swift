import Foundation
import Glibc
import Synchronization
import TestHelpers

/// `GET /sandbox/health`, the normal client's request.
let healthRequest = Array("GET /sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)

/// The normal client: `requests` sequential `GET /sandbox/health` on one keep-alive connection,
/// each answer waited for up to ``Waiting/limit``; how many got each status ("cut" for a
/// connection that ended without a whole answer, after which it stops).
func normalClient(port: Int, requests: Int, beforeEach: () -> Void = {}) -> [String: Int] {
    guard let connection = KeepAliveConnection(port: port) else { return ["refused": 1] }
    var tally: [String: Int] = [:]
    for _ in 0 ..< requests {
        beforeEach()
        guard case .response(let status, _, _) = connection.exchange(healthRequest) else {
            tally["cut", default: 0] += 1
            break
        }
        tally[String(status), default: 0] += 1
    }
    return tally
}

/// The normal client over HTTP/2: `requests` streams on one connection, tallied by outcome.
func normalH2Client(port: Int, requests: Int, beforeEach: () -> Void = {}) -> [String: Int] {
    guard let client = H2NormalClient(port: port) else { return ["refused": 1] }
    var tally: [String: Int] = [:]
    for _ in 0 ..< requests {
        beforeEach()
        let outcome = client.get()
        tally[outcome, default: 0] += 1
        if outcome != "200" { break }
    }
    return tally
}

/// Slow-header clients: each sends a request head a byte every `interval` (4 KiB of it: it would
/// take minutes), never finishing it, and records what the server answers and when it closes.
final class SlowHeaders: Sendable {
    struct Client {
        let fd: Int32
        var sent = 0
        var next: ContinuousClock.Instant
        var first: ContinuousClock.Instant?
        var data: [UInt8] = []
        var answered: ContinuousClock.Instant?
        var closed = false
    }

    static let head = Array("GET /sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8) + [UInt8](repeating: 97, count: 4000)

    private final class Shared: Sendable {
        let clients: Mutex<[Client]>
        let stopping = Atomic<Bool>(false)
        init(_ clients: [Client]) { self.clients = Mutex(clients) }
    }

    private let shared: Shared
    private let done: DispatchSemaphore

    init(port: Int, count: Int, interval: Duration) {
        let now = ContinuousClock.now
        let shared = Shared((0 ..< count).map { index in
            let fd = RawSocket.connect(port: port)
            RawSocket.setNonBlocking(fd)
            return Client(fd: fd, next: now + interval * (Double(index) / Double(count)))
        })
        self.shared = shared
        done = detached {
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while !shared.stopping.load(ordering: .acquiring) {
                let open = shared.clients.withLock { clients in
                    let now = ContinuousClock.now
                    for index in clients.indices where !clients[index].closed && clients[index].answered == nil
                        && now >= clients[index].next && clients[index].sent < Self.head.count {
                        let n = Self.head.withUnsafeBytes { send(clients[index].fd, $0.baseAddress! + clients[index].sent, 1, Int32(MSG_NOSIGNAL)) }
                        if n == 1 {
                            clients[index].sent += 1
                            clients[index].first = clients[index].first ?? now
                        } else if errno != EAGAIN && errno != EINTR {
                            clients[index].closed = true
                        }
                        clients[index].next = now + interval
                    }
                    return clients.indices.filter { !clients[$0].closed }
                }
                if open.isEmpty { break }
                var fds = shared.clients.withLock { clients in open.map { pollfd(fd: clients[$0].fd, events: Int16(POLLIN), revents: 0) } }
                guard poll(&fds, nfds_t(fds.count), 10) > 0 else { continue }
                for (entry, index) in zip(fds, open) where entry.revents != 0 {
                    let n = chunk.withUnsafeMutableBytes { recv(entry.fd, $0.baseAddress, $0.count, 0) }
                    if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                    shared.clients.withLock { clients in
                        if n > 0 {
                            clients[index].data += chunk[0 ..< n]
                            if clients[index].answered == nil && clients[index].data.count >= 4 {
                                clients[index].answered = ContinuousClock.now
                            }
                        } else {
                            clients[index].closed = true
                        }
                    }
                }
            }
        }
    }

    var clients: [Client] { shared.clients.withLock { $0 } }

    /// Stops the thread and closes every client.
    func finish() {
        shared.stopping.store(true, ordering: .releasing)
        _ = done.wait(timeout: .now() + .seconds(Waiting.seconds))
        for client in clients { close(client.fd) }
    }
}

/// A client that pipelines `pipelined` health requests and reads nothing until ``startReading()``;
/// then reads every answer.
final class NonReader: Sendable {
    private struct State {
        var sent = 0
        var reading = false
        var pause: Latch?
        var answers = ResponseStream()
        var error: String?
        var ended = false
    }

    private final class Shared: Sendable {
        let state = Mutex(State())
        let stopping = Atomic<Bool>(false)
    }

    let pipelined: Int
    /// The client's end of the connection.
    let localPort: Int
    private let fd: Int32
    private let shared: Shared
    private let done: DispatchSemaphore

    init(port: Int, pipelined: Int) {
        self.pipelined = pipelined
        let fd = RawSocket.connect(port: port, receiveBuffer: 64 * 1024)
        RawSocket.setNonBlocking(fd)
        self.fd = fd
        localPort = RawSocket.localPort(fd)
        let shared = Shared()
        self.shared = shared
        let pipeline = [[UInt8]](repeating: healthRequest, count: pipelined).flatMap { $0 }
        done = detached {
            var chunk = [UInt8](repeating: 0, count: 256 * 1024)
            while !shared.stopping.load(ordering: .acquiring) {
                let (sent, reading) = shared.state.withLock { ($0.sent, $0.reading) }
                if reading && shared.state.withLock({ $0.answers.statuses.count >= pipelined || $0.answers.garbage || $0.error != nil }) { break }
                var entry = pollfd(fd: fd, events: Int16((sent < pipeline.count ? POLLOUT : 0) | (reading ? POLLIN : 0)), revents: 0)
                guard poll(&entry, 1, 10) > 0 else { continue }
                if entry.revents & Int16(POLLOUT) != 0 {
                    let n = pipeline.withUnsafeBytes { send(fd, $0.baseAddress! + sent, min(256 * 1024, $0.count - sent), Int32(MSG_NOSIGNAL)) }
                    if n > 0 {
                        shared.state.withLock { $0.sent += n }
                    } else if errno != EAGAIN && errno != EINTR {
                        shared.state.withLock { $0.error = "send: errno \(errno)" }
                        break
                    }
                }
                if reading && entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if n > 0 {
                        let pause = shared.state.withLock { state in
                            state.answers.append(Array(chunk[0 ..< n]))
                            defer { state.pause = nil }
                            return state.pause
                        }
                        pause?.wait()
                    } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                        shared.state.withLock { $0.error = n == 0 ? "closed by the server" : "recv: errno \(errno)" }
                        break
                    }
                }
            }
            shared.state.withLock { $0.ended = true }
        }
    }

    /// Requests sent so far (whole ones).
    var requestsSent: Int { shared.state.withLock { $0.sent } / healthRequest.count }
    var answers: ResponseStream { shared.state.withLock { $0.answers } }
    var error: String? { shared.state.withLock { $0.error } }
    /// Whether the thread has ended: every answer read, or an error.
    var finished: Bool { shared.state.withLock { $0.ended } }

    /// Starts reading; after the first read, waits for `pause` to open (up to ``Waiting/limit``).
    func startReading(pausingAfterTheFirstRead pause: Latch) {
        shared.state.withLock {
            $0.reading = true
            $0.pause = pause
        }
    }

    func finish() {
        shared.stopping.store(true, ordering: .releasing)
        _ = done.wait(timeout: .now() + .seconds(Waiting.seconds))
        close(fd)
    }
}
