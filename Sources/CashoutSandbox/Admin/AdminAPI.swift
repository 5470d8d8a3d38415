import Dispatch
import SandboxContract
import SandboxBank
import SandboxWire
import SandboxSupport
import SandboxPersistence
import Synchronization

/// The sandbox's own endpoints under `/sandbox/` (the Running it guide, "Admin API"): health, the clock,
/// cashouts and forced outcomes, webhooks and the sink, merchants and the ledger, the request
/// journal. Errors use the same `{"code": <HTTP status>, "message": "..."}` shape as the router's.
///
/// Moving the clock and redelivering send webhooks, which may take seconds or be addressed to this
/// very server: that work runs on `worker`, one job at a time, never on an event-loop thread.
struct AdminAPI: AdminServing {
    /// The route group of every admin route: `/sandbox` and under it.
    static let group = adminRouteGroup
    package let bank: Bank
    let sinks: SinkStore
    let faults: FaultInjector
    let sender: WebhookSender
    /// The accounts and bank configuration `POST /sandbox/reset` returns to.
    let initial: (accounts: [Account], bank: Bank.Configuration)
    /// The scenarios in force, which `POST /sandbox/scenario` adds to.
    let layers: ScenarioLayers
    /// What scenario files may say in the dialects served.
    let vocabulary: ScenarioVocabulary
    /// The dialects by name, which choose a forced rejection's code and name their statuses.
    let dialects: [String: any Dialect]
    /// The APIs' accounts, by the name of their API (`/sandbox/accounts/{dialect}`).
    let accountKinds: [String: AccountKind]
    /// What `GET /sandbox/requests` shows; a reset clears it.
    let requests: RequestLog
    /// The integration reports, made on a queue of their own (which verifications share).
    let reports: ReportCache
    /// How far the steps of a suite run against this sandbox have come (`GET /sandbox/suite`).
    package let suite: SuiteProgress
    /// The real times of the bank's events and the clock's stops, for cashouts' timelines.
    let timelines: TimelineRecorder
    /// Where scenario loads and resets are logged (`serve --log-format`); nil for nowhere.
    var eventLog: EventLog? = nil
    /// Where scenario loads, resets and restores are journaled (with `--state-dir`): nil while
    /// the journal replays through this admin (what it replays is journaled already), set before
    /// the routes are registered.
    package var journal: StateJournal? = nil
    let worker = DispatchQueue(label: "cashout-sandbox.admin")
    /// How to read the bank's binary form of each version (snapshots: `Sandbox.bankFormat`).
    let bankFormat: BankFormat.Lookup

    init(bank: Bank, sinks: SinkStore, faults: FaultInjector, sender: WebhookSender,
                 initial: (accounts: [Account], bank: Bank.Configuration), layers: ScenarioLayers, vocabulary: ScenarioVocabulary,
                 dialects: [String: any Dialect], requests: RequestLog, reports: ReportCache, suite: SuiteProgress,
                 bankFormat: @escaping BankFormat.Lookup, eventLog: EventLog? = nil, timelines: TimelineRecorder = TimelineRecorder(capacity: 0)) {
        self.bank = bank
        self.sinks = sinks
        self.faults = faults
        self.sender = sender
        self.initial = initial
        self.layers = layers
        self.vocabulary = vocabulary
        self.dialects = dialects
        accountKinds = dialects.compactMapValues(\.accounts)
        self.requests = requests
        self.reports = reports
        self.suite = suite
        self.bankFormat = bankFormat
        self.eventLog = eventLog
        self.timelines = timelines
    }

    /// Adds its endpoints (declared with their documentation in SandboxContract:
    /// `OpenAPIDocument.adminEndpoints(for:)`), and each API's older account paths after the
    /// accounts, to `router`.
    func register(in router: inout Router) {
        let (upToAccounts, afterAccounts) = OpenAPIDocument.adminEndpoints(for: Self.self)
        router.add(upToAccounts, serving: self)
        registerLegacyAccounts(in: &router)
        router.add(afterAccounts, serving: self)
    }

    func getHealth(_ request: HTTPRequest) -> HTTPResponse { health() }

    func getClock(_ request: HTTPRequest) -> HTTPResponse { .json(clockJSON()) }

    /// In its place among the routes (its number orders the metrics), answered by `serveMetrics`.
    func getMetrics(_ request: HTTPRequest) -> HTTPResponse { Router.error(503, "the metrics are not made yet") }

    func advanceClock(_ request: HTTPRequest) -> HTTPResponse { .later(on: worker) { advance(request) } }

    func loadScenario(_ request: HTTPRequest) -> HTTPResponse {
        .later(on: worker) {
            switch load(scenario: request.body) {
            case .success(let loaded):
                journal?.record(.scenarioLoaded, request.body)
                eventLog?.scenarioLoaded(name: loaded.name, rules: loaded.rules, merchants: loaded.merchants)
                return .json(loaded.json)
            case .failure(let refusal):
                return Router.error(refusal.status, refusal.message)
            }
        }
    }

