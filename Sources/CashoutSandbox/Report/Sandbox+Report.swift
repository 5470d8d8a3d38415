import SandboxBank
package import SandboxSupport
package import SandboxContract

// The integration report of a sandbox (`GET /sandbox/report`, `Sandbox.integrationReport`), made
// by CashoutSandbox (`IntegrationReport.make`), and a report's tally.

extension Sandbox {
    /// The integration report as `GET /sandbox/report` answers it: 200 and the report (of
    /// `account` alone when given), 404 for an account the sandbox neither has nor saw, 409
    /// `{"ok": false, "unknowable": true, "message"}` when the request log lost evidence.
    /// Judged by `thresholds`, else by those of the scenario setup in force.
    func integrationReport(account: String? = nil, thresholds: ReportThresholds? = nil) -> (status: Int, json: JSON) {
        IntegrationReport.answer(bank: bank, requestLog: requestLog, sender: sender, dialects: dialects, account: account,
                                 thresholds: thresholds ?? reports.thresholds, reconciliation: reports.reconciliation.last, at: bank.clock.now)
    }

    /// ``integrationReport(account:thresholds:)``'s answer, and the report it is made of when it is 200 (typed: each
    /// finding's occurrences with the cashouts each concerns).
    package func integrationReportMade(account: String? = nil) -> (status: Int, json: JSON, report: IntegrationReport?) {
        switch IntegrationReport.make(bank: bank, requestLog: requestLog, sender: sender, dialects: dialects, account: account,
                                      thresholds: reports.thresholds, reconciliation: reports.reconciliation.last, at: bank.clock.now) {
        case .success(let report) where account == nil || !report.accounts.isEmpty:
            return (200, report.json, report)
        default:
            let answer = integrationReport(account: account)  // the refusal, in the API's words
            return (answer.status, answer.json, nil)
        }
    }

    /// The version that added each report check of its APIs, by id (``IntegrationCheck/since``; the
    /// earliest where two APIs have the same id).
    package var reportCheckVersions: [String: SandboxVersion] {
        var versions: [String: SandboxVersion] = [:]
        for check in dialects.values.flatMap({ $0.asReportingDialect?.integrationChecks ?? [] }) {
            versions[check.id] = Swift.min(versions[check.id] ?? check.since, check.since)
        }
        return versions
    }

    /// What a report judged, in a line: `0 errors, 0 warnings; 6 of 8 checks not exercised` (the
    /// part after `;` only when a check was not exercised), as `cashout-sandbox report` ends and
    /// a failed `expect_report` says.
    package static func reportTally(_ report: JSON) -> String {
        func count(_ key: String) -> Int { report[key]?.numberText.flatMap { Int($0) } ?? 0 }
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        let (checks, idle) = (count("checks"), count("not_exercised"))
        return plural(count("errors"), "error") + ", " + plural(count("warnings"), "warning")
            + (idle == 0 ? "" : "; \(idle) of \(plural(checks, "check")) not exercised")
    }

    /// A report's findings (those of `severities`; nil: all), a line each as a failed `expect_report`
    /// lists them: `late_rejection_missed (error, sandbox_login): the REJECTED notification of ...`
    /// (its occurrences joined by `; `).
    package static func reportFindingLines(_ report: JSON, severities: Set<String>? = nil) -> [String] {
        (report["accounts"]?.arrayValue ?? []).flatMap { account in
            (account["findings"]?.arrayValue ?? []).compactMap { finding -> String? in
                let severity = finding["severity"]?.stringValue ?? ""
                guard severities?.contains(severity) ?? true else { return nil }
                return "\(finding["id"]?.stringValue ?? "") (\(severity), \(account["account"]?.stringValue ?? "")): "
                    + (finding["occurrences"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: "; ")
            }
        }
    }
}
