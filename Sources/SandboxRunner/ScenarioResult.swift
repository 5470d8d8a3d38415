package import CashoutSandbox
package import SandboxContract

/// How a scenario's steps went.
package struct ScenarioResult: Sendable {
    package let name: String
    package let file: String
    /// The first failing step (1-based) and what was expected against what happened, or with every
    /// step held the app's ledger that disagreed after the last; nil: every step held.
    let failure: (step: Int, message: String)?
    /// What became of each step, in order; empty for a file not loaded, a suite skipped, or one
    /// expected to fail (`expect_failure`).
    var verdicts: [StepVerdict] = []
    /// The run's cases, as they were judged (``cases``).
    var book = CaseBook()
    /// A scenario marked `expect_failure` whose step failed, as expected (then it passed): why it
    /// was expected to, and the failure it showed.
    package var expectedFailure: (reason: String, step: Int, message: String)?
    package let steps: Int
    let seconds: Double
    /// Every cashout with its history, scheduled steps and webhook attempts, one JSON line each,
    /// when asked for (`ScenarioRunner.run(_:journal:)`): the same scenario and seed give the same
    /// journal byte for byte.
    package var journal = ""
    /// What the run noted without failing: a step that went on while the app was still busy
    /// (`step 4: the app was still busy after 10s; the clock moved anyway`).
    package var notes: [String] = []
    /// What the run showed besides a failed step, as the integration report judged it afterwards: a
    /// line a finding (`duplicate_after_lost_response (error, sandbox_login): the answer to ...`).
    var foundAfter: [String] = []
    /// ``foundAfter`` as printed under the failure: `found after the failure: duplicate_after_lost_response (error, ...): ...`.
    package var foundAfterLines: [String] { foundAfter.map { "found after the failure: " + $0 } }
    /// What the app's ledger (`app.ledger`) came to after the steps; nil: the suite names none.
    package var ledger: Ledger?
    /// How many times the clock stopped for the app beside the steps (`AppTurns`).
    var clockStops = 0
    /// The command run beside the steps (`test --serve --exec`), once it ended; nil without one.
    package var command: CommandOutcome?
    /// What happened to the payouts its failures name, in order (the Testing your app guide, "Why a run
    /// failed"); nil when it was not asked for, or the run passed and none was (`Serving.timeline`).
    package var timeline: Timeline?

    /// The timeline of each of `cashouts`, as text: a heading and at most `Timeline.lineLimit` lines each.
    func timelineLines(of cashouts: [Int], realTime: Bool) -> [String] {
        guard let timeline else { return [] }
        return cashouts.flatMap { timeline.lines(of: $0, realTime: realTime) }
    }

    /// The timeline of each payout the failures name, as text: a heading and at most
    /// `Timeline.lineLimit` lines each; real times left out without `realTime`. In the order the
    /// failures name them, or by `order` (explore's: by what they are, the same each run).
    package func timelineLines(realTime: Bool, order: ((Int) -> String)? = nil, rename: (String) -> String = { $0 }) -> [String] {
        guard let timeline, !timeline.findings.isEmpty else { return [] }
        var named: [Int] = []
        for id in timeline.findings.flatMap(\.cashouts) where !named.contains(id) { named.append(id) }
        if let order { named.sort { order($0) < order($1) } }
        return named.flatMap { timeline.lines(of: $0, realTime: realTime, rename: rename) }
    }

    /// Every step held (or failed as expected), and the command beside them, if any, exited with 0.
    package var passed: Bool { failure == nil && commandFailure == nil }

    /// Every failed step with its message, in step order.
    var failedSteps: [(step: Int, message: String)] {
        verdicts.enumerated().compactMap { index, verdict in if case .failed(let message) = verdict { (index + 1, message) } else { nil } }
    }

    /// Every failure with its step, in step order: each failed step's, then the app's ledger that disagreed after the last
    /// step (numbered as the last step, as ``failure`` numbers it when no step failed).
    var failures: [(step: Int, message: String)] {
        let steps = failedSteps
        return steps.isEmpty ? failure.map { [$0] } ?? [] : steps + (ledgerFailure.map { [(self.steps, $0)] } ?? [])
    }

    /// Every failure in a line (or more) each, in step order: `step 3: ...` for each failed step, then the app's ledger
    /// that disagreed after the last step; the first is ``failureText``.
    package var failureTexts: [String] {
        let steps = failedSteps.map { "step \($0.step): \($0.message)" }
        return steps.isEmpty ? failureText.map { [$0] } ?? [] : steps + (ledgerFailure.map { [$0] } ?? [])
    }

    /// The run's cases (the Testing your app guide, "Cases"): its steps' and the report checks' it asked about, by their
    /// first step, then the app's; none for a file not loaded, a suite skipped, or one expected to fail.
    package var cases: [SuiteCase] {
        var book = book
        if let command, !verdicts.isEmpty { book.app(command) }
        return book.all
    }

    /// How many of ``cases`` passed: `19 of 20 cases passed`.
    package var caseTally: String {
        let cases = cases
        return "\(cases.count { $0.verdict == .passed }) of \(cases.count) case\(cases.count == 1 ? "" : "s") passed"
    }

    /// How the command beside the steps failed, when that fails the run: nil when it exited with
    /// 0, or when the run stopped it after a step failed (that step's failure is the run's).
    package var commandFailure: String? {
        guard let command, command.stoppedAfterStep == nil else { return nil }
        return command.failure
    }
    /// The app's ledger read after the steps.
    package enum Ledger: Sendable, Equatable {
        /// It agreed with the bank on this many payouts.
        case reconciled(Int)
        /// Nothing answered where it was to be read.
        case notChecked
        /// It disagreed, or could not be read (`unreadable`): the message. When no step failed,
        /// it is the run's `failure` too; else a failure of its own beside the step's.
        case failed(String, unreadable: Bool)
    }

    /// What a passing run says of the ledger: `ledger: 7 payouts reconciled`, `ledger not checked`;
    /// nil without one.
    package var ledgerSummary: String? {
        switch ledger {
        case .reconciled(let count): "ledger: \(count) payout\(count == 1 ? "" : "s") reconciled"
        case .notChecked: "ledger not checked"
        case .failed, nil: nil
        }
    }

    /// A failure besides the failed step's: the app's ledger that disagreed after it.
    var ledgerFailure: String? {
        guard case .failed(let message, _) = ledger, failure?.message != message else { return nil }
        return message
    }

    /// The file could not be loaded: no step ran (an error of the suite, not a failed step).
    package private(set) var unloadable = false
    /// Why it was not run (a suite that needs an app, without `--serve`): it neither passed nor failed.
    package private(set) var skipped: String?

    /// The failure in one line: `step 3: expected ...`, or for a failure before any step (a file
    /// that could not be loaded, a sandbox that could not start) what went wrong alone.
    package var failureText: String? {
        failure.map { $0.step == 0 ? $0.message : "step \($0.step): \($0.message)" }
    }

    package init(name: String, file: String, failure: (step: Int, message: String)?, steps: Int, seconds: Double) {
        self.name = name
        self.file = file
        self.failure = failure
        self.steps = steps
        self.seconds = seconds
    }

    /// The same result under another name, failing with `failure` instead (explore's: `run 3 (seed 42)`, failing by its
    /// report's errors when no step failed).
    func renamed(_ name: String, failure: (step: Int, message: String)?) -> ScenarioResult {
        var copy = ScenarioResult(name: name, file: file, failure: failure, steps: steps, seconds: seconds)
        (copy.verdicts, copy.book, copy.expectedFailure, copy.journal, copy.notes) = (verdicts, book, expectedFailure, journal, notes)
        (copy.foundAfter, copy.ledger, copy.clockStops, copy.command, copy.timeline) = (foundAfter, ledger, clockStops, command, timeline)
        return copy
    }

    /// A suite not run, and why.
    package init(skipped scenario: Scenario, because reason: String) {
        self.init(name: scenario.name, file: scenario.file, failure: nil, steps: scenario.steps.count, seconds: 0)
        skipped = reason
    }

    /// A file that could not be loaded: named by its path, failed before any step.
    package init(unloadable error: ScenarioError) {
        self.init(name: error.file, file: error.file, failure: (0, error.message), steps: 0, seconds: 0)
        unloadable = true
    }
}
