import CSystem
import Glibc
import Synchronization

// One epoll loop on its own thread. Every loop watches the server's listening sockets
// (EPOLLEXCLUSIVE: one loop wakes per connection); the loop that accepts hands the connection to
// the next loop in turn (`ConnectionBalancer`), which then reads, parses, calls the handler and
// writes for it. One listening socket per address, not SO_REUSEPORT: with that, a second process
// started on the same port by mistake would silently take half of the connections.
//
// Pipelining (RFC 9112 §9.3.2): the requests of a connection are answered strictly in order; their
// responses go into one output buffer and leave together. While output is blocked the loop stops
// reading that connection (backpressure), so a client that never reads its responses holds at
// most `maxBufferedOutput` bytes. Level-triggered epoll: one read per readiness event.
//
// Fairness: one turn of the loop answers at most `requestsPerTurn` requests of a connection. A
// client that pipelines thousands waits in `backlogged` for the next turn, and reads nothing more
// until its backlog is answered, so the loop's other connections are served in between.
//
// Closing (RFC 9112 §9.6): when the server closes after a response, it shuts its sending side and
// discards what the peer still sends for a moment ("lingering"), so the peer reads the response
// instead of a reset. Deadlines are checked by a sweep a few times per timeout period.

/// An epoll event loop serving HTTP/1.1 connections.
final class EventLoop: @unchecked Sendable {
    struct Settings {
        var limits: HTTPLimits
        var headerTimeout: Int64
        var bodyTimeout: Int64
        var idleTimeout: Int64
        var gracePeriod: Int64
        var accessLog: AccessLog?
        var metrics: HTTPMetrics?
        var streamOpener: HTTPStreamOpener?
    }

    private static let maxEvents: Int32 = 256
    static let maxBufferedOutput = 1 << 20
    static let requestsPerTurn = 32
    static let http2ReadSize = 16 * 1024
    static let lingerTime: Int64 = 2000

    private let epoll: Int32
    private let index: Int
    private let balancer: ConnectionBalancer
    var inbox: ConnectionInbox { balancer.inboxes[index] }
    var listeners: [Int32]
    var pausedListeners: [Int32] = []
    let handler: HTTPHandler
    let settings: Settings
    private let sweepInterval: Int64
    private let stopRequested = Atomic<Bool>(false)
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    // Loop-thread state. What is changed in place on every request is not checked for exclusive
    // access at run time (each check cost about 100 instructions; only this thread touches them).
    var connections: [Connection?] = []
    private var openCount = 0
    private var connectionSerial = 0
    var date = DateCache()
    @exclusivity(unchecked) var logBuffer: [UInt8] = []
    /// The head of the last HTTP/1 response written after its `Date` line, for the next one alike.
    @exclusivity(unchecked) var lastHead = ResponseEncoder.Head()
    /// Connections with requests left over after their turn, served again after the next wait.
    var backlogged: [Connection] = []
    /// What the inbox held when last taken, kept to take the next into (see `ConnectionInbox.Queued`).
    private var taken = ConnectionInbox.Queued()
    /// Responses a gate holds, and the array they are swapped into to be looked at (see EventLoop+Held).
    var held: [ConnectionInbox.Completion] = []
    var heldLookedAt: [ConnectionInbox.Completion] = []
    /// Whether a gate was asked to wake this loop, and has not yet; how many it let go the last time.
    var gateAsked = false
    var lastLetGo = 0
    var now: Int64 = 0
    private var nextSweep: Int64 = 0
    var stopping = false
    var stopDeadline = Int64.max

