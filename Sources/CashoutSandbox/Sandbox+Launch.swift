import SandboxContract
import SandboxBank
import SandboxWire
import SandboxPersistence

// `Sandbox.launch`, phase by phase. Built in dependency order: each part is handed, as it is made,
// the parts made before it (the Architecture guide, "How a sandbox is put together"). Two are
// handed something later, each said where: the sinks their reader, the sender its server's addresses.

extension Sandbox {
    /// A launch's setup (the dialects' built-in scenario, the scenario files and the seed,
    /// layered), the bank's configuration and accounts, and the clock; and its phases, in order.
    struct Launch {
        let configuration: Configuration
        let dialects: [String: any Dialect]
        let vocabulary: ScenarioVocabulary
        let setup: ScenarioSetup
        let bankConfiguration: Bank.Configuration
        let accounts: [Account]
        let mode: VirtualClock.Mode
        let clock: VirtualClock

        init(_ configuration: Configuration) {
            self.configuration = configuration
            let standard = configuration.dialects.map(\.name) == Sandbox.standardNames
            dialects = configuration.dialects.byName
            vocabulary = standard ? Sandbox.standardVocabulary : configuration.scenarioVocabulary
            var setup = standard ? Sandbox.standardSetup : configuration.dialects.builtInSetup(vocabulary: vocabulary)
            setup.accounts = configuration.accounts ?? configuration.dialects.defaultAccounts  // the scenarios' join or replace these
            for scenario in configuration.scenarios { setup.add(scenario) }
            if let seed = configuration.seed { setup.seed = seed }
            var bankConfiguration = configuration.bank
            if !configuration.scenarios.isEmpty || configuration.seed != nil || !standard { setup.configure(&bankConfiguration) }
            self.setup = setup
            self.bankConfiguration = bankConfiguration
            accounts = setup.accounts
            mode = configuration.clockMode ?? setup.clockMode ?? .real
            clock = VirtualClock(mode: mode, timeScale: configuration.timeScale, start: configuration.clockStart ?? setup.clockStart)
        }

        /// What the bank phase makes: the bank, and what it delivers through.
        struct BankParts {
            let sinks: SinkStore
            let grpc: GRPCServer
            let webhookCounts: WebhookCounts
            let sender: WebhookSender
            let activity: AppActivity
            let timelines: TimelineRecorder
            let bank: Bank
        }

        /// The bank phase: the sinks, the gRPC server, the sender and its counts, the app's
        /// activity, then the bank, whose notifications go to the sender; the sinks are handed
        /// their reader of the bank's notifications.
        func bank() -> BankParts {
            let sinks = SinkStore()
            for (name, script) in setup.sinks { sinks.script(name, script) }
            // One gRPC server for every dialect's services (and health and reflection); the dialects
            // set their handlers once the bank exists, before it is installed on the router.
            // Their .proto files are read by the first call that needs them (or reflection), not here.
            let dialectList = configuration.dialects
            let grpc = GRPCServer(services: dialectList.grpcServices) { dialectList.grpcFiles }
            let webhookCounts = WebhookCounts()
            let sender = WebhookSender(dialects: dialects, sinks: sinks, timeout: setup.webhookTimeout ?? configuration.webhookTimeout,
                                       concurrency: configuration.webhookConcurrency, counts: webhookCounts)
            let activity = AppActivity()
            let timelines = TimelineRecorder(capacity: 4 * configuration.requestJournalCapacity) { activity.turn }
            // The bank hands itself to each delivery: the sender holds no bank.
            let bank = Bank(clock: clock, configuration: bankConfiguration, accounts: accounts) { bank, notification, done in
                // A delivery to the app is its activity until answered; one to the built-in sink, answered at once, is not.
                // Its turn is taken before it is sent: whatever the app does about it comes after.
                let turn = activity.begin()
                timelines.sending(notification, turn: turn)
                let outcome = sender.send(notification, bank: bank) { outcome in
                    done(outcome)
                    // A genuine notification refused: the app waits for it again, a retry of the bank's (AppTurns' debts).
                    if !outcome.succeeded && !notification.forged { activity.refused(payoutID: notification.payoutID) }
                    activity.end()
                }
                // A forged copy tells the app nothing to follow up: only what the bank says is its to act on.
                if outcome != nil {
                    activity.cancel()
                } else if !notification.forged {
                    activity.pushed(turn: turn, payoutID: notification.payoutID)
                }
                return outcome
            }
            // The sinks read what they receive as the bank's notifications. They are made before the
            // bank (the sender delivers to them), so they are handed its reader now, which holds the
            // bank weakly: the bank holds the sender, which holds the sinks.
            sinks.read(with: sender.reader(of: bank))
            return BankParts(sinks: sinks, grpc: grpc, webhookCounts: webhookCounts, sender: sender, activity: activity, timelines: timelines,
                             bank: bank)
        }

