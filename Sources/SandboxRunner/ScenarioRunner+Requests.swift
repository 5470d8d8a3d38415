import CashoutSandbox
import SandboxBank
import SandboxWire
import SandboxSupport
import SandboxContract

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
        // Those a fault answered before the API saw them: what came, should no retry come.
        var faulted: [Sandbox.MatchedRequest] = []
        while true {
            let (match, newest) = sandbox.firstRequest(matching: pattern, excluding: takenRequests, after: checked)
            checked = newest
            if let found = match, found.unhandled, found.status != status {
                takenRequests.insert(found.id)  // a fault answered it: the app's retry is the request waited for
                faulted.append(found)
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
        guard let first = faulted.first else {
            return "wait_for_request: no request matching \(RequestVerification.summary(pattern)) came within \(DurationText.format(timeout))"
                + Self.nearMisses(answer)
        }
        // It came, and a fault answered it each time: what the app was told, and that it never sent it again.
        let times = faulted.map { Timeline.seconds($0.receivedAt - sandbox.timelines.started) }
        let answers = faulted.compactMap(\.injected)
        let came = if faulted.count == 1 {
            "came at \(times[0]) and was \(answers.first ?? "answered by an injected fault")"
        } else if Set(answers).count == 1 {
            "came \(faulted.count) times (at \(Self.list(times))), and each was \(answers[0])"
        } else {
            "came \(faulted.count) times: " + zip(times, answers).map { "at \($0) it was \($1)" }.joined(separator: ", ")
        }
        return "wait_for_request: \(first.asked) \(came); the app never sent it again within \(DurationText.format(timeout))"
            + Self.nearMisses(answer)
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    /// The report's errors, its exact findings, the checks it exercised: what `expected` asks, of the
    /// checks the suite's version has (`written_for`); a check added later is a note. A failure says
    /// what the report judged (`1 error, 0 warnings; 6 of 8 checks not exercised`), each criterion
    /// that failed on a line of its own; `judged` gets each problem with its check and cashouts.
    mutating func expectReport(_ expected: Step.ReportExpectation) -> String? {
        let (status, report, made) = sandbox.integrationReportMade(account: expected.account)
        let subject = "expect_report" + (expected.account.map { " \($0)" } ?? "")
        guard status == 200, let made else { return "\(subject): \(report["message"]?.stringValue ?? report.serializedString())" }
        let versions = sandbox.reportCheckVersions
        let written = scenario.writtenFor
        func since(_ id: String) -> SandboxVersion { versions[id] ?? .earliest }
        // Every check the report made, and each finding with its account.
        var all: [String] = []
        for account in made.accounts {
            for id in account.findings.map(\.id) + account.passed + account.notExercised where !all.contains(id) { all.append(id) }
        }
        let findings = made.accounts.flatMap { account in account.findings.map { (account: account.evidence.account, finding: $0) } }
        let named = Set(expected.findings ?? []).union(expected.exercised.flatMap { if case .checks(let ids) = $0 { ids } else { nil } } ?? [])
        // A check the suite's version did not have, unless the step names it: a note, never a failure.
        let isNew = { (id: String) in since(id) > written && !named.contains(id) }
        func line(_ found: (account: String, finding: IntegrationReport.Finding)) -> String {
            "\(found.finding.id) (\(found.finding.check.severity.rawValue), \(found.account)): "
                + found.finding.occurrences.map(\.summary).joined(separator: "; ")
        }
        var judgement = Judgement()
        var asked = Set(expected.findings ?? [])
        if expected.noErrors || expected.findings != nil { asked.formUnion(all.filter { !isNew($0) }) }
        switch expected.exercised {
        case .all: asked.formUnion(all.filter { !isNew($0) })
        case .checks(let ids): asked.formUnion(ids)
        case nil: break
        }
        judgement.checks = asked.sorted()
        let tally = " (" + Sandbox.reportTally(report) + ")"
        var failed: [String] = []
        if expected.noErrors {
            let errors = findings.filter { $0.finding.check.severity == .error && !isNew($0.finding.id) }
            for found in errors {
                judgement.problems += found.finding.occurrences.map { occurrence in
                    Judgement.Problem(check: found.finding.id, cashouts: occurrence.cashouts,
                                      text: "\(found.finding.id) (error, \(found.account)): \(occurrence.summary)")
                }
            }
            if !errors.isEmpty {
                failed.append("\(subject): expected no errors, got \(errors.count)\(tally)\n" + errors.map(line).joined(separator: "\n"))
            }
        }
        if let wanted = expected.findings {
            let got = Set(findings.map(\.finding.id).filter { !isNew($0) })
            if got != Set(wanted) {
                let missing = Set(wanted).subtracting(got).sorted(), extra = got.subtracting(wanted).sorted()
                let differences = [missing.isEmpty ? nil : "missing \(missing.joined(separator: ", "))",
                                   extra.isEmpty ? nil : "unexpected \(extra.joined(separator: ", "))"].compactMap { $0 }
                let what = wanted.isEmpty ? "no findings" : "findings \(wanted.sorted().joined(separator: ", "))"
                failed.append("\(subject): expected \(what), \(differences.joined(separator: "; "))\(tally)"
                              + (findings.isEmpty ? "" : "\n" + findings.map(line).joined(separator: "\n")))
                judgement.problems += missing.map { id in
                    Judgement.Problem(check: id, cashouts: [], text: "expected a \(id) finding, the report has none")
                }
                for found in findings where extra.contains(found.finding.id) {
                    judgement.problems += found.finding.occurrences.map { occurrence in
                        Judgement.Problem(check: found.finding.id, cashouts: occurrence.cashouts, text: "unexpected \(found.finding.id) "
                                          + "(\(found.finding.check.severity.rawValue), \(found.account)): \(occurrence.summary)")
                    }
                }
            }
        }
        if let wanted = expected.exercised {
            var exercised = Set(findings.map(\.finding.id))
            for account in made.accounts { exercised.formUnion(account.passed) }
            let required: Set<String> = switch wanted {
            case .all: Set(all.filter { !isNew($0) })
            case .checks(let listed): Set(listed)
            }
            let missing = required.subtracting(exercised).sorted()
            // Each check as the first account whose API has it describes it.
            func description(_ id: String) -> String {
                made.accounts.lazy.compactMap { report["check_descriptions"]?[$0.evidence.dialect]?[id]?.stringValue }.first
                    ?? "no account of the report has this check"
            }
            if !missing.isEmpty {
                failed.append("\(subject): expected \(missing.count == 1 ? "this check" : "these checks") exercised, not exercised: "
                              + missing.joined(separator: ", ") + tally + "\n" + missing.map { "\($0): " + description($0) }.joined(separator: "\n"))
                judgement.problems += missing.map { Judgement.Problem(check: $0, cashouts: [], text: "not exercised: \(description($0))") }
            }
            if case .all = wanted {
                for id in all.filter(isNew) {
                    notes.append("\(subject): \(id) is new in \(since(id)), which this suite was not written for (written_for \(written)): "
                                 + "list it in \"exercised\", or write \"written_for\": \"\(SandboxVersion.current)\" for \"all\" to ask for it")
                }
            }
        }
        // What a check the suite's version did not have found: told, not judged.
        if expected.noErrors || expected.findings != nil {
            for found in findings where isNew(found.finding.id) && (expected.findings != nil || found.finding.check.severity == .error) {
                notes.append("\(subject): \(line(found)) (\(found.finding.id) is new in \(since(found.finding.id)), which this suite was "
                             + "not written for: not judged)")
            }
        }
        judged = judgement
        return failed.isEmpty ? nil : failed.joined(separator: "\n")
    }
}
