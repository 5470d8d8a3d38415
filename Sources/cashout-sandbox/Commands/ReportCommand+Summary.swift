import CashoutSandbox
import SandboxSupport

extension ReportCommand {
    /// The report for a terminal, wrapped at 80 columns: per account a line with what it did and
    /// its counts, each finding (severity, id, the cashouts it concerns; its occurrences, evidence
    /// and advice under it), then `passed:` and `not exercised:`; last `N errors, N warnings`, and
    /// how many checks nothing exercised (a clean report that judged little says so).
    ///
    /// ```
    /// sandbox_login (d24; 3 requests, 1 cashout): 1 error, 0 warnings
    ///   error   late_rejection_missed (cashout 1000001)
    ///     - the REJECTED notification of cashout 1000001 was acknowledged, but POST
    ///       /v3/cashout/status was not asked for it at all
    ///     evidence: notification 3 (REJECTED) attempt 1 at 2026-01-07T10:05:00Z: 200
    ///     advice: A completed cashout can still be reversed by the bank: ...
    ///   passed: notification_failed, notification_not_followed_up
    ///   not exercised: forged_notification_accepted, idempotency_key_reused
    ///
    /// 1 error, 0 warnings; 2 of 8 checks not exercised
    /// ```
    static func summary(of report: JSON) -> String {
        let accounts = report["accounts"]?.arrayValue ?? []
        var lines = accounts.isEmpty ? ["No account has made a request or has a cashout: nothing to report.", ""] : []
        for account in accounts { lines += self.lines(of: account) + [""] }
        lines.append(Sandbox.reportTally(report))
        return lines.joined(separator: "\n")
    }

    private static func lines(of account: JSON) -> [String] {
        let findings = account["findings"]?.arrayValue ?? []
        let errors = findings.filter { $0["severity"]?.stringValue == "error" }.count
        let facts = [text(account["dialect"])] + (account["known"]?.boolValue == false ? ["unknown account"] : [])
        let activity = plural(count(account["requests"]), "request") + ", " + plural(count(account["cashouts"]), "cashout")
        var lines = ["\(text(account["account"])) (\(facts.joined(separator: ", ")); \(activity)): "
                     + (findings.isEmpty ? "ok" : counts(errors: errors, warnings: findings.count - errors)) + idle(account)]
        for finding in findings {
            let severity = text(finding["severity"])
            let cashouts = (finding["cashouts"]?.arrayValue ?? []).map { text($0) }
            lines.append("  " + severity + String(repeating: " ", count: max(1, 8 - severity.count)) + text(finding["id"])
                         + (cashouts.isEmpty ? "" : " (\(cashouts.count == 1 ? "cashout" : "cashouts") \(cashouts.joined(separator: ", ")))"))
            for occurrence in finding["occurrences"]?.arrayValue ?? [] { lines.append(wrapped("    - ", text(occurrence), indent: 6)) }
            let evidence = (finding["evidence"]?.arrayValue ?? []).map(describe)
            if !evidence.isEmpty { lines.append(wrapped("    evidence: ", evidence.joined(separator: "; "), indent: 6)) }
            lines.append(wrapped("    advice: ", text(finding["advice"]), indent: 6))
        }
        for (label, key) in [("passed", "passed"), ("not exercised", "not_exercised")] {
            let ids = (account[key]?.arrayValue ?? []).map { text($0) }
            lines.append(wrapped("  \(label): ", ids.isEmpty ? "none" : ids.joined(separator: ", "), indent: 4))
        }
        return lines
    }

    /// One piece of evidence in a line: `#7 POST /v3/cashout/status at T: 200`, or `notification
    /// 3 (REJECTED) attempt 1 at T: 200` (`timed out`, `[forged]` when chaos sent it).
    private static func describe(_ evidence: JSON) -> String {
        let at = text(evidence["at"])
        guard evidence["kind"]?.stringValue == "delivery" else {
            let answer = evidence["status"].flatMap(\.numberText) ?? evidence["answer"]?.stringValue ?? "no answer"
            return "#\(text(evidence["id"])) \(text(evidence["method"])) \(text(evidence["path"])) at \(at): \(answer)"
        }
        let answer = evidence["answered"].flatMap(\.numberText) ?? evidence["error"]?.stringValue ?? "no answer"
        let chaos = evidence["chaos"]?.stringValue.map { " [\($0)]" } ?? ""
        // A chaos copy is no attempt of the notification's own: it names the one it copies.
        let attempt = evidence["attempt"]?.numberText.map { "attempt \($0)" }
            ?? "copy" + (evidence["copy_of"]?.numberText.map { " of attempt \($0)" } ?? "")
        return "notification \(text(evidence["notification"])) (\(text(evidence["status"]))) \(attempt)\(chaos) at \(at): \(answer)"
    }

    /// `label` then `body`, wrapped at 80 columns, its next lines indented by `indent`.
    private static func wrapped(_ label: String, _ body: String, indent: Int) -> String {
        label + HelpText.wrap(body.split(separator: " ").map(String.init), start: label.count, indent: indent)
    }

    /// `; 6 of 8 checks not exercised`, or nothing when each was.
    private static func idle(_ account: JSON) -> String {
        let idle = account["not_exercised"]?.arrayValue?.count ?? 0
        let checks = idle + (account["passed"]?.arrayValue?.count ?? 0) + (account["findings"]?.arrayValue?.count ?? 0)
        return idle == 0 ? "" : "; \(idle) of \(plural(checks, "check")) not exercised"
    }

    private static func counts(errors: Int, warnings: Int) -> String { plural(errors, "error") + ", " + plural(warnings, "warning") }
    private static func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
    private static func count(_ value: JSON?) -> Int { value?.numberText.flatMap { Int($0) } ?? 0 }

    /// A string or number member as text; empty for anything else.
    private static func text(_ value: JSON?) -> String { value?.stringValue ?? value?.numberText ?? "" }
}
