import CashoutSandbox
import SandboxBank
import SandboxHTTP
import SandboxJSON
import SandboxScenario
import SandboxSupport

// The steps that look at what the app under test sent: `expect_requests` (a verification, as
// `POST /sandbox/requests/verify` answers it), `wait_for_request` (waits for the app) and
// `expect_report` (the integration report, as `GET /sandbox/report` makes it).

extension ScenarioRunner {
    func expectRequests(_ verification: JSON) -> String? {
        let (status, answer) = sandbox.verifyRequests(verification)
        guard status != 200 else { return nil }
        return "expect_requests: " + (answer["message"]?.stringValue ?? answer.serializedString()) + Self.nearMisses(answer)
    }

    /// `; near misses: request 3 POST /v3/cashout: body.amount: …`, or nothing.
    private static func nearMisses(_ answer: JSON) -> String {
        let misses = answer["near_misses"]?.arrayValue ?? []
        return misses.isEmpty ? "" : "; near misses: " + misses.map(Sandbox.nearMissLine).joined(separator: ", ")
    }

    /// Polls the journal every 10 ms, reading what came since the last poll, until a request
    /// matches (taking it), or `timeout` passes. A create the API refused is passed over when the
    /// app sends a matching request again (a login and the same cashout after a 403, a retry after
    /// a 5xx, a fixed signature after a 401); it fails the step, with or without `as`, once the app
    /// has been quiet for the quiet period without sending one: it created nothing, even when its
    /// reference names a cashout made before. One a scenario's fault answered before the API saw it
    /// (an error, a closed connection) is taken and passed over: the app's retry is what the step
    /// waits for. With `status`, the request must have been answered so, and a refusal of that
    /// status is what the step expected.
    mutating func waitForRequest(_ json: JSON, timeout: Duration, name: String?, status: Int?) -> String? {
        let pattern: RequestPattern
        do { pattern = try RequestPattern.read(ScenarioNode(value: json, path: "wait_for_request.request", file: scenario.file)) } catch {
            return "wait_for_request: \(error.message)"
        }
        let deadline = ContinuousClock.now + timeout
        let quietPeriod = turns?.quietPeriod ?? Serving.defaultQuietPeriod
        var checked = 0
        // The last refused create, and when it was seen: the app may still send it again.
        var refused: (message: String, since: Int64)?
        while true {
            let (match, newest) = sandbox.firstRequest(matching: pattern, excluding: takenRequests, after: checked)
            checked = newest
            if let found = match, found.unhandled, found.status != status {
                takenRequests.insert(found.id)  // a fault answered it: the app's retry is the request waited for
                continue
            }
            if let found = match {
                takenRequests.insert(found.id)
                if let status, found.status != status {
                    return "wait_for_request: request \(found.id) (\(found.summary)): expected status \(status)"
                }
                // A refusal holds only as the answer expected: never as a 2xx (a gRPC error travels
                // in a 200), and never for `as`, since it made nothing to name.
                if let refusal = found.refusal, status == nil || name != nil || (200 ..< 300).contains(status ?? 0) {
                    refused = ("wait_for_request: request \(found.id) (\(found.summary)) is a create the API refused: \(refusal)"
                        + (name.map { "; it created no cashout to name \"\($0)\"" } ?? "") + ", and the app sent no matching request again",
                               AppActivity.now())
                    continue
                }
                guard let name else { return nil }
                guard let payout = found.payout else {
                    return "wait_for_request: request \(found.id) (\(found.summary)) created no cashout to name \"\(name)\""
                }
                references[name] = Reference(cashoutID: payout.id, externalID: payout.reference ?? "")
                return nil
            }
            if let refused, sandbox.activity.quietLeft(for: quietPeriod, since: refused.since) == nil { return refused.message }
            guard ContinuousClock.now < deadline else { break }
            OSThread.sleep(nanoseconds: 10_000_000)
        }
        if let refused { return refused.message }
        let (_, answer) = sandbox.verifyRequests(["request": json])
        return "wait_for_request: no request matching \(RequestVerification.summary(pattern)) came within \(DurationText.format(timeout))"
            + Self.nearMisses(answer)
    }

    /// The report's errors, its exact findings, the checks it exercised: what `expected` asks. A
    /// failure says what the report judged (`1 error, 0 warnings; 6 of 8 checks not exercised`).
    func expectReport(_ expected: Step.ReportExpectation) -> String? {
        let (status, report) = sandbox.integrationReport(account: expected.account)
        let subject = "expect_report" + (expected.account.map { " \($0)" } ?? "")
        guard status == 200 else { return "\(subject): \(report["message"]?.stringValue ?? report.serializedString())" }
        let accounts = report["accounts"]?.arrayValue ?? []
        let findings = accounts.flatMap { account in
            (account["findings"]?.arrayValue ?? []).map { (account: account["account"]?.stringValue ?? "", finding: $0) }
        }
        let judged = " (" + Sandbox.reportTally(report) + ")"
        if expected.noErrors {
            let errors = Sandbox.reportFindingLines(report, severities: ["error"])
            if !errors.isEmpty { return "\(subject): expected no errors, got \(errors.count)\(judged)\n" + errors.joined(separator: "\n") }
        }
        if let wanted = expected.findings {
            let got = Set(findings.compactMap { $0.finding["id"]?.stringValue })
            if got != Set(wanted) {
                let missing = Set(wanted).subtracting(got).sorted(), extra = got.subtracting(wanted).sorted()
                let differences = [missing.isEmpty ? nil : "missing \(missing.joined(separator: ", "))",
                                   extra.isEmpty ? nil : "unexpected \(extra.joined(separator: ", "))"].compactMap { $0 }
                let what = wanted.isEmpty ? "no findings" : "findings \(wanted.sorted().joined(separator: ", "))"
                return "\(subject): expected \(what), \(differences.joined(separator: "; "))\(judged)"
                    + (findings.isEmpty ? "" : "\n" + Sandbox.reportFindingLines(report).joined(separator: "\n"))
            }
        }
        if let wanted = expected.exercised {
            func ids(_ key: String) -> Set<String> {
                Set(accounts.flatMap { ($0[key]?.arrayValue ?? []).compactMap(\.stringValue) })
            }
            let exercised = ids("passed").union(findings.compactMap { $0.finding["id"]?.stringValue })
            let required: Set<String> = switch wanted {
            case .all: exercised.union(ids("not_exercised"))
            case .checks(let listed): Set(listed)
            }
            let missing = required.subtracting(exercised).sorted()
            if !missing.isEmpty {
                // Each check as the first account whose API has it describes it.
                func description(_ id: String) -> String? {
                    accounts.lazy.compactMap { report["check_descriptions"]?[$0["dialect"]?.stringValue ?? ""]?[id]?.stringValue }.first
                }
                return "\(subject): expected \(missing.count == 1 ? "this check" : "these checks") exercised, not exercised: "
                    + missing.joined(separator: ", ") + judged + "\n"
                    + missing.map { id in "\(id): " + (description(id) ?? "no account of the report has this check") }
                        .joined(separator: "\n")
            }
        }
        return nil
    }
}
