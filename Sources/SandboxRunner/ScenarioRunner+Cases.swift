import SandboxContract

// A run's cases (the Testing your app guide, "Cases"): each step in the case of what it names, and
// each failure in the case of what it is about. A failure about a payout the suite named (a
// finding on it, a line of the ledger about it) is judged in that payout's case, once; one about
// no named payout, in the case of its report check, else in its step's.

/// What became of one step of a run.
enum StepVerdict: Sendable, Equatable {
    case passed
    /// What was expected, and what happened instead.
    case failed(String)
    /// Why it did not run: an earlier step could not give what it uses.
    case skipped(String)
    /// It was not reached: the run ended before it (a shrink's try, which its target step decides).
    case notRun
}

extension ScenarioRunner {
    /// What a step judged beyond its message, for the cases: each problem with the report check it is
    /// about (nil: none) and the cashouts it concerns, and the report checks it asked about.
    struct Judgement: Sendable {
        struct Problem: Sendable, Equatable {
            var check: String?
            var cashouts: [Int]
            var text: String
        }

        var checks: [String] = []
        var problems: [Problem] = []
    }
}

/// The cases of a run, made as it is judged: a step at a time, then the ledger after the last step,
/// the command, and (explore's) the report's errors.
struct CaseBook: Sendable {
    private var cases: [SuiteCase] = []
    private var index: [SuiteCase.Subject: Int] = [:]
    /// The case of each payout a step named, by the name.
    private var payoutCases: [String: SuiteCase.Subject] = [:]
    /// The case of each named payout, by its cashout id.
    private var cashoutCases: [Int: SuiteCase.Subject] = [:]

    /// The cases in the order a report lists them: those of steps by their first step, then the report's checks by id, then
    /// the app.
    var all: [SuiteCase] {
        func rank(_ suiteCase: SuiteCase) -> (Int, String) {
            switch suiteCase.subject {
            case .check(let id): (1, id)
            case .app: (2, "")
            default: (0, "")
            }
        }
        return cases.enumerated().sorted { first, second in
            let (a, b) = (rank(first.element), rank(second.element))
            return (a.0, a.1, first.offset) < (b.0, b.1, second.offset)
        }.map(\.element)
    }

    /// The subject of step `number` (from 1) by what it names (`links`): its `case`, else the case of the payout it names
    /// (the one its `as` gives, else the first it uses), else the steps about no payout.
    mutating func subject(of links: StepLinks) -> SuiteCase.Subject {
        if let name = links.caseName {
            if let payout = links.payout, payoutCases[payout] == nil { payoutCases[payout] = .named(name) }
            return .named(name)
        }
        if let payout = links.payout {
            if payoutCases[payout] == nil { payoutCases[payout] = .payout(payout) }
            return payoutCases[payout]!
        }
        let payoutCases = payoutCases
        return links.payoutsUsed.lazy.compactMap { payoutCases[$0] }.first ?? .otherSteps
    }

    /// The payout named `name` is cashout `id`: what concerns it is judged in its case.
    mutating func named(_ name: String, cashout id: Int) {
        guard let subject = payoutCases[name] else { return }
        cashoutCases[id] = subject
        update(subject) { if !$0.cashouts.contains(id) { $0.cashouts.append(id) } }
    }

    /// Step `number` of `subject` went as `verdict` in `seconds`; `judgement`: what a failure of it was about (each problem
    /// in the case of what it concerns), and the report checks it asked about (each its own case).
    mutating func step(_ number: Int, of subject: SuiteCase.Subject, _ verdict: StepVerdict, seconds: Double, judgement: ScenarioRunner.Judgement?) {
        let checks = judgement?.checks.map(SuiteCase.Subject.check) ?? []
        // A report step's time is its checks' in equal shares.
        for subject in checks.isEmpty ? [subject] : checks {
            update(subject) { suiteCase in
                suiteCase.steps.append(number)
                suiteCase.seconds += seconds / Double(max(1, checks.count))
            }
        }
        switch verdict {
        case .passed: break
        case .skipped(let reason): update(subject) { $0.skips.append("step \(number): skipped: \(reason)") }
        case .notRun: update(subject) { $0.skips.append("step \(number): not run") }
        case .failed(let message):
            guard let judgement, !judgement.problems.isEmpty else {
                update(checks.first ?? subject) { $0.failures.append("step \(number): \(message)") }
                return
            }
            for problem in judgement.problems { add(problem, at: "step \(number)", otherwise: subject) }
        }
    }

    /// A failure `at` a moment of the run (`step 26`, `the report`; nil: its text says when): in the cases of the named
    /// payouts it concerns, else its check's, else `subject`'s.
    mutating func add(_ problem: ScenarioRunner.Judgement.Problem, at moment: String?, otherwise subject: SuiteCase.Subject) {
        var payouts: [SuiteCase.Subject] = []
        for id in problem.cashouts { if let subject = cashoutCases[id], !payouts.contains(subject) { payouts.append(subject) } }
        let text = moment.map { "\($0): \(problem.text)" } ?? problem.text
        guard !payouts.isEmpty else {
            update(problem.check.map(SuiteCase.Subject.check) ?? subject) { suiteCase in
                suiteCase.failures.append(text)
                for id in problem.cashouts where !suiteCase.cashouts.contains(id) { suiteCase.cashouts.append(id) }
            }
            return
        }
        for payout in payouts { update(payout) { $0.failures.append(text) } }
        if let check = problem.check {
            let names = payouts.map { "\"\(SuiteCase($0).name)\"" }.joined(separator: ", ")
            let ids = problem.cashouts.map(String.init).joined(separator: ", ")
            let remark = "its finding on cashout \(ids) is judged in case \(names)"
            update(.check(check)) { if !$0.remarks.contains(remark) { $0.remarks.append(remark) } }
        }
    }

    /// How the app the run started ended: its case fails when that failed the run (not when the run stopped it).
    mutating func app(_ command: CommandOutcome) {
        let failure = command.stoppedAfterStep == nil ? command.failure : nil
        update(.app) { suiteCase in if let failure { suiteCase.failures.append(failure) } }
    }

    private mutating func update(_ subject: SuiteCase.Subject, _ change: (inout SuiteCase) -> Void) {
        if index[subject] == nil {
            index[subject] = cases.count
            cases.append(SuiteCase(subject))
        }
        change(&cases[index[subject]!])
    }
}
