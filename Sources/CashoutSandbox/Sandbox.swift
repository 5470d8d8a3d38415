public import FoundationEssentials
package import SandboxContract
public import SandboxBank
public import SandboxWire
package import SandboxPersistence
import SandboxSupport
import Synchronization

/// A running sandbox: its payout APIs (`Configuration.dialects`) and the admin API over one bank,
/// on one virtual clock.
///
/// Start as many as you like in one process; each listens on its own port.
///
/// ```swift
/// let sandbox = try await Sandbox.start(Sandbox.Configuration())   // port 0: a free port
/// defer { sandbox.stop() }
/// // point the client under test at sandbox.baseURL
/// ```
public final class Sandbox: Sendable {
    /// How to run the sandbox.
    public struct Configuration: Sendable {
        /// Where the HTTP server listens and how it treats clients (port 0 by default here).
        public var server = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        /// How the virtual clock moves; nil: as the scenarios say, else `real`.
        public var clockMode: VirtualClock.Mode?
        /// Virtual seconds per real second in `real` clock mode.
        public var timeScale: Double = 1
        /// Where the virtual clock starts; now by default.
        public var clockStart: VirtualTime?
        /// The payout APIs served, each with its routes, notifications and scenario vocabulary. A
        /// list other than `Sandbox.standardDialects` layers its dialects' built-in scenarios over
        /// `bank`'s timeline and declines.
        var dialects: [any Dialect] = Sandbox.standardDialects
        /// The accounts the bank starts with; nil: each dialect's default (D24's `sandbox_login`).
        package var accounts: [Account]?
        /// How the bank behaves (timelines, retries, rates): the built-in default bank with its
        /// magic values unless changed here or by `scenarios`.
        package var bank: Bank.Configuration = {
            var configuration = Bank.Configuration()
            Sandbox.standardSetup.configure(&configuration)
            return configuration
        }()
        /// Scenario files layered over the built-in default bank, later over earlier: their
        /// merchants, rules, default timeline, clock, seed and webhook policy.
        package var scenarios: [Scenario] = []
        /// Fixes every random choice (over the scenarios' own `seed`).
        public var seed: UInt64?
        /// How long a webhook delivery may take.
        public var webhookTimeout: Duration = .seconds(5)
        /// How many webhook deliveries to other servers may be on their way at once; more wait
        /// their turn. Deliveries to the built-in sink take no time and do not count.
        public var webhookConcurrency = 256
        /// Host names the sandbox answers besides loopback ones while it listens on loopback only
        /// (see `HostGuard`): `.example.com` allows its subdomains too, `*` any name.
        public var allowedHosts: [String] = []
        /// When set (not empty), every admin route (`/sandbox/...`) but `GET /sandbox/health` and
        /// `POST /sandbox/sink/{name}` needs `Authorization: Bearer <adminToken>`; else 401.
        public var adminToken: String?
        /// With a folder, every change is journaled there (`journal.log`) before its response is
        /// sent, and a sandbox started on the same folder carries on where the last one stopped.
        public var stateDirectory: String?
        /// With `stateDirectory`: a journal record that cannot be replayed (a bug, a file changed by
        /// hand) does not stop the start; the sandbox starts from the records before it, which it
        /// keeps, and moves it and the rest to `journal.log.unreplayed-<offset>`.
        public var recoverJournal = false
        /// With `stateDirectory`: the journal is compacted (rewritten as a snapshot of the state)
        /// once it is larger than this and than twice its size after the last compaction.
        public var journalCompactionBytes = 64 << 20
        /// With `stateDirectory`: the journal's file operations (tests make them fail: see
        /// `JournalFiles`).
        var journalFiles = JournalFiles.system
        /// Where to log what happens (cashouts created, status changes, webhook attempts, the clock
        /// moved, scenarios, resets, refused authentication), one line each; nil (the default) logs
        /// nothing and costs nothing.
        public var eventLog: EventLog?
        /// How many requests to the payout APIs the request journal keeps (`GET /sandbox/requests`,
        /// ``Sandbox/requests(limit:)``): the newest push the oldest out; 0 keeps none.
        public var requestJournalCapacity = 1000
        /// How many bytes of each request's and answer's body the request journal keeps.
        public var requestJournalBodyBytes = 16 * 1024

