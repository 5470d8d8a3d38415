package import SandboxBank
package import SandboxSupport

/// The integration report: for each account, what its app gets wrong (findings, each with its
/// evidence and advice), what held (`passed`) and what nothing showed either way
/// (`not_exercised`). Made from evidence each time it is asked for; nothing is stored.
///
/// ```swift
/// let report = IntegrationReport(accounts: [(evidence, dialect.integrationChecks)], at: clock.now)
/// report.json   // {"ok": false, "errors": 1, "warnings": 0, "checks": 8, "not_exercised": 5, "accounts": [...], "at": "…"}
/// ```
package struct IntegrationReport: Sendable {
    /// One check's failure on one account: its occurrences merged.
    package struct Finding: Sendable {
        package let check: IntegrationCheck
        package let occurrences: [Occurrence]

        package var id: String { check.id }
        /// Every cashout it concerns, ascending.
        package var cashouts: [Int] { Array(Set(occurrences.flatMap(\.cashouts))).sorted() }

        var json: JSON {
            ["id": .string(check.id), "severity": .string(check.severity.rawValue), "cashouts": .array(cashouts.map { .number($0) }),
             "occurrences": .array(occurrences.map { .string($0.summary) }),
             "evidence": .array(occurrences.flatMap(\.evidence).sorted { ($0.at, $0.sequence) < ($1.at, $1.sequence) }.map(\.json)),
             "advice": .string(check.advice)]
        }
    }

    /// One account's part.
    package struct AccountReport: Sendable {
        package let evidence: AccountEvidence
        package let findings: [Finding]
        package let passed: [String]
        package let notExercised: [String]

        init(evidence: AccountEvidence, checks: [IntegrationCheck]) {
            self.evidence = evidence
            var findings: [Finding] = [], passed: [String] = [], notExercised: [String] = []
            for check in checks {
                switch check.evaluate(evidence) {
                case .passed: passed.append(check.id)
                case .notExercised: notExercised.append(check.id)
                case .failed(let occurrences): findings.append(Finding(check: check, occurrences: occurrences))
                }
            }
            self.findings = findings
            self.passed = passed
            self.notExercised = notExercised
        }

        var json: JSON {
            ["account": .string(evidence.account), "dialect": .string(evidence.dialect), "known": .bool(evidence.known),
             "requests": .number(evidence.requests.count), "cashouts": .number(evidence.payouts.count),
             "findings": .array(findings.map(\.json)), "passed": .array(passed.map(JSON.string)),
             "not_exercised": .array(notExercised.map(JSON.string))]
        }
    }

    package let accounts: [AccountReport]
    package let at: VirtualTime
    /// What the checks judged by.
    let thresholds: ReportThresholds
    /// Every check of every account, by dialect and id: what `check_descriptions` explains (each
    /// API words its checks its own way).
    private let checks: [String: [String: IntegrationCheck]]

    package init(accounts: [(evidence: AccountEvidence, checks: [IntegrationCheck])], at: VirtualTime, thresholds: ReportThresholds = .standard) {
        self.accounts = accounts.map { AccountReport(evidence: $0.evidence, checks: $0.checks) }
        self.at = at
        self.thresholds = thresholds
        var checks: [String: [String: IntegrationCheck]] = [:]
        for (evidence, list) in accounts {
            for check in list where checks[evidence.dialect]?[check.id] == nil { checks[evidence.dialect, default: [:]][check.id] = check }
        }
        self.checks = checks
    }

    package var findings: [Finding] { accounts.flatMap(\.findings) }
    package var errors: Int { findings.filter { $0.check.severity == .error }.count }
    var warnings: Int { findings.filter { $0.check.severity == .warning }.count }
    /// How many checks were made: each account's.
    var checksMade: Int { accounts.reduce(0) { $0 + $1.findings.count + $1.passed.count + $1.notExercised.count } }
    /// How many of them nothing exercised: a clean report with many says little.
    package var notExercised: Int { accounts.reduce(0) { $0 + $1.notExercised.count } }

    /// `{"ok": true, "errors": 0, "warnings": 0, "checks": 8, "not_exercised": 6, "at": "…",
    /// "thresholds": {...}, "check_descriptions": {dialect: {id: line}}, "accounts": [...]}`: `ok` when no
    /// finding is an error.
    package var json: JSON {
        ["ok": .bool(errors == 0), "errors": .number(errors), "warnings": .number(warnings), "at": .string(at.iso8601),
         "checks": .number(checksMade), "not_exercised": .number(notExercised),
         "thresholds": ["follow_up_within": .string(DurationText.format(thresholds.followUpWithin)),
                        "status_polling": ["limit": .number(thresholds.pollingLimit), "per": .string(DurationText.format(thresholds.pollingPer))]],
         "check_descriptions": .object(checks.mapValues { .object($0.mapValues { .string($0.description ?? $0.advice) }) }),
         "accounts": .array(accounts.map(\.json))]
    }
}