        /// What the APIs phase makes: the router with the payout APIs' routes and the documents',
        /// and the admin API, whose routes come after the storage phase.
        struct APIParts {
            let subjects: RequestSubject.Describe
            let faults: FaultInjector
            var router: Router
            var grpc: GRPCServer
            let routeDialects: [String: String]
            let requests: RequestLog
            let reports: ReportCache
            let suite: SuiteProgress
            var admin: AdminAPI
        }

        /// The APIs phase: the faults, each dialect's routes and gRPC handlers, the request log,
        /// the dashboard's and the documents' routes, then the admin API (its routes not yet added).
        func apis(_ parts: BankParts) -> APIParts {
            let bank = parts.bank
            var grpc = parts.grpc
            let subjects = RequestSubject.describing(dialects: dialects, bank: bank, contentFields: vocabulary.ruleFields)
            let faults = FaultInjector(faults: setup.faults, seed: setup.seed, describe: subjects)
            var router = Router()
            let routeDialects = configuration.dialects.register(in: &router, grpc: &grpc, bank: bank)
            let requests = RequestLog(capacity: configuration.requestJournalCapacity, bodyLimit: configuration.requestJournalBodyBytes,
                                          grpc: grpc)
            // Made on first use (the documents took a fifth of a start's instructions).
            let dialectList = configuration.dialects
            let dashboard = Dashboard.assets(operations: { dialectList.operations }) { dialectList.dashboardParts }
            APIDocs.register(in: &router, dashboard: dashboard, admin: AdminAPI.self) { dialectList.documents }
            let reports = ReportCache(thresholds: setup.reportThresholds)
            let suite = SuiteProgress()
            let admin = AdminAPI(bank: bank, sinks: parts.sinks, faults: faults, sender: parts.sender, initial: (accounts, bankConfiguration),
                                 layers: ScenarioLayers(setup), vocabulary: vocabulary, dialects: dialects, requests: requests,
                                 reports: reports, suite: suite, bankFormat: Sandbox.bankFormat, eventLog: configuration.eventLog,
                                 timelines: parts.timelines)
            return APIParts(subjects: subjects, faults: faults, router: router, grpc: grpc, routeDialects: routeDialects, requests: requests,
                            reports: reports, suite: suite, admin: admin)
        }

        /// The storage phase (with `--state-dir`): the state journal, opened and replayed onto the
        /// bank and through `admin`, which is handed it once it is open; nil without a folder.
        func storage(_ parts: BankParts, _ admin: inout AdminAPI) throws -> StateJournal? {
            guard let directory = configuration.stateDirectory else { return nil }
            // The journal replays through the admin before the admin journals anything: the admin
            // is handed the journal once it is open, before its routes exist.
            // A manual clock goes on from the last time journaled, not from now: the replay starts
            // it at the journal's first time (records only move it forward). A journal with no
            // time in it leaves it where it started. A real clock goes on from now.
            let (clock, mode) = (clock, mode)
            let start = clock.now
            if mode == .manual { clock.set(to: VirtualTime(milliseconds: 0)) }
            defer { if clock.now.milliseconds == 0 { clock.set(to: start) } }
            let replaying = admin
            let live = StateJournal.Replay(bank: parts.bank, resetConfiguration: bankConfiguration, formats: Sandbox.bankFormat,
                                           admin: replaying.replay, restore: { try replaying.restore($0, clockBack: mode == .manual) })
            let opened = try StateJournal(directory: directory, files: configuration.journalFiles, recover: configuration.recoverJournal,
                                          replay: live)
            try opened.compactAutomatically(minimumBytes: configuration.journalCompactionBytes, on: replaying.worker) { whileLocked in
                replaying.snapshot(whileLocked: whileLocked)
            }
            Sandbox.undoFailedWrites(of: opened, admin: replaying, start: start, manualClock: mode == .manual)
            admin.journal = opened
            return opened
        }