    init(index: Int, balancer: ConnectionBalancer, listeners: [Int32], settings: Settings,
         handler: @escaping HTTPHandler) throws(SocketError) {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw SocketError("epoll_create1") }
        self.index = index
        self.balancer = balancer
        self.listeners = listeners
        self.settings = settings
        self.handler = handler
        let shortest = min(settings.headerTimeout, settings.bodyTimeout, settings.idleTimeout)
        sweepInterval = max(5, min(250, shortest / 4))
        control(EPOLL_CTL_ADD, inbox.wakeFD, cepoll_in)
        for listener in listeners { control(EPOLL_CTL_ADD, listener, cepoll_in | cepoll_exclusive) }
    }

    deinit {
        readBuffer.deallocate()
        Glibc.close(epoll)
    }

    /// Asks the loop to stop: it stops accepting, finishes the requests in flight, closes idle
    /// connections, and returns from `run()` once none are left or the grace period is over.
    /// Callable from any thread.
    func requestStop() {
        stopRequested.store(true, ordering: .releasing)
        inbox.wake()
    }

    /// Runs until stopped; call on the loop's own thread.
    func run() {
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Int(Self.maxEvents))
        defer {
            events.deallocate()
            for case let connection? in connections { close(connection) }
            inbox.close()
        }
        now = Socket.monotonicMilliseconds()
        nextSweep = now + sweepInterval
        date.update()
        while true {
            let timeout = backlogged.isEmpty ? Int32(clamping: max(0, min(nextSweep, stopDeadline) - now)) : 0
            let count = epoll_wait(epoll, events, Self.maxEvents, timeout)
            now = Socket.monotonicMilliseconds()
            date.update()
            for i in 0 ..< Int(max(count, 0)) { dispatch(events[i]) }
            serveBacklog()
            releaseHeld()
            if logBuffer.count >= 16 * 1024 { flushLog() }
            if !stopping, stopRequested.load(ordering: .acquiring) { beginStop() }
            if now >= nextSweep {
                sweep()
                flushLog()
                nextSweep = now + sweepInterval
            }
            if stopping, openCount == 0 || now >= stopDeadline {
                flushLog()
                return
            }
        }
    }

    // MARK: - Events

    private func dispatch(_ event: epoll_event) {
        let fd = event.data.fd
        if fd == inbox.wakeFD {
            inbox.take(into: &taken)
            for connection in taken.connections { adopt(connection.fd, peer: connection.peer) }
            if taken.gateOpened { gateAsked = false }  // the held responses go at the turn's end
            for completion in taken.completions { finish(completion) }
            taken.removeAll()  // not kept alive until the next wake-up: bodies, requests
        } else if listeners.contains(fd) {
            accept(on: fd)
        } else if Int(fd) < connections.count, let connection = connections[Int(fd)] {
            if event.events & cepoll_out != 0 {
                writable(connection)
            } else {
                readable(connection)
            }
        }
    }

    private func accept(on listener: Int32) {
        for _ in 0 ..< 64 {
            var peer = sockaddr_storage()
            let fd = cepoll_accept(listener, &peer)
            guard fd >= 0 else {
                if errno == EMFILE || errno == ENFILE {
                    // Out of descriptors: stop listening until the next sweep instead of spinning.
                    control(EPOLL_CTL_DEL, listener, 0)
                    listeners.removeAll { $0 == listener }
                    pausedListeners.append(listener)
                }
                return
            }
            let address = withUnsafePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0) }
            }
            let target = balancer.nextLoop()
            if target == index {
                adopt(fd, peer: address)
            } else {
                balancer.inboxes[target].deliver(fd: fd, peer: address)
            }
        }
    }

    private func adopt(_ fd: Int32, peer: SocketAddress?) {
        guard !stopping else {
            Glibc.close(fd)
            return
        }
        Socket.setNoDelay(fd)
        connectionSerial += 1
        let connection = Connection(fd: fd, serial: connectionSerial, limits: settings.limits, now: now)
        connection.remoteAddress = peer
        connection.deadline = now + settings.idleTimeout
        if connections.count <= Int(fd) { connections += Array(repeating: nil, count: Int(fd) + 64 - connections.count) }
        connections[Int(fd)] = connection
        openCount += 1
        control(EPOLL_CTL_ADD, fd, cepoll_in)
    }

    private func readable(_ connection: Connection) {
        guard !connection.isBacklogged else { return }  // read again once its backlog is answered
        // HTTP/2 reads a quarter of the buffer per turn: a connection's flood of small frames
        // (rapid reset) is handled a piece at a time, between the other connections' turns.
        let n = recv(connection.fd, readBuffer.baseAddress, connection.session == nil ? readBuffer.count : Self.http2ReadSize, 0)
        if n < 0 {
            if errno != EAGAIN && errno != EINTR { close(connection) }
            return
        }
        if connection.phase == .lingering {
            connection.lingerBudget -= n
            if n == 0 || connection.lingerBudget <= 0 { close(connection) }
            return
        }
        if n == 0 {
            connection.peerClosed = true
        } else {
            let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[0 ..< n])
            // Reading alone is not activity: a peer trickling bytes (even empty lines, which the
            // parser skips) must not keep an idle connection open. Answers and sends are.
            let idleBefore = connection.parser.isIdle
            switch detectProtocol(connection, bytes) {
            case .undecided: return
            case .http2: connection.session!.receive(bytes, now: now)
            case .http1:
                if idleBefore { connection.requestStartedAt = now }
                connection.parser.append(bytes)
            }
        }
        if let session = connection.session { return serve(connection, session) }
        serve(connection)
    }

    private func writable(_ connection: Connection) {
        flush(connection)
        if let session = connection.session {
            if !connection.isClosed, !connection.isBacklogged, !connection.hasPendingOutput, !session.ready.isEmpty { serve(connection, session) }
            return
        }
        if !connection.isClosed, !connection.isBacklogged, !connection.hasPendingOutput, !connection.parser.isIdle { serve(connection) }
    }

    func close(_ connection: Connection) {
        guard !connection.isClosed else { return }
        connection.isClosed = true
        connection.session?.connectionClosed()
        connections[Int(connection.fd)] = nil
        openCount -= 1
        Glibc.close(connection.fd)
    }

    func flushLog() {
        guard !logBuffer.isEmpty, let log = settings.accessLog else { return }
        log.write(logBuffer)
        logBuffer.removeAll(keepingCapacity: true)
    }

    func control(_ operation: Int32, _ fd: Int32, _ events: UInt32) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        _ = epoll_ctl(epoll, operation, fd, &event)
    }
}