        /// The defaults: loopback, a free port, a real-time clock.
        public init() {}
    }

    /// The sandbox's version, as `--version` and `/sandbox/health` report it.
    public static let version = SandboxVersion.current.description

    /// `http://127.0.0.1:PORT`: the base URL to point clients at.
    public let baseURL: URL
    /// The addresses the server listens on.
    package let addresses: [SocketAddress]
    /// The virtual clock.
    package var clock: VirtualClock { bank.clock }
    /// The bank behind the APIs: for this package's tools and tests only, since calling it
    /// directly would pass by every API's checks (users go through the APIs, the admin API and
    /// CashoutSandboxTesting).
    package let bank: Bank
    /// The built-in webhook receivers.
    public let sinks: SinkStore
    private let server: HTTPServer
    private let handler: HTTPHandler
    let sender: WebhookSender
    /// The payout APIs served, by name.
    package let dialects: [String: any Dialect]
    /// The first API's first default account: what a scenario step that names none uses.
    package let defaultAccountID: String?
    private let driver: ClockDriver
    private let journal: StateJournal?
    private let eventLog: EventLog?
    /// What the payout APIs received and answered (`GET /sandbox/requests`).
    let requestLog: RequestLog
    /// What a request is about, as a fault reads it (``RequestSubject``).
    let subjects: RequestSubject.Describe
    /// The app's requests and the deliveries to it in flight, and when the last ended: what
    /// `test --serve` waits on before the clock moves.
    public let activity: AppActivity
    /// How far a suite's steps run against this sandbox have come (`GET /sandbox/suite`).
    public let suite: SuiteProgress
    /// Where integration reports are made, and those made already.
    package let reports: ReportCache
    /// The real times of the bank's events and the clock's stops for the app: for timelines.
    package let timelines: TimelineRecorder
    /// `CASHOUT_SANDBOX_APP_PORT` once picked (``appPort``).
    let pickedAppPort = Mutex<Int?>(nil)
    /// Every route it serves, numbered as its metrics count them (`Router.routeNames`: `unmatched`
    /// first, each `GET` followed by its `HEAD`).
    let routeNames: [String]
    /// What replaying `stateDirectory` found: records replayed, and a torn tail dropped (nil without one).
    package var journalRecovery: Journal.Recovery? { journal?.recovery }

    init(server: HTTPServer, handler: @escaping HTTPHandler, bank: Bank, dialects: [String: any Dialect], defaultAccountID: String?,
                 sinks: SinkStore,
                 sender: WebhookSender,
                 driver: ClockDriver, journal: StateJournal?,
                 eventLog: EventLog?, requestLog: RequestLog, reports: ReportCache, activity: AppActivity, suite: SuiteProgress,
                 subjects: @escaping RequestSubject.Describe, routeNames: [String], timelines: TimelineRecorder) {
        self.routeNames = routeNames
        self.timelines = timelines
        self.journal = journal
        self.subjects = subjects
        self.activity = activity
        self.suite = suite
        self.reports = reports
        self.eventLog = eventLog
        self.requestLog = requestLog
        self.handler = handler
        self.server = server
        self.bank = bank
        self.sinks = sinks
        self.sender = sender
        self.dialects = dialects
        self.defaultAccountID = defaultAccountID
        self.driver = driver
        self.addresses = server.addresses
        self.baseURL = URL(string: "http://\(server.addresses[0])")!
    }

