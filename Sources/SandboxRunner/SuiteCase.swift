package import SandboxSupport

/// One case of a suite's run (the Testing your app guide, "Cases"), as a QA team's test report
/// lists it: a payout a step names (`as`), a case the suite names itself (`case`), a report check
/// the suite asks about, the steps about no payout, and the app the run started. It holds its steps
/// and every failure about its subject, wherever in the run it showed: a failed step, a finding of
/// the report, a line of the app's ledger.
///
/// ```swift
/// for suiteCase in result.cases { print(suiteCase.verdict.rawValue, suiteCase.name) }   // PASS closed, FAIL completes...
/// ```
package struct SuiteCase: Sendable, Equatable {
    /// How it ended: a failure fails it, a case whose every step was skipped is skipped, any other passed.
    enum Verdict: String, Sendable {
        case passed = "PASS", failed = "FAIL", skipped = "SKIP"
    }

    /// What it is about.
    package enum Subject: Sendable, Hashable {
        /// A payout a step named with `as`, by that name.
        case payout(String)
        /// A case the suite named with `case`.
        case named(String)
        /// One of the integration report's checks the suite asked about, by id.
        case check(String)
        /// The steps that name no payout and no case.
        case otherSteps
        /// The app the run started beside the steps (`--exec`).
        case app
    }

    package let subject: Subject
    /// Its steps (from 1), in order.
    var steps: [Int] = []
    /// What failed, in the order the run found it: `step 1: wait_for_request: ...`, `after the last step: ...`.
    var failures: [String] = []
    /// Its steps that did not run, and why: `step 19: skipped: `completes` was never created (step 1 failed)`.
    var skips: [String] = []
    /// What it said of itself without failing: where a failure about its check was judged instead.
    var remarks: [String] = []
    /// The cashouts it is about: its payout's, and those its failures concern.
    package var cashouts: [Int] = []
    /// The real time its steps took.
    var seconds: Double = 0

    package init(_ subject: Subject) {
        self.subject = subject
    }

    /// `completes`, `report: forged_notification_accepted`, `other steps`, `the app`.
    package var name: String {
        switch subject {
        case .payout(let name), .named(let name): name
        case .check(let id): "report: \(id)"
        case .otherSteps: "other steps"
        case .app: "the app"
        }
    }

    var verdict: Verdict {
        if !failures.isEmpty { return .failed }
        return !steps.isEmpty && skips.count == steps.count ? .skipped : .passed
    }

    /// As `GET /sandbox/suite` lists it: `{"name", "verdict": "passed" | "failed" | "skipped", "steps", "failures",
    /// "skipped", "remarks", "cashouts"}`.
    package var json: JSON {
        let verdict = switch verdict {
        case .passed: "passed"
        case .failed: "failed"
        case .skipped: "skipped"
        }
        return ["name": .string(name), "verdict": .string(verdict), "steps": .array(steps.map { .number($0) }),
                "failures": .array(failures.map(JSON.string)), "skipped": .array(skips.map(JSON.string)),
                "remarks": .array(remarks.map(JSON.string)), "cashouts": .array(cashouts.map { .number($0) })]
    }

    /// Its line under the suite's: `PASS closed (steps 2, 11, 20)`, `FAIL completes: step 1: ...; step 19: skipped: ...`,
    /// each failure's first line.
    package var line: String {
        let what = "\(verdict.rawValue) \(name)"
        switch verdict {
        case .failed:
            return what + ": " + (failures + skips).map { $0.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? $0 }
                .joined(separator: "; ")
        case .skipped:
            return what + ": " + skips.joined(separator: "; ")
        case .passed:
            let told = (steps.isEmpty ? [] : ["step\(steps.count == 1 ? "" : "s") " + steps.map(String.init).joined(separator: ", ")])
                + remarks
            return what + (told.isEmpty ? "" : " (\(told.joined(separator: "; ")))")
        }
    }
}
