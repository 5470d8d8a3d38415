import CashoutSandbox
import Dispatch
import FoundationEssentials
import SandboxBank
import SandboxHTTP
import SandboxJSON
import SandboxObservability
import SandboxScenario
import SandboxSupport
import Synchronization

/// Runs a scenario's steps against its own in-process sandbox on a manual clock (the Scenario
/// files guide, "Steps"). Without a `clock.start`, the clock starts at 2026-01-05T09:00:00Z, so a
/// run is the same every time.
package struct ScenarioRunner {
    /// A created cashout a later step can refer to by name.
    struct Reference {
        let cashoutID: Int
        let externalID: String
    }

    let scenario: Scenario
    let sandbox: Sandbox
    var references: [String: Reference] = [:]
    var saved: [String: String] = [:]
    var created = 0
    /// The logged requests earlier `wait_for_request` steps took.
    var takenRequests: Set<Int> = []
    /// With an app beside the steps (a quiet period): the clock's stops for it.
    var turns: AppTurns?
    /// What the step being run noted (the app kept the clock waiting past the quiet limit).
    var note: String?

    /// Runs every step of `scenario` and reports the first failure (or that the sandbox could not
    /// start, as the failure of step 0).
    package static func run(_ scenario: Scenario, journal: Bool = false) -> ScenarioResult {
        let started = Date()
        do {
            return try run(scenario, journal: journal, serving: Serving())
        } catch {
            return ScenarioResult(name: scenario.name, file: scenario.file, failure: (0, "could not start a sandbox: \(error)"),
                                  steps: scenario.steps.count, seconds: Date().timeIntervalSince(started))
        }
    }

    /// Runs every step of `scenario` against a sandbox served as `serving` says, beside
    /// `serving.beside` if any, and reports the first failure and how `beside` ended; `examine`
    /// looks at the sandbox once both have ended, before it stops, told whether the run failed
    /// (a step, or the ledger after the last), and answers what else it found wrong (for the
    /// timeline: `Serving.timeline`). Throws what kept the sandbox from starting (`SocketError`:
    /// a port in use).
    package static func run(_ scenario: Scenario, journal: Bool = false, serving: Serving,
                           examine: ((Sandbox, _ failed: Bool) -> [Timeline.Finding])? = nil) throws -> ScenarioResult {
        let started = Date()
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = scenario.clockStart ?? VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.scenarios = [scenario]
        configuration.server.port = serving.port
        configuration.server.host = serving.host
        configuration.allowedHosts = serving.allowedHosts
        configuration.server.threads = serving.threads
        func result(_ failure: (Int, String)?) -> ScenarioResult {
            ScenarioResult(name: scenario.name, file: scenario.file, failure: failure, steps: scenario.steps.count,
                           seconds: Date().timeIntervalSince(started))
        }
        let sandbox = try Sandbox.launch(configuration)
        sandbox.suite.start(steps: scenario.steps.count)
        // At its first step from the start: the app, started next, never sees step 0.
        if !scenario.steps.isEmpty { sandbox.suite.step(1) }
        let beside = serving.beside.map { BesideRun($0, sandbox: sandbox) }
        var runner = ScenarioRunner(scenario: scenario, sandbox: sandbox)
        var notes: [String] = []
        if let quietPeriod = serving.quietPeriod {
            var settledURL: String?
            switch scenario.appSettled.map(sandbox.expandingVariables) {
            case .success(let url): settledURL = url
            case .failure(let problem): notes.append("app.settled not asked: \(problem.message)")
            case nil: break
            }
            runner.turns = AppTurns(sandbox: sandbox, quietPeriod: quietPeriod, quietLimit: serving.quietLimit, settledURL: settledURL)
        }
        var failure: (Int, String)?
        for (index, step) in scenario.steps.enumerated() {
            sandbox.suite.step(index + 1)
            let waited = runner.waitForTheApp(before: step, serving: serving)
            let problem = runner.perform(step)
            let said = waited + [runner.note.take()].compactMap { $0 } + (runner.turns?.takeNotes() ?? [])
            notes += said.map { "step \(index + 1): \($0)" }
            if let problem {
                failure = (index + 1, problem)
                break
            }
            // What a step made due now (a cancel's notification) is done before the next step
            // looks, and done here rather than by the clock driver at its own moment: the same
            // journal on every run.
            sandbox.bank.runDueEvents()
        }
        // The app's ledger, read while the app still runs, after the last step or the failed one: a
        // mismatch is a failure of its own beside a failed step's.
        var ledger: ScenarioResult.Ledger?
        // (Not again after an `expect_reconciled` that failed: it has just compared the ledger.)
        var failedReconciling = false
        if let step = failure?.0, scenario.steps.indices.contains(step - 1), case .expectReconciled = scenario.steps[step - 1] {
            failedReconciling = true
        }
        if let location = scenario.appLedger, !failedReconciling {
            notes += runner.waitForTheApp(before: nil, serving: serving).map { "after the last step: \($0)" }
            switch runner.reconcile(location, account: nil, action: "app.ledger, after \(failure == nil ? "the last step" : "the failed step")") {
            case .agreed(let entries): ledger = .reconciled(entries)
            case .notServed(let sentence):
                ledger = .notChecked
                notes.append(sentence)
            case .failed(let message, let unreadable):
                ledger = .failed(message, unreadable: unreadable)
                if failure == nil { failure = (scenario.steps.count, message) }
            }
        }
        // What else the run shows once a step failed, as the report would have judged it had the run gone on: its findings,
        // found after the failure (a failed expect_report lists them itself).
        var foundAfter: (lines: [String], errors: [Timeline.Finding]) = ([], [])
        let listed = ["expect_report: expected no errors", "expect_report: expected findings", "expect_report: expected no findings"]
        if serving.judgesAfterFailure, let (step, message) = failure,
           !(Self.isReport(scenario, step: step) && listed.contains(where: message.hasPrefix)) {
            let (json, errors) = sandbox.reportWithErrors()
            // Not again what the failure says (its ledger mismatch).
            let said = [message] + (ledger.flatMap { if case .failed(let text, _) = $0 { text } else { nil } }.map { [$0] } ?? [])
            let lines = Sandbox.reportFindingLines(json).filter { line in
                let occurrences = line.split(separator: "): ", maxSplits: 1).last.map(String.init) ?? line
                return !said.contains { $0.contains(occurrences) }
            }
            foundAfter = (lines, errors)
        }
        // The moment the run is judged: after the steps and the ledger read.
        let judged = (at: sandbox.bank.clock.now, real: VirtualClock.wallMilliseconds())
        sandbox.suite.end(failure: failure.map { "step \($0.0): \($0.1)" })
        if let failure, let stepFailed = serving.stepFailed { stepFailed(failure.0) }
        // The app beside the steps may still be calling: the sandbox serves it until it ends.
        var command = beside?.wait()
        serving.ended?()
        if let failure, serving.stepFailed != nil { command?.stoppedAfterStep = failure.0 }
        let found = examine?(sandbox, failure != nil) ?? []
        // A follow-up of a payout a failure names that came after the clock had moved on: the knob that waits for it.
        if let turns = runner.turns, failure != nil || !found.isEmpty {
            var named = Set(cashoutIDs(in: failure?.1 ?? "", of: sandbox) + found.flatMap(\.cashouts))
            named.formUnion(sandbox.reports.reconciliation.last?.mismatches.flatMap(\.occurrence.cashouts) ?? [])
            notes += turns.lateFollowUpNotes(of: named)
        }
        let timeline = serving.timeline == .none ? nil : Self.timeline(of: sandbox, scenario, failure: failure, found: foundAfter.errors + found,
                                                                        judged: judged, references: runner.references.mapValues(\.cashoutID),
                                                                        always: serving.timeline == .always)
        var outcome = result(failure)
        outcome.timeline = timeline
        if let reason = scenario.expectedFailure {
            // Marked as expected to fail (like pytest's xfail): a failing step passes it, and a
            // run where every step held fails it.
            outcome = result(failure == nil ? (scenario.steps.count, "expected a failure (\(reason)), but every step passed") : nil)
            outcome.expectedFailure = failure.map { (reason, $0.0, $0.1) }
        }
        outcome.notes = notes
        outcome.foundAfter = foundAfter.lines
        outcome.ledger = ledger
        outcome.clockStops = runner.turns?.stops ?? 0
        outcome.command = command
        if journal { outcome.journal = Self.journal(of: sandbox.bank) }
        // Kept open, as it ended, for as long as asked (`test --serve --keep`: the dashboard on the run's end state).
        serving.kept?(sandbox, outcome)
        sandbox.stop()
        // A load scenario leaves hundreds of megabytes of objects: most often freed on another
        // thread (whichever lets go last), so the result and the next scenario need not wait.
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(sandbox) {} }
        return outcome
    }

    /// Waits, before a step that moves the clock or reads what the app did (the report, its
    /// ledger), until the app owes itself no retry of a request a fault answered and has gone quiet
    /// (`Serving.quietPeriod`, ``AppTurns/settle()``), and at a `settle` step for its own period,
    /// counted from the step's start; what to note: a retry the app never made, and that it was still
    /// busy at `Serving.quietLimit`. (`step` nil: the ledger read after the last step.)
    private mutating func waitForTheApp(before step: Step?, serving: Serving) -> [String] {
        let busy: String?, limit: String
        switch step {
        case .settle(let own):
            // A settle asks for its own period, however long: the limit is how much longer the app may stay busy.
            limit = DurationText.format(own + serving.quietLimit)
            busy = sandbox.activity.waitUntilQuiet(for: own, atMost: own + serving.quietLimit, since: AppActivity.now()) ? nil : "was still busy"
        case .advance, .advanceToNextEvent, .expectReport, .expectReconciled, .expectRequests, nil:
            guard turns != nil else { return [] }
            limit = "--quiet-limit \(DurationText.format(serving.quietLimit))"
            busy = turns!.settle()
        case .expectCashout, .expectWebhooks, .expectBalance, .expectLedger, .expectDeliveries, .expectSink:
            // What the bank holds: a retry owed could still change it (a cashout made twice).
            guard turns != nil else { return [] }
            limit = "--quiet-limit \(DurationText.format(serving.quietLimit))"
            busy = turns!.settle(quiet: false)
        default: return []
        }
        let unpaid = turns?.takeNotes() ?? []
        guard let busy else { return unpaid }
        let then = switch step {
        case .settle: "went on anyway"
        case .expectReport: "the report was read anyway"
        case .expectReconciled, nil: "its ledger was read anyway"
        case .expectRequests: "its requests were checked anyway"
        case .advance, .advanceToNextEvent: "the clock moved anyway"
        default: "the step went on anyway"
        }
        return unpaid + ["the app \(busy) after \(limit); \(then)"]
    }

    /// The timeline of what the run's failures name (a failed step's cashouts, by id or by the name a step gave it in
    /// `references`; the ledger's mismatches; what `found` says), judged at `judged`; with `always`, of every payout
    /// when nothing failed; nil for none.
    private static func timeline(of sandbox: Sandbox, _ scenario: Scenario, failure: (Int, String)?, found: [Timeline.Finding],
                                 judged: (at: VirtualTime, real: Int64), references: [String: Int], always: Bool) -> Timeline? {
        let mismatches = sandbox.reports.reconciliation.last?.mismatches ?? []
        var findings = mismatches.map { Timeline.Finding(id: "ledger_mismatch", text: $0.occurrence.summary, cashouts: $0.occurrence.cashouts) }
        if let (step, message) = failure, !message.contains("ledger_mismatch") || mismatches.isEmpty {
            let first = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? message
            let words = Set(first.split { !$0.isLetter && !$0.isNumber && $0 != "_" && $0 != "-" }.map(String.init))
            let referred = references.filter { words.contains($0.key) }.map(\.value).sorted()
            // A report step that failed stands for the report's errors, each on the cashouts it concerns.
            var errors: [Timeline.Finding] = []
            if isReport(scenario, step: step) { errors = sandbox.reportErrors() }
            if errors.isEmpty {
                let named = cashoutIDs(in: message, of: sandbox)
                findings.insert(Timeline.Finding(id: "step \(step)", text: first, cashouts: named + referred.filter { !named.contains($0) }),
                                at: 0)
            }
            findings += errors.filter { !findings.contains($0) }
        }
        if failure == nil { findings = [] }
        for finding in found where !findings.contains(finding) { findings.append(finding) }
        let named = findings.flatMap(\.cashouts)
        guard !named.isEmpty || always else { return nil }
        let ids = named.isEmpty ? sandbox.bank.payouts().map(\.id) : Array(Set(named)).sorted()
        return sandbox.timeline(of: ids, title: "\(scenario.name) (\(scenario.file))", findings: findings, judged: judged)
    }

    /// Whether step `step` (from 1) of `scenario` is an `expect_report`.
    static func isReport(_ scenario: Scenario, step: Int) -> Bool {
        guard scenario.steps.indices.contains(step - 1), case .expectReport = scenario.steps[step - 1] else { return false }
        return true
    }

    /// The whole numbers in `text` that are cashouts of the sandbox's, in order, each once.
    static func cashoutIDs(in text: String, of sandbox: Sandbox) -> [Int] {
        var ids: [Int] = []
        for digits in text.split(whereSeparator: { !$0.isASCII || !$0.isNumber }) {
            if let id = Int(digits), !ids.contains(id), sandbox.bank.payout(id: id) != nil { ids.append(id) }
        }
        return ids
    }

    /// Runs scenarios side by side (each in its own sandbox); results in the order given.
    package static func runAll(_ scenarios: [Scenario], parallel: Int = ProcessInfo.processInfo.activeProcessorCount) -> [ScenarioResult] {
        let results = ResultSlots(count: scenarios.count)
        // Each thread takes the next scenario not yet taken, in the order given.
        let next = Atomic(0)
        let threads = (0 ..< max(1, min(parallel, scenarios.count))).map { _ in
            OSThread(name: nil) {
                while case let index = next.add(1, ordering: .relaxed).oldValue, index < scenarios.count {
                    results.set(index, run(scenarios[index]))
                }
            }
        }
        for thread in threads { thread.join() }
        return results.all
    }

    /// The events of a run, one JSON line per cashout: its status changes and its notifications'
    /// delivery attempts, with their virtual times. Nothing that varies between runs (ports, URLs).
    static func journal(of bank: Bank) -> String {
        bank.payouts().map { payout -> String in
            let line: JSON = [
                "cashout_id": .number(payout.id), "external_id": AdminJSON.optional(payout.reference),
                "history": .array(payout.history.map { change in
                    ["status": .string(change.status.name), "at": .string(change.at.iso8601), "by": .string(change.by),
                     "rejection_code": AdminJSON.code(change.reasonCode)]
                }),
                "webhooks": .array(bank.notifications(payoutID: payout.id).map { notification in
                    ["status": .string(notification.status.name), "changed_at": .string(notification.changedAt.iso8601),
                     "attempts": .array(notification.attempts.map { attempt in
                         ["at": .string(attempt.at.iso8601), "response_status": AdminJSON.optional(attempt.outcome.status),
                          "error": AdminJSON.optional(attempt.outcome.error), "chaos": AdminJSON.optional(attempt.chaos?.kind.rawValue)]
                     })]
                }),
            ]
            return line.serializedString()
        }.joined(separator: "\n")
    }
}

/// Results written from several threads, one slot each.
private final class ResultSlots: Sendable {
    private let slots: Mutex<[ScenarioResult?]>

    init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ result: ScenarioResult) {
        slots.withLock { $0[index] = result }
    }

    var all: [ScenarioResult] {
        slots.withLock { $0.compactMap { $0 } }
    }
}
