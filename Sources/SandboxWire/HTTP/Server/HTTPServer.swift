import Glibc
import SandboxSupport
import Synchronization

/// An HTTP/1.1 server on epoll event loops, one thread per loop.
///
/// Handlers run on the loop threads and return their response directly; there is no task hop
/// per request. `start` returns once every address is bound and listening; `stop` returns once
/// every loop thread has ended.
///
/// ```swift
/// var router = Router()
/// router.add("GET /hello") { _ in .text("hi") }
/// let server = try HTTPServer.start(configuration: .init(port: 0), handler: router.respond)
/// print(server.addresses)  // [127.0.0.1:41234]
/// server.stop()
/// ```
public final class HTTPServer: Sendable {
    /// Where to listen and how to treat clients.
    public struct Configuration: Sendable {
        /// A numeric address, a host name, or `localhost` for both `127.0.0.1` and `::1`.
        public var host: String
        /// The port; 0 picks a free one (the same for every address).
        public var port: Int
        /// Event-loop threads; defaults to the number of cores.
        public var threads: Int
        /// Header and body size limits.
        package var limits = HTTPLimits()
        /// How long a client may take to send a request head, from its first byte.
        public var headerTimeout: Duration = .seconds(10)
        /// How long a client may take to send a whole request, head and body.
        public var bodyTimeout: Duration = .seconds(30)
        /// How long a keep-alive connection may sit idle, or a response wait for the client to read.
        public var idleTimeout: Duration = .seconds(60)
        /// How long `stop()` waits for requests in flight.
        public var gracePeriod: Duration = .seconds(5)
        /// The access log; nil for none.
        package var accessLog: AccessLog?
        /// Where every answer is counted, by route and status, with its duration; nil for nowhere.
        package var metrics: HTTPMetrics?
        /// Which HTTP/2 requests are answered as they stream (``HTTPStreamHandler``); nil: none.
        package var streamOpener: HTTPStreamOpener?

        /// A configuration for `host` and `port`.
        public init(host: String = "127.0.0.1", port: Int = 8080, threads: Int? = nil) {
            self.host = host
            self.port = port
            self.threads = max(1, threads ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        }
    }

    /// The addresses the server is listening on, with the actual port.
    package let addresses: [SocketAddress]
    private let listeners: [Int32]
    private let loops: [EventLoop]
    /// The running loop threads; emptied (under the lock, so a second caller waits) by `stop()`.
    private let threads: Mutex<[OSThread]>

    /// The port the server is listening on.
    package var port: Int { addresses[0].port }

    private init(addresses: [SocketAddress], listeners: [Int32], loops: [EventLoop]) {
        self.addresses = addresses
        self.listeners = listeners
        self.loops = loops
        self.threads = Mutex(loops.enumerated().map { index, loop in
            OSThread(name: "http-loop-\(index)") { loop.run() }
        })
    }

    /// Binds, listens and starts the event loops.
    package static func start(configuration: Configuration, handler: @escaping HTTPHandler) throws(SocketError) -> HTTPServer {
        signal(SIGPIPE, SIG_IGN)  // a peer that vanishes mid-response must not kill the process
        let (addresses, listeners) = try bind(configuration)
        let settings = EventLoop.Settings(
            limits: configuration.limits,
            headerTimeout: configuration.headerTimeout.milliseconds,
            bodyTimeout: configuration.bodyTimeout.milliseconds,
            idleTimeout: configuration.idleTimeout.milliseconds,
            gracePeriod: configuration.gracePeriod.milliseconds,
            accessLog: configuration.accessLog,
            metrics: configuration.metrics,
            streamOpener: configuration.streamOpener)
        do {
            let balancer = try ConnectionBalancer(loops: configuration.threads)
            var loops: [EventLoop] = []
            for index in 0 ..< configuration.threads {
                loops.append(try EventLoop(index: index, balancer: balancer, listeners: listeners,
                                           settings: settings, handler: handler))
            }
            return HTTPServer(addresses: addresses, listeners: listeners, loops: loops)
        } catch {
            listeners.forEach { _ = close($0) }
            throw error
        }
    }

    /// Stops accepting (new connections are refused at once), lets requests in flight finish (up
    /// to the grace period), closes every connection and returns once the loop threads have
    /// ended. Safe to call more than once, from any thread but a handler's.
    package func stop() {
        threads.withLock { threads in
            guard !threads.isEmpty else { return }
            // Shut, not closed: the loops still have the descriptors registered, and a closed
            // number could be reused by another socket before they let go of it.
            for listener in listeners { shutdown(listener, Int32(SHUT_RDWR)) }
            for loop in loops { loop.requestStop() }
            for thread in threads { thread.join() }
            for listener in listeners { close(listener) }
            threads = []
        }
    }

    /// One listening socket per address; with port 0 the first bind picks the port and the other
    /// addresses follow it, retrying when another process holds that port on the other family.
    private static func bind(_ configuration: Configuration) throws(SocketError) -> ([SocketAddress], [Int32]) {
        let resolved = try SocketAddress.resolve(host: configuration.host, port: configuration.port, passive: true)
        var attempts = 0
        while true {
            do {
                return try bindAll(resolved, configuration)
            } catch where configuration.port == 0 && error.code == EADDRINUSE && attempts < 20 {
                attempts += 1
            }
        }
    }

    private static func bindAll(_ addresses: [SocketAddress], _ configuration: Configuration) throws(SocketError) -> ([SocketAddress], [Int32]) {
        var port = configuration.port
        var bound: [SocketAddress] = []
        var sockets: [Int32] = []
        for address in addresses {
            do {
                let fd = try Socket.listen(on: SocketAddress(host: address.host, port: port, isIPv6: address.isIPv6))
                if port == 0 { port = SocketAddress.local(of: fd)?.port ?? 0 }
                sockets.append(fd)
                bound.append(SocketAddress(host: address.host, port: port, isIPv6: address.isIPv6))
            } catch {
                // `localhost` on a machine without IPv6 (some containers): IPv4 alone will do.
                let noIPv6 = error.code == EADDRNOTAVAIL || error.code == EAFNOSUPPORT
                if configuration.host == "localhost", address.isIPv6, noIPv6, !sockets.isEmpty { continue }
                sockets.forEach { _ = close($0) }
                throw error
            }
        }
        return (bound, sockets)
    }
}