    func reset(_ request: HTTPRequest) -> HTTPResponse {
        .later(on: worker) {
            journal?.record(.reset)
            defer { eventLog?.reset(clock: bank.clock.now) }
            return reset()
        }
    }

    /// The route `getMetrics` answers until `serveMetrics`.
    private static let metricsRoute = AdminRoute.getMetrics.route

    /// Answers `GET /sandbox/metrics` from `metrics`, made once `router` knows every route (the
    /// request counters are by route, this one among them): the route added by `register` keeps
    /// its number.
    func serveMetrics(_ metrics: SandboxMetrics, in router: inout Router) {
        router.add(Self.metricsRoute) { [journal] _ in
            HTTPResponse(headers: ["Content-Type": SandboxMetrics.contentType],
                         body: Array(metrics.render(bank: bank, journal: journal).utf8))
        }
    }

    /// `{"clock":{"mode":"real","now":"…"},"status":"ok","version":"0.3.0"}`: what the JSON writer
    /// makes of ``healthJSON(mode:now:)``, written as bytes around the time (probes and benchmarks call it
    /// thousands of times a second; the object, its dictionaries and strings cost 15k instructions).
    private func health() -> HTTPResponse {
        if let journal, journal.journal.failure != nil, case let health = journal.journal.health, let failure = health.failure {
            // The journal cannot write: changes are refused (Running it, "When the disk fails").
            let state: JSON = ["state": "failing", "error": .string(failure.description),
                               "since": AdminJSON.optional(health.since.map { VirtualTime(milliseconds: Int64($0 * 1000)).iso8601 })]
            return .json(Self.healthJSON(mode: bank.clock.mode, now: bank.clock.now.iso8601, journal: state), status: 503)
        }
        let (head, tail) = bank.clock.mode == .real ? Self.realHealth : Self.manualHealth
        var body: [UInt8] = []
        body.reserveCapacity(head.count + 24 + tail.count)
        body.append(contentsOf: head)
        bank.clock.now.write(iso8601Into: &body)
        body.append(contentsOf: tail)
        return .json(serialized: body, status: 200)
    }

    /// The health answer as a JSON value (its byte form's reference, which the tests compare with).
    /// With `journal` (its state, while it cannot write), the answer of a failing sandbox.
    static func healthJSON(mode: VirtualClock.Mode, now: String, journal: JSON? = nil) -> JSON {
        var health: [String: JSON] = ["status": journal == nil ? "ok" : "failing", "version": .string(SandboxVersion.current.description),
                                      "clock": ["mode": .string(mode.rawValue), "now": .string(now)]]
        health["journal"] = journal
        return .object(health)
    }

    /// The health answer's bytes before and after its time, one pair per clock mode, cut from
    /// ``healthJSON(mode:now:)`` serialized around a marker.
    private static let (realHealth, manualHealth) = (healthParts(.real), healthParts(.manual))

    private static func healthParts(_ mode: VirtualClock.Mode) -> (head: [UInt8], tail: [UInt8]) {
        let marker = Array("NOW".utf8)  // in no key nor other value
        let whole = healthJSON(mode: mode, now: "NOW").serialized()
        let at = (0 ... whole.count - marker.count).first { whole[$0 ..< $0 + marker.count].elementsEqual(marker) }!
        return (Array(whole[..<at]), Array(whole[(at + marker.count)...]))
    }

    private func clockJSON(applied: Int? = nil) -> JSON {
        var json: [String: JSON] = [
            "mode": .string(bank.clock.mode.rawValue), "now": .string(bank.clock.now.iso8601),
            "next_event_at": AdminJSON.optional(bank.nextEventAt?.iso8601),
        ]
        if let applied { json["events_applied"] = .number(applied) }
        return .object(json)
    }

    /// `{"by":"2d"}`, `{"to":"2026-01-07T00:00:00Z"}` or `{"to_next_event":true}`: exactly one member
    /// (two would say two different advances; Behaviour and choices, "One advance per call").
    private func advance(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = Self.object(request) else { return Self.badBody }
        guard body.count == 1 else { return Router.error(400, AdminMessage.advanceForms) }
        let applied: Int
        if let by = body["by"] {
            guard let text = by.stringValue, let duration = DurationText.parse(text) else {
                return Router.error(400, AdminMessage.advanceBy)
            }
            applied = bank.advance(by: duration)
        } else if let to = body["to"] {
            guard let text = to.stringValue, let time = VirtualTime(iso8601: text) else {
                return Router.error(400, AdminMessage.advanceTo)
            }
            guard time >= bank.clock.now else { return Router.error(409, AdminMessage.clockInThePast(text)) }
            applied = bank.advance(to: time)
        } else if body["to_next_event"] == .bool(true) {
            applied = bank.advanceToNextEvent()
        } else {
            return Router.error(400, AdminMessage.advanceForms)
        }
        return .json(clockJSON(applied: applied))
    }

    /// Loads a scenario (the body, as a file would hold it) on top of those in force: its
    /// merchants are added or replaced, its rules tried first, its policies take over. Payouts
    /// already created keep their timelines. 400 names the JSON path of a mistake.
    /// What a scenario put in force: `POST /sandbox/scenario`'s answer.
    struct Loaded: Sendable {
        package let name: String
        let rules: Int
        let merchants: [String]