        /// The admin API's routes, then gRPC's; then, every route added, the metrics (counted by
        /// route) and the pipeline's stages, outermost first (Sandbox+Pipeline); then the event log.
        /// Returns the server's request counters.
        func routes(_ parts: BankParts, _ apis: inout APIParts, journal: StateJournal?) -> HTTPMetrics {
            apis.admin.register(in: &apis.router)
            apis.grpc.addRoutes(to: &apis.router)
            let requestMetrics = HTTPMetrics(routes: apis.router.routeNames)  // the server counts every answer into it
            apis.admin.serveMetrics(SandboxMetrics(http: requestMetrics, grpc: apis.grpc.metrics, webhooks: parts.webhookCounts),
                                    in: &apis.router)
            // Every route's context, read once here: what each stage knows of a request's route.
            let routes = RouteContext.table(routeNames: apis.router.routeNames, dialects: dialects, routeDialects: apis.routeDialects,
                                            grpcRoutes: Set(apis.grpc.methodPaths.map { "POST \($0)" }), documents: APIDocs.routes,
                                            sendsWebhooks: Sandbox.sendsWebhooks)
            let pipelineParts = PipelineParts(configuration: configuration, requests: apis.requests, clock: clock,
                                              grpc: apis.grpc, sender: parts.sender, journal: journal, faults: apis.faults,
                                              activity: parts.activity)
            apis.router.use(Sandbox.middleware(Sandbox.pipeline(pipelineParts), routes: routes, faults: apis.faults))
            // After the journal's replay: what it replays happened before, and is not logged again.
            let (eventLog, timelines) = (configuration.eventLog, apis.admin.timelines)
            parts.bank.observe { event in
                eventLog?.record(event)
                timelines.record(event)
            }
            return requestMetrics
        }

        /// The server phase: the server starts, last (it needs the finished router); the sender is
        /// handed its addresses; then the clock driver.
        func server(_ parts: BankParts, _ apis: APIParts, journal: StateJournal?, requestMetrics: HTTPMetrics) throws -> Sandbox {
            let (bank, sender, grpc) = (parts.bank, parts.sender, apis.grpc)
            let handler = apis.router.respond
            var serverConfiguration = configuration.server
            // A snapshot upload may be hundreds of megabytes: it goes to a temporary file as it arrives.
            // (The limits are set once: each change of them re-reads them all.)
            var bodyLimits = serverConfiguration.limits.bodyLimitsByRoute
            bodyLimits[AdminAPI.snapshotUpload] = max(serverConfiguration.limits.maxBodyBytes, AdminAPI.maximumSnapshotBytes)
            for path in grpc.methodPaths {  // a gRPC message of up to its limit, and its 5-byte frame
                bodyLimits["POST \(path)"] = max(serverConfiguration.limits.maxBodyBytes, grpc.maxMessageSize + 5)
            }
            serverConfiguration.limits.bodyLimitsByRoute = bodyLimits
            serverConfiguration.limits.spooledBodyRoutes.insert(AdminAPI.snapshotUpload)
            serverConfiguration.metrics = requestMetrics
            serverConfiguration.streamOpener = grpc.streamOpener
            let server = try HTTPServer.start(configuration: serverConfiguration, handler: handler)
            // The one part wired after it is made: the server starts last (it needs the finished
            // router), and its addresses (a free port, with port 0) exist only once it binds.
            sender.attach(addresses: server.addresses)
            let driver = ClockDriver(bank: bank) { [journal] in journal?.journal.failure == nil }
            journal?.whenWritingAgain { driver.runDue() }
            return Sandbox(server: server, handler: handler, bank: bank, dialects: dialects,
                           defaultAccountID: configuration.dialects.first?.defaultAccounts.first?.id, sinks: parts.sinks, sender: sender,
                           driver: driver,
                           journal: journal, eventLog: configuration.eventLog, requestLog: apis.requests, reports: apis.reports,
                           activity: parts.activity, suite: apis.suite, subjects: apis.subjects, routeNames: apis.router.routeNames,
                           timelines: apis.admin.timelines)
        }
    }
}