    /// Starts a sandbox and returns once it is listening. (No default configuration: a bare
    /// `Sandbox.start()` is CashoutSandboxTesting's, with a manual clock, for tests.)
    ///
    /// - Parameters:
    ///   - configuration: How to run it: where it listens, the clock, the seed, the webhooks, the state directory...
    /// - Returns: The sandbox, listening at ``baseURL``; call ``stop()`` when done.
    /// - Throws: `SocketError` when the server cannot listen (the port is taken, the host does not resolve); with
    ///   `Configuration.stateDirectory`, `StateDirectoryError` when the folder cannot be used (read-only, another sandbox's) and
    ///   `JournalError` when its journal cannot be replayed. Each says why in its `description`.
    public static func start(_ configuration: Configuration) async throws -> Sandbox {
        try launch(configuration)
    }

    /// Starts a sandbox and returns once it is listening (for callers without `async`).
    ///
    /// - Parameters:
    ///   - configuration: How to run it; the defaults (loopback, a free port, a real-time clock) unless given.
    /// - Returns: The sandbox, listening at ``baseURL``; call ``stop()`` when done.
    /// - Throws: `SocketError` when the server cannot listen (the port is taken, the host does not resolve); with
    ///   `Configuration.stateDirectory`, `StateDirectoryError` when the folder cannot be used (read-only, another sandbox's) and
    ///   `JournalError` when its journal cannot be replayed. Each says why in its `description`.
    public static func launch(_ configuration: Configuration = Configuration()) throws -> Sandbox {
        // In phases, each handed the parts the phases before it made (the Architecture guide, "How
        // a sandbox is put together"): the setup and the clock; the bank with what it delivers
        // through; the APIs' routes, up to the admin's; the storage, replayed through the admin
        // before the admin's routes exist; the rest of the routes and the middleware; the server, last.
        let launch = Launch(configuration)
        let bank = launch.bank()
        var apis = launch.apis(bank)
        let journal = try launch.storage(bank, &apis.admin)
        let requestMetrics = launch.routes(bank, &apis, journal: journal)
        return try launch.server(bank, apis, journal: journal, requestMetrics: requestMetrics)
    }

    /// Whether every address `server` binds is a loopback one (then only this machine can connect,
    /// and the `Host` check guards against DNS rebinding); false when it binds another or cannot tell.
    package static func listensOnLoopbackOnly(_ server: HTTPServer.Configuration) -> Bool {
        guard let addresses = try? SocketAddress.resolve(host: server.host, port: server.port, passive: true), !addresses.isEmpty else {
            return false
        }
        return addresses.allSatisfy { $0.isIPv6 ? $0.host == "::1" : $0.host.hasPrefix("127.") }
    }

    /// Answers a request in-process, exactly as the server would (routes, dialects, faults), without
    /// a socket. A response produced later (`HTTPResponse.later`) is waited for; a fault that drops
    /// the connection answers with status 0.
    package func respond(to request: HTTPRequest) -> HTTPResponse {
        handler(request).resolved
    }

    /// `notification` as it is sent, in its payout's dialect's format; nil when that dialect or
    /// the account is gone.
    package func notification(_ notification: StatusNotification) -> RenderedNotification? {
        sender.render(notification, bank: bank)
    }

    /// Moves the virtual clock forward, running every bank event and webhook delivery due on the
    /// way, in time order; returns how many ran.
    ///
    /// - Parameters:
    ///   - duration: How far to move the clock, in virtual time: `.seconds(15)`.
    /// - Returns: How many events ran: status changes and webhook delivery attempts.
    @discardableResult
    public func advance(by duration: Duration) -> Int {
        bank.advance(by: duration)
    }

    /// Stops accepting, lets requests in flight finish, and returns when every server thread has
    /// ended. Safe to call more than once.
    public func stop() {
        server.stop()
        driver.stop()
        sender.stop()
        if journal != nil { bank.stopRecording() }
        // A journal that cannot write has nothing more to save: what waits is refused (undone) or
        // held for a cut that a restart makes anyway (Journal+Failure).
        if journal?.journal.failure == nil { journal?.journal.waitUntilDurable() }
        journal?.journal.trimReservedSpace()
        journal?.unlock()
        eventLog?.flush()
    }
}