        /// `{"loaded": NAME, "rules": N, "merchants": [...]}`.
        package var json: JSON {
            ["loaded": .string(name), "rules": .number(rules), "merchants": .array(merchants.map(JSON.string))]
        }
    }

    /// A scenario that could not be put in force: 400 when it does not load (`message` names the path in it), 409 when it
    /// changes the currency of an account in use.
    struct LoadRefusal: Error {
        package let status: Int
        package let message: String
    }

    /// Loads a scenario (`body`) on top of those in force: `POST /sandbox/scenario`, `PUT /sandbox/webhooks/chaos` and a
    /// journal's replay call it.
    package func load(scenario body: [UInt8]) -> Result<Loaded, LoadRefusal> {
        let scenario: Scenario
        do { scenario = try ScenarioLoader.load(body, file: "request body", vocabulary: vocabulary) } catch {
            return .failure(LoadRefusal(status: 400, message: error.message))
        }
        for account in scenario.accounts {
            do throws(Bank.AccountChangeError) {
                _ = try bank.updateAccount(id: account.id, creatingFrom: account) { $0 = account; return nil }
            } catch {
                return .failure(LoadRefusal(status: 409, message: AdminMessage.currencyKept(account.id)))
            }
        }
        let setup = layers.add(scenario, source: body)
        bank.reconfigure { setup.configure(&$0) }
        apply(setup, sinksOf: scenario.sinks)
        return .success(Loaded(name: scenario.name, rules: setup.rules.count, merchants: bank.accounts.map(\.id)))
    }

    /// Puts a setup's faults, webhook policy and report thresholds in force, and scripts sinks.
    func apply(_ setup: ScenarioSetup, sinksOf scripts: [String: SinkScript]) {
        faults.replace(setup.faults, seed: setup.seed)
        reports.thresholds = setup.reportThresholds
        if let timeout = setup.webhookTimeout { sender.setTimeout(timeout) }
        for (name, script) in scripts { sinks.script(name, script) }
    }

    /// Back to the start: the initial merchants and bank, no payouts, empty sinks, no
    /// reconciliation; the clock stays.
    private func reset() -> HTTPResponse {
        let setup = layers.reset()
        bank.reset(accounts: initial.accounts, configuration: initial.bank)
        sinks.clearAll()
        requests.clear()
        timelines.clear()
        if reports.reconciliation.last != nil { reports.keep(nil) }
        apply(setup, sinksOf: setup.sinks)
        return .json(["status": "reset", "clock": .string(bank.clock.now.iso8601)])
    }

    /// Makes a journaled admin change again (replaying `--state-dir`).
    func replay(_ kind: StateJournal.Kind, _ payload: UnsafeRawBufferPointer) throws {
        switch kind {
        case .scenarioLoaded:
            if case .failure(let refusal) = load(scenario: Array(payload)) {
                throw Bank.ReplayError(description: "a journaled scenario no longer loads: \(refusal.message)")
            }
        case .reset:
            _ = reset()
        case .bank, .snapshot:
            break  // the state journal replays these itself, never here
        }
    }

    /// The request body as a JSON object, or nil.
    package static func object(_ request: HTTPRequest) -> [String: JSON]? {
        guard case .object(let object)? = try? JSON.parse(request.body) else { return nil }
        return object
    }

    static let badBody = Router.error(400, AdminMessage.notAnObject)
}

/// The scenario setup in force, shared by the admin endpoints that change it, and the scenario
/// files loaded since the start or the last reset (a snapshot carries them).
final class ScenarioLayers: Sendable {
    private let initial: ScenarioSetup
    private let current: Mutex<(setup: ScenarioSetup, sources: [[UInt8]])>

    package init(_ setup: ScenarioSetup) {
        initial = setup
        current = Mutex((setup, []))
    }

    /// Puts `scenario` (loaded from `source`) on top and returns the new setup.
    package func add(_ scenario: Scenario, source: [UInt8]) -> ScenarioSetup {
        current.withLock { current in
            current.setup.add(scenario)
            current.sources.append(source)
            return current.setup
        }
    }

    /// Layers that start as these started, with nothing loaded.
    func fresh() -> ScenarioLayers { ScenarioLayers(initial) }

    /// Back to the setup the sandbox started with, which it returns.
    func reset() -> ScenarioSetup {
        replace(with: [])
    }

    /// The setup the sandbox started with, with `scenarios` on top; returns it.
    func replace(with scenarios: [(Scenario, source: [UInt8])]) -> ScenarioSetup {
        var setup = initial
        for (scenario, _) in scenarios { setup.add(scenario) }
        current.withLock { $0 = (setup, scenarios.map(\.source)) }
        return setup
    }

    /// The scenario files loaded since the start or the last reset, as they were sent.
    var sources: [[UInt8]] { current.withLock { $0.sources } }

    /// The setup in force.
    var setup: ScenarioSetup { current.withLock { $0.setup } }
}
