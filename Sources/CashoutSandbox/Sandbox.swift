import Foundation
import SandboxBank
import SandboxHTTP

/// A running sandbox: the HTTP server with every API mounted, on one virtual clock.
///
/// Start as many as you like in one process; each listens on its own port.
///
/// ```swift
/// let sandbox = try await Sandbox.start()          // port 0: a free port
/// defer { sandbox.stop() }
/// // point the client under test at sandbox.baseURL
/// ```
public final class Sandbox: Sendable {
    /// How to run the sandbox.
    public struct Configuration: Sendable {
        /// Where the HTTP server listens and how it treats clients (port 0 by default here).
        public var server = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        /// How the virtual clock moves.
        public var clockMode = VirtualClock.Mode.real
        /// Virtual seconds per real second in `real` clock mode.
        public var timeScale: Double = 1
        /// Where the virtual clock starts; now by default.
        public var clockStart: VirtualTime?

        /// The defaults: loopback, a free port, a real-time clock.
        public init() {}
    }

    /// The sandbox's version, as `--version` and `/sandbox/health` report it.
    public static let version = "0.1.0"

    /// `http://127.0.0.1:PORT`: the base URL to point clients at.
    public let baseURL: URL
    /// The addresses the server listens on.
    public let addresses: [SocketAddress]
    /// The virtual clock.
    public let clock: VirtualClock
    private let server: HTTPServer

    private init(server: HTTPServer, clock: VirtualClock) {
        self.server = server
        self.clock = clock
        self.addresses = server.addresses
        self.baseURL = URL(string: "http://\(server.addresses[0])")!
    }

    /// Starts a sandbox and returns once it is listening.
    public static func start(_ configuration: Configuration = Configuration()) async throws -> Sandbox {
        try launch(configuration)
    }

    /// Starts a sandbox and returns once it is listening (for callers without `async`).
    public static func launch(_ configuration: Configuration = Configuration()) throws -> Sandbox {
        let clock = VirtualClock(mode: configuration.clockMode, timeScale: configuration.timeScale,
                                 start: configuration.clockStart)
        var router = Router()
        AdminAPI(clock: clock).register(in: &router)
        let server = try HTTPServer.start(configuration: configuration.server, handler: router.respond)
        return Sandbox(server: server, clock: clock)
    }

    /// Stops accepting, lets requests in flight finish, and returns when every server thread has
    /// ended. Safe to call more than once.
    public func stop() {
        server.stop()
    }
}
