package import CashoutSandbox
import Dispatch
import FoundationEssentials
import SandboxBank
import SandboxWire
import SandboxSupport
package import SandboxContract
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
    /// Who answers what the runner asks the app itself: its `app.settled` and its ledger.
    let answers: any AppAnswers
    var references: [String: Reference] = [:]
    var saved: [String: String] = [:]
    var created = 0
    /// The logged requests earlier `wait_for_request` steps took.
    var takenRequests: Set<Int> = []
    /// With an app beside the steps (a quiet period): the clock's stops for it.
    var turns: AppTurns?
    /// What the step being run noted (the app kept the clock waiting past the quiet limit, a check newer than the suite).
    var notes: [String] = []
    /// What the step being run judged beyond its message, for the cases (a report's problems by check, a ledger's by cashout).
    var judged: Judgement?

    /// Runs every step of `scenario` and reports what failed (or that the sandbox could not start, as
    /// the failure of step 0).
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
    /// `serving.beside` if any, and reports what failed, each case, and how `beside` ended. A failed
    /// step does not stop the run: each later step runs, but one that uses what a failed step was to
    /// give (a payout's name, a saved value) is skipped, saying why. `examine` looks at the sandbox
    /// once both have ended, before it stops, told whether the run failed (a step, or the ledger
    /// after the last), and answers what else it found wrong (for the timeline:
    /// `Serving.timeline`). Throws what kept the sandbox from starting (`SocketError`: a port in use).
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
        let sandbox = try Sandbox.launch(configuration)
        sandbox.suite.start(steps: scenario.steps.count)
        // At its first step from the start: the app, started next, never sees step 0.
        if !scenario.steps.isEmpty { sandbox.suite.step(1) }
        let beside = serving.beside.map { BesideRun($0, sandbox: sandbox) }
        var runner = ScenarioRunner(scenario: scenario, sandbox: sandbox, answers: serving.answers ?? AppOverHTTP(sandbox: sandbox))
        var notes: [String] = []
        if let quietPeriod = serving.quietPeriod {
            var settledURL: String?
            switch scenario.appSettled.map(sandbox.expandingVariables) {
            case .success(let url): settledURL = url
            case .failure(let problem): notes.append("app.settled not asked: \(problem.message)")
            case nil: break
            }
            runner.turns = AppTurns(sandbox: sandbox, quietPeriod: quietPeriod, quietLimit: serving.quietLimit, settledURL: settledURL,
                                   answers: runner.answers)
        }
        var verdicts: [StepVerdict] = []
        var book = CaseBook()
        // The names a step that failed, or was skipped, was to give later steps, with what became of that step.
        var lost: [String: String] = [:]
        let last = min(serving.lastStep ?? scenario.steps.count, scenario.steps.count)
        for (index, step) in scenario.steps.enumerated() {
            let number = index + 1, links = scenario.links(ofStep: index)
            let subject = book.subject(of: links)
            guard number <= last else {
                verdicts.append(.notRun)
                book.step(number, of: subject, .notRun, seconds: 0, judgement: nil)
                continue
            }
            sandbox.suite.step(number)
            let began = Date()
            let verdict: StepVerdict
            if let reason = skipReason(links, lost: lost) {
                verdict = .skipped(reason)
            } else {
                let waited = runner.waitForTheApp(before: step, serving: serving)
                let problem = runner.perform(step)
                let said = waited + runner.notes + (runner.turns?.takeNotes() ?? [])
                runner.notes = []
                notes += said.map { "step \(number): \($0)" }
                verdict = problem.map(StepVerdict.failed) ?? .passed
                // What a step made due now (a cancel's notification) is done before the next step
                // looks, and done here rather than by the clock driver at its own moment: the same
                // journal on every run.
                sandbox.bank.runDueEvents()
            }
            // What it was to give is lost when it did not pass, and found again when a later step that gives it passes.
            let how = if case .skipped = verdict { "step \(number) was skipped" } else { "step \(number) failed" }
            for name in [links.payout].compactMap({ $0 }) + links.values { lost[name] = verdict == .passed ? nil : lost[name] ?? how }
            if let name = links.payout, let reference = runner.references[name] { book.named(name, cashout: reference.cashoutID) }
            verdicts.append(verdict)
            book.step(number, of: subject, verdict, seconds: Date().timeIntervalSince(began), judgement: runner.judged.take())
        }
        let failed = verdicts.enumerated().compactMap { index, verdict in
            if case .failed(let message) = verdict { (index + 1, message) } else { nil }
        }
        var failure = failed.first
        // The app's ledger, read while the app still runs, after the last step: a mismatch is a failure of its own beside a
        // failed step's. (Not again after an `expect_reconciled` that failed: it has just compared the ledger.)
        var ledger: ScenarioResult.Ledger?
        let failedReconciling = failed.contains { step, _ in if case .expectReconciled = scenario.steps[step - 1] { true } else { false } }
        if let location = scenario.appLedger, !failedReconciling, last == scenario.steps.count {
            notes += runner.waitForTheApp(before: nil, serving: serving).map { "after the last step: \($0)" }
            let action = "app.ledger, after the last step"
            switch runner.reconcile(location, account: nil, action: action) {
            case .agreed(let entries): ledger = .reconciled(entries)
            case .notServed(let sentence):
                ledger = .notChecked
                notes.append(sentence)
            case .failed(let message, let unreadable):
                ledger = .failed(message, unreadable: unreadable)
                if failure == nil { failure = (scenario.steps.count, message) }
                let problems = unreadable ? [Judgement.Problem(check: nil, cashouts: [], text: message)] : runner.mismatches(action: action).problems
                for problem in problems { book.add(problem, at: nil, otherwise: .otherSteps) }
            }
        }
        // What else the run shows once a step failed, as the report judges it at the end: its findings, when the suite
        // read no report itself.
        var foundAfter: (lines: [String], errors: [Timeline.Finding]) = ([], [])
        let readReport = verdicts.indices.contains { index in
            switch verdicts[index] {
            case .passed, .failed: isReport(scenario, step: index + 1)
            case .skipped, .notRun: false
            }
        }
        if serving.judgesAfterFailure, failure != nil, !readReport {
            let (json, errors) = sandbox.reportWithErrors()
            // Not again what the failures say (a ledger mismatch).
            let said = failed.map(\.1) + (ledger.flatMap { if case .failed(let text, _) = $0 { text } else { nil } }.map { [$0] } ?? [])
            let lines = Sandbox.reportFindingLines(json).filter { line in
                let occurrences = line.split(separator: "): ", maxSplits: 1).last.map(String.init) ?? line
                return !said.contains { $0.contains(occurrences) }
            }
            foundAfter = (lines, errors)
        }
        // The moment the run is judged: after the steps and the ledger read.
        let judged = (at: sandbox.bank.clock.now, real: VirtualClock.wallMilliseconds())
        sandbox.suite.end(failure: failure.map { "step \($0.0): \($0.1)" }, step: failure?.0)
        // What runs beside is stopped once the steps are over, when the run failed (an app waiting for a payout that never
        // came would wait for ever), or once the last step of a try that ends early has run.
        let stoppedAfter = failure?.0 ?? (last < scenario.steps.count ? last : nil)
        if let stoppedAfter, let stepFailed = serving.stepFailed { stepFailed(stoppedAfter) }
        // The app beside the steps may still be calling: the sandbox serves it until it ends.
        var command = beside?.wait()
        serving.ended?()
        if let stoppedAfter, serving.stepFailed != nil { command?.stoppedAfterStep = stoppedAfter }
        if serving.judgesReportErrors, !verdicts.indices.contains(where: { asksNoErrors(scenario, step: $0 + 1) && verdicts[$0] != .notRun }) {
            let versions = sandbox.reportCheckVersions
            for error in sandbox.reportErrors() where (versions[error.id] ?? .earliest) <= scenario.writtenFor {
                book.add(Judgement.Problem(check: error.id, cashouts: error.cashouts, text: "\(error.id): \(error.text)"), at: "the report",
                         otherwise: .check(error.id))
            }
        }
        var outcome = ScenarioResult(name: scenario.name, file: scenario.file, failure: failure, steps: scenario.steps.count,
                                     seconds: Date().timeIntervalSince(started))
        if let reason = scenario.expectedFailure {
            // Marked as expected to fail (like pytest's xfail): a failing step passes it, and a
            // run where every step held fails it.
            outcome = ScenarioResult(name: scenario.name, file: scenario.file,
                                     failure: failure == nil ? (scenario.steps.count, "expected a failure (\(reason)), but every step passed") : nil,
                                     steps: scenario.steps.count, seconds: Date().timeIntervalSince(started))
            outcome.expectedFailure = failure.map { (reason, $0.0, $0.1) }
        } else {
            outcome.verdicts = verdicts
            outcome.book = book
        }
        outcome.ledger = ledger
        outcome.clockStops = runner.turns?.stops ?? 0
        outcome.command = command
        outcome.foundAfter = foundAfter.lines
        // Judged: the cases, for the dashboard and the run's record (which `examine` writes).
        sandbox.suite.judged(cases: outcome.cases.map(\.json))
        let found = examine?(sandbox, failure != nil) ?? []
        // A follow-up of a payout a failure names that came after the clock had moved on: the knob that waits for it.
        if let turns = runner.turns, failure != nil || !found.isEmpty {
            var named = Set(failed.flatMap { cashoutIDs(in: $0.1, of: sandbox) } + found.flatMap(\.cashouts))
            named.formUnion(sandbox.reports.reconciliation.last?.mismatches.flatMap(\.occurrence.cashouts) ?? [])
            notes += turns.lateFollowUpNotes(of: named)
        }
        outcome.notes = notes
        if serving.timeline != .none {
            outcome.timeline = Self.timeline(of: sandbox, scenario, failures: outcome.failures.map { ($0.step, $0.message) },
                                             found: foundAfter.errors + found, judged: judged,
                                             references: runner.references.mapValues(\.cashoutID), always: serving.timeline == .always)
            let cases = outcome.cases.map(\.json)
            outcome.timeline?.cases = cases
        }
        if journal { outcome.journal = Self.journal(of: sandbox.bank) }
        // Kept open, as it ended, for as long as asked (`test --serve --keep`: the dashboard on the run's end state).
        serving.kept?(sandbox, outcome)
        sandbox.stop()
        // A load scenario leaves hundreds of megabytes of objects: most often freed on another
        // thread (whichever lets go last), so the result and the next scenario need not wait.
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(sandbox) {} }
        return outcome
    }

    /// Why a step that names `links` cannot run: it uses a payout or a value that a step that failed, or was skipped,
    /// was to give (`lost`); nil when it can.
    private static func skipReason(_ links: StepLinks, lost: [String: String]) -> String? {
        if let name = links.payoutsUsed.first(where: { lost[$0] != nil }) { return "`\(name)` was never created (\(lost[name]!))" }
        if let name = links.valuesUsed.first(where: { lost[$0] != nil }) { return "`\(name)` was never saved (\(lost[name]!))" }
        return nil
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

    /// The timeline of what the run's failures name (each failed step's cashouts, by id or by the name a step gave it in
    /// `references`; the ledger's mismatches; what `found` says), judged at `judged`; with `always`, of every payout
    /// when nothing failed; nil for none.
    private static func timeline(of sandbox: Sandbox, _ scenario: Scenario, failures: [(Int, String)], found: [Timeline.Finding],
                                 judged: (at: VirtualTime, real: Int64), references: [String: Int], always: Bool) -> Timeline? {
        let mismatches = sandbox.reports.reconciliation.last?.mismatches ?? []
        var findings = mismatches.map { Timeline.Finding(id: "ledger_mismatch", text: $0.occurrence.summary, cashouts: $0.occurrence.cashouts) }
        var steps: [Timeline.Finding] = []
        for (step, message) in failures {
            // A report step that failed stands for the report's errors, each on the cashouts it concerns; a ledger's
            // mismatch, for the mismatches above.
            let errors = isReport(scenario, step: step) ? sandbox.reportErrors() : []
            findings += errors.filter { !findings.contains($0) }
            guard errors.isEmpty, !message.contains("ledger_mismatch") || mismatches.isEmpty else { continue }
            let first = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? message
            let words = Set(first.split { !$0.isLetter && !$0.isNumber && $0 != "_" && $0 != "-" }.map(String.init))
            let referred = references.filter { words.contains($0.key) }.map(\.value).sorted()
            let named = cashoutIDs(in: message, of: sandbox)
            steps.append(Timeline.Finding(id: "step \(step)", text: first, cashouts: named + referred.filter { !named.contains($0) }))
        }
        findings = failures.isEmpty ? [] : steps + findings
        for finding in found where !findings.contains(finding) { findings.append(finding) }
        let named = findings.flatMap(\.cashouts)
        guard !named.isEmpty || always else { return nil }
        let ids = named.isEmpty ? sandbox.bank.payouts().map(\.id) : Array(Set(named)).sorted()
        return sandbox.timeline(of: ids, title: "\(scenario.name) (\(scenario.file))", findings: findings, judged: judged)
    }

    /// Whether step `step` (from 1) of `scenario` is an `expect_report` that asks for no errors.
    static func asksNoErrors(_ scenario: Scenario, step: Int) -> Bool {
        guard scenario.steps.indices.contains(step - 1), case .expectReport(let expected) = scenario.steps[step - 1] else { return false }
        return expected.noErrors
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
