@testable import CashoutSandbox
import Foundation
@testable import SandboxSupport
@testable import SandboxRunner
@testable import SandboxContract
import TestHelpers
import Testing
@testable import SandboxWire

private func run(_ steps: String, setup: String = "") throws -> ScenarioResult {
    let text = #"{\#(setup)"steps": \#(steps)}"#
    return ScenarioRunner.run(try ScenarioLoader.load(Array(text.utf8), file: "t.json", vocabulary: Sandbox.standardVocabulary))
}

/// D24's checks (the default merchant's), as its dialect declares them.
private let d24 = DeclaredChecks.d24

/// What a failure says the report judged, `notExercised` of D24's checks not exercised: `8 of 9 checks not exercised`.
private func judged(_ notExercised: Int) -> String { "\(notExercised) of \(d24.count) checks not exercised" }

/// `wait_for_request` (a request of the app's, taken once, naming the cashout it created) and
/// `expect_report` (the integration report's errors or exact findings).
@Suite struct WaitForRequestAndReportStepTests {
    @Test func aWaitTakesTheOldestMatchingRequestNotTakenAndNamesItsCashout() throws {
        let result = try run(#"""
            [{"create_cashout": {"external_id": "a", "amount": "100.00"}},
             {"create_cashout": {"external_id": "b", "amount": "100.00"}},
             {"wait_for_request": {"request": {"method": "POST", "path": "/v3/cashout", "body": {"amount": 100}}}, "as": "first"},
             {"wait_for_request": {"request": {"method": "POST", "path": "/v3/cashout", "body": {"amount": 100}}}, "as": "second"},
             {"expect_cashout": {"ref": "first", "status": "PENDING"}},
             {"request": {"method": "GET", "path": "/sandbox/cashouts/{{second.cashout_id}}"}, "expect": {"status": 200, "json_contains": \#
            {"external_id": "b"}}}]
            """#)
        #expect(result.failure == nil, "\(result.failureText ?? "")")
    }

    @Test func aWaitThatTimesOutSaysWhatCameInstead() throws {
        let result = try run(#"""
            [{"create_cashout": {"external_id": "a", "amount": "50.00"}},
             {"wait_for_request": {"request": {"path": "/v3/cashout", "body": {"amount": {"gte": 100}}}, "timeout": "200ms"}}]
            """#)
        #expect(result.failure?.step == 2)
        #expect(result.failure?.message == #"wait_for_request: no request matching /v3/cashout with body.amount >= 100.00 came within 200ms; near "#
                                           + #"misses: request 1 POST /v3/cashout: body.amount: expected >= 100.00, got "50.00""#)
    }

    @Test func aWaitNamingARequestThatCreatedNothingFails() throws {
        let result = try run(#"""
            [{"request": {"method": "POST", "path": "/v3/cashout/status", "body": "{}"}},
             {"wait_for_request": {"request": {"path": "/v3/cashout/status"}}, "as": "x"}]
            """#)
        #expect(result.failure?.message == #"wait_for_request: request 1 (POST /v3/cashout/status answered 401) created no cashout to name "x""#)
    }

    @Test func expectReportChecksErrorsOrTheExactFindings() throws {
        let refused = #"{"request": {"method": "POST", "path": "/v3/cashout", "body": "{\"login\":\"sandbox_login\",\"pass\":\"no\"}"}},"#
        #expect(try run(#"[{"create_cashout": {}}, {"expect_report": {"no_errors": true}}]"#).failure == nil)
        #expect(try run("[\(refused) {\"expect_report\": {\"findings\": [\"signature_errors\"]}}]").failure == nil)
        let failing = try run("[\(refused) {\"expect_report\": {\"no_errors\": true}}]")
        #expect(failing.failure?.message == #"""
            expect_report: expected no errors, got 1 (1 error, 0 warnings; \#(judged(d24.count - 1)))
            signature_errors (error, sandbox_login): 1 request refused: wrong_pass: pass does not match merchant sandbox_login's passphrase \#
            "sandbox_pass"
            """#)
        let wrong = try run("[\(refused) {\"expect_report\": {\"account\": \"sandbox_login\", \"findings\": [\"late_rejection_missed\"]}}]")
        #expect(wrong.failure?.message.hasPrefix("expect_report sandbox_login: expected findings late_rejection_missed, missing "
                                                 + "late_rejection_missed; unexpected signature_errors (1 error, 0 warnings; "
                                                 + "\(judged(d24.count - 1)))\n") == true)
    }

    @Test func stepsThatCannotBeRunAreRefusedWhenTheFileLoads() {
        let ids = DeclaredChecks.allIDs.joined(separator: ", ")  // every standard API's, sorted
        for (steps, message) in [
            (#"[{"expect_report": {"findings": ["late_rejection"]}}]"#,
             #"t.json: steps[0].expect_report.findings[0]: expected a finding's id: \#(ids), got "late_rejection""#),
            (#"[{"expect_report": {}}]"#,
             #"t.json: steps[0].expect_report: expected "no_errors": true, "findings": [ids] or "exercised": [ids] or "all" (or more than one)"#),
            (#"[{"expect_report": {"exercised": "some"}}]"#,
             #"t.json: steps[0].expect_report.exercised: expected "all" or an array of checks' ids, got "some""#),
            (#"[{"expect_report": {"exercised": ["forged"]}}]"#,
             #"t.json: steps[0].expect_report.exercised[0]: expected a check's id: \#(ids), got "forged""#),
            (#"[{"wait_for_request": {"timeout": "1s"}}]"#,
             #"t.json: steps[0].wait_for_request: expected "request": a request pattern, as expect_requests takes"#),
            (#"[{"wait_for_request": {"request": {}}, "save": {"id": "cashout_id"}}]"#,
             #"t.json: steps[0].save: expected only with "request" or "create_cashout" ("as" names the cashout the request created)"#),
            (#"[{"wait_for_request": {"request": {}}, "expect": {"json": {}}}]"#,
             #"t.json: steps[0].expect.json: unknown key (expected one of: status)"#),
        ] {
            #expect(throws: ScenarioError.self) { try run(steps) }
            do { _ = try run(steps) } catch { #expect("\(error)" == message) }
        }
    }
}

extension WaitForRequestAndReportStepTests {
    /// The schema offers editors the ids the dialects' checks give, no more, no fewer.
    @Test func theSchemaListsEveryFindingTheDialectsGive() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let schema = try JSON.parse(Array(try Data(contentsOf: root.appendingPathComponent("scenarios/schema.json"))))
        let listed = schema["$defs"]?["expectReport"]?["properties"]?["findings"]?["items"]?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(Set(listed) == Sandbox.standardVocabulary.reportFindings && listed.count == Set(listed).count)
    }
}

/// A refused create fails a wait; `expect_report` asks for checks exercised, and its failures say
/// what the report judged.
extension WaitForRequestAndReportStepTests {
    /// Its external_id names a cashout already, but the retry created nothing: `as` names none.
    @Test func aWaitThatTakesARefusedCreateFails() throws {
        let result = try run(#"""
            [{"create_cashout": {"external_id": "a", "amount": "100.00"}},
             {"create_cashout": {"external_id": "a", "amount": "100.00"}, "expect": {"status": 412}},
             {"wait_for_request": {"request": {"method": "POST", "path": "/v3/cashout"}}, "as": "first"},
             {"wait_for_request": {"request": {"method": "POST", "path": "/v3/cashout"}}, "as": "again"}]
            """#)
        #expect(result.failure?.step == 4)
        #expect(result.failure?.message == #"wait_for_request: request 2 (POST /v3/cashout answered 412) is a create the API refused: {"code":511,"#
                                           + #""message":"External ID already used"}; it created no cashout to name "again", and the app sent no "#
                                           + "matching request again")
        let unnamed = try run(#"""
            [{"create_cashout": {"external_id": "a", "amount": "100.00"}},
             {"create_cashout": {"external_id": "a", "amount": "100.00"}, "expect": {"status": 412}},
             {"wait_for_request": {"request": {"method": "POST", "path": "/v3/cashout", "body": {"external_id": "a"}}}},
             {"wait_for_request": {"request": {"method": "POST", "path": "/v3/cashout", "body": {"external_id": "a"}}}}]
            """#)
        #expect(unnamed.failure?.step == 4)
        #expect(unnamed.failure?.message == #"wait_for_request: request 2 (POST /v3/cashout answered 412) is a create the API refused: {"code":511,"#
                                            + #""message":"External ID already used"}, and the app sent no matching request again"#)
    }

    /// A refusal the suite expects (`expect` its status) holds; one it does not, or another answer, fails.
    @Test func aWaitMayExpectTheAnswerARefusal() throws {
        let steps = #"""
            [{"create_cashout": {"external_id": "a", "amount": "100.00"}},
             {"create_cashout": {"external_id": "a", "amount": "100.00"}, "expect": {"status": 412}},
             {"wait_for_request": {"request": {"method": "POST", "path": "/v3/cashout"}}, "expect": {"status": 200}, "as": "made"},
             {"wait_for_request": {"request": {"method": "POST", "path": "/v3/cashout"}}, "expect": {"status": STATUS}}]
            """#
        #expect(try run(steps.replacingOccurrences(of: "STATUS", with: "412")).failure == nil)
        let other = try run(steps.replacingOccurrences(of: "STATUS", with: "200"))
        #expect(other.failure?.step == 4)
        #expect(other.failure?.message == "wait_for_request: request 2 (POST /v3/cashout answered 412): expected status 200")
    }

    /// A wait that expects the fault's own answer takes it.
    @Test func aWaitMayExpectAFaultsAnswer() throws {
        let result = try run(#"""
            [{"create_cashout": {"external_id": "a"}, "expect": {"status": 503}},
             {"wait_for_request": {"request": {"method": "POST", "path": "/v3/cashout"}}, "expect": {"status": 503}}]
            """#, setup: #""faults": [{"when": {"endpoint": "POST /v3/cashout"}, "every": 1, "times": 1, "kind": "error", "status": 503}], "#)
        #expect(result.failure == nil, "\(result.failureText ?? "")")
    }

    /// A fault answered the first create before D24 saw it (a 503, a closed connection): neither
    /// made nor refused, it is passed over, and the wait names what the retry made.
    @Test(arguments: [#""kind": "error", "status": 503"#, #""kind": "close""#])
    func aWaitPassesOverACreateAFaultAnswered(fault: String) throws {
        let result = try run(#"""
            [{"create_cashout": {"external_id": "a", "amount": "100.00"}, "expect": \#
            {\#(fault.hasSuffix("503") ? #""status": 503"# : #""no_response": true"#)}},
             {"create_cashout": {"external_id": "a", "amount": "100.00"}},
             {"wait_for_request": {"request": {"method": "POST", "path": "/v3/cashout"}}, "as": "made"},
             {"expect_cashout": {"ref": "made", "status": "PENDING"}},
             {"wait_for_request": {"request": {"method": "POST", "path": "/v3/cashout"}, "timeout": "1ms"}}]
            """#, setup: #""faults": [{"when": {"endpoint": "POST /v3/cashout"}, "every": 1, "times": 1, \#(fault)}], "#)
        #expect(result.failure?.step == 5, "\(result.failureText ?? "")")
        #expect(result.failure?.message.hasPrefix("wait_for_request: no request matching POST /v3/cashout came within 1ms") == true)
    }

    @Test func expectReportAsksForChecksExercised() throws {
        #expect(try run(#"[{"create_cashout": {}}, {"expect_report": {"no_errors": true, "exercised": ["signature_errors"]}}]"#).failure == nil)
        let all = try run(#"[{"create_cashout": {}}, {"expect_report": {"account": "sandbox_login", "no_errors": true, "exercised": "all"}}]"#,
                          setup: #""written_for": "\#(SandboxVersion.current)", "#)
        let lines = all.failure?.message.split(separator: "\n").map(String.init) ?? []
        // Each of D24's checks but signature_errors, sorted, then a line for each.
        let notExercised = d24.filter { $0 != "signature_errors" }.sorted()
        #expect(lines.first == "expect_report sandbox_login: expected these checks exercised, not exercised: "
            + "\(notExercised.joined(separator: ", ")) (0 errors, 0 warnings; \(judged(notExercised.count)))")
        #expect(lines.dropFirst().map { String($0.prefix { $0 != ":" }) } == notExercised)
        #expect(lines.contains("idempotency_key_reused: the same external_id sent again with another amount or beneficiary; "
                               + "exercised once one is sent twice, or looked up (POST /v3/cashout/status by it) "
                               + "after its create's answer was lost: the two ways to recover a lost answer"))
        let some = try run(#"[{"create_cashout": {}}, {"expect_report": {"exercised": ["signature_errors", "forged_notification_accepted"]}}]"#)
        #expect(some.failure?.message == """
            expect_report: expected this check exercised, not exercised: forged_notification_accepted (0 errors, 0 warnings; \
            \(judged(d24.count - 1)))
            forged_notification_accepted: a notification signed with a wrong key (webhook chaos's forged copy) answered 2xx; exercised by a forged \
            copy \
            once the app has acknowledged a genuine notification (refusing every one shows nothing)
            """)
    }

    /// `"exercised": "all"` means the checks of the version the suite was written for (`written_for`; 0.2.0 when it states
    /// none): a check added since is a note saying what to do, not a failure; named in `exercised`, it is asked for.
    @Test func allMeansTheChecksOfTheVersionTheSuiteWasWrittenFor() throws {
        let earlier = SandboxVersion.unstated
        let new = d24.filter { !DeclaredChecks.ids(of: "d24", writtenFor: earlier).contains($0) }
        #expect(new == ["retried_before_retry_after"])
        let steps = #"[{"create_cashout": {}}, {"expect_report": {"no_errors": true, "exercised": "all"}}]"#
        for setup in ["", #""written_for": "0.2.0", "#] {
            let result = try run(steps, setup: setup)
            let lines = result.failure?.message.split(separator: "\n").map(String.init) ?? []
            // The checks of 0.2.0 not exercised, and not the one added in 0.3.0.
            let notExercised = DeclaredChecks.ids(of: "d24", writtenFor: earlier).filter { $0 != "signature_errors" }.sorted()
            #expect(lines.first == "expect_report: expected these checks exercised, not exercised: "
                    + "\(notExercised.joined(separator: ", ")) (0 errors, 0 warnings; \(judged(d24.count - 1)))")
            #expect(result.notes == ["step 2: expect_report: retried_before_retry_after is new in 0.3.0, which this suite was not written "
                                     + #"for (written_for 0.2.0): list it in "exercised", or write "written_for": "\#(SandboxVersion.current)" "#
                                     + #"for "all" to ask for it"#])
            // Its case is not the suite's.
            #expect(!result.cases.map(\.name).contains("report: retried_before_retry_after"))
        }
        // Named, it is asked for whatever the version.
        let named = try run(#"[{"create_cashout": {}}, {"expect_report": {"exercised": ["retried_before_retry_after"]}}]"#)
        #expect(named.failure?.message.hasPrefix("expect_report: expected this check exercised, not exercised: retried_before_retry_after") == true)
        #expect(named.cases.map(\.line).contains { $0.hasPrefix("FAIL report: retried_before_retry_after: step 2: not exercised: ") })
        // A version the sandbox does not know, or a later one, is refused when the file loads.
        let range = "expected a version from 0.2.0 to \(SandboxVersion.current), this build's"
        for (version, problem) in [("0.1.0", "\(range), got \"0.1.0\""),
                                   ("9.0.0", "\(range): a suite written for a later one needs that cashout-sandbox or a later one, got \"9.0.0\""),
                                   ("0.3", "expected a version such as \"\(SandboxVersion.current)\" (MAJOR.MINOR.PATCH), got \"0.3\"")] {
            let text = #"{"written_for": "\#(version)", "steps": [{"advance": "1s"}]}"#
            #expect(throws: ScenarioError.self) { try ScenarioLoader.load(Array(text.utf8), file: "t.json", vocabulary: Sandbox.standardVocabulary) }
            do {
                _ = try ScenarioLoader.load(Array(text.utf8), file: "t.json", vocabulary: Sandbox.standardVocabulary)
            } catch {
                #expect(error.message == "written_for: \(problem)")
            }
        }
    }

    @Test func expectingNoFindingsSaysSo() throws {
        let refused = #"{"request": {"method": "POST", "path": "/v3/cashout", "body": "{\"login\":\"sandbox_login\",\"pass\":\"no\"}"}},"#
        let result = try run("[\(refused) {\"expect_report\": {\"findings\": []}}]")
        #expect(result.failure?.message == #"""
            expect_report: expected no findings, unexpected signature_errors (1 error, 0 warnings; \#(judged(d24.count - 1)))
            signature_errors (error, sandbox_login): 1 request refused: wrong_pass: pass does not match merchant sandbox_login's passphrase \#
            "sandbox_pass"
            """#)
    }
}

extension WaitForRequestAndReportStepTests {
    /// The suite's `report` key is what `expect_report` judges by: two status queries are too many
    /// when the suite allows one.
    @Test func expectReportJudgesByTheSuitesThresholds() throws {
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"p"}"#
        let query = #"{"request": {"method": "POST", "path": "/v3/cashout/status", "headers": {"Payload-Signature": "#
                    + #""\#(D24Signing.payloadSignature(body))"}, "#
            + #""body": \#(JSON.string(body).serializedString())}, "expect": {"status": 200}},"#
        let steps = #"[{"create_cashout": {"external_id": "p"}}, \#(query) \#(query) {"expect_report": {"findings": []}}]"#
        #expect(try run(steps).failure == nil)
        let strict = try run(steps, setup: #""report": {"status_polling": {"limit": 1, "per": "1h"}}, "#)
        #expect(strict.failure?.message.hasPrefix(
            "expect_report: expected no findings, unexpected status_polling_excessive (0 errors, 1 warning; \(judged(d24.count - 2)))\n"
                + "status_polling_excessive (warning, sandbox_login): cashout 1000001 was asked 2 times within 1h (at most 1 expected)") == true,
                "\(strict.failureText ?? "")")
    }
}

/// A refusal the app recovers from does not fail the wait: it takes the matching request the app
/// sends again, as an app that logs in again after a 403, or fixes its signature after a refusal.
extension WaitForRequestAndReportStepTests {
    private static func recovering(_ app: @escaping @Sendable (Sandbox) -> Void) throws -> ScenarioResult {
        let suite = try ScenarioLoader.load(Array(#"""
            {"name": "recovers", "steps": [{"wait_for_request": {"request": {"path": {"in": ["/cashout/process", "/v3/cashout"]}}}, "as": "c"},
                                           {"expect_cashout": {"ref": "c", "status": {"in": ["pending", "PENDING"]}}}]}
            """#.utf8), file: "r.json", vocabulary: Sandbox.standardVocabulary)
        return try ScenarioRunner.run(suite, serving: ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(200), quietLimit: Waiting.limit,
                                                                              beside: { sandbox in
            app(sandbox)
            return nil
        }))
    }

    /// A Mannco app whose cached token is refused (403) logs in and sends the same cashout.
    @Test func aLoginAndTheSameCashoutAfterA403Pass() throws {
        let result = try Self.recovering { sandbox in
            let process = Array(#"{"amount": 10000, "method": "payoneer"}"#.utf8)
            let refused = try? TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/cashout/process", headers: ["Authorization": "Bearer stale"],
                                             body: process)
            #expect(refused?.status == 403)
            let login = try? TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/user/login",
                                           body: Array(#"{"apiKey": "sandbox_mannco_key"}"#.utf8))
            let jwt = login.flatMap { try? JSON.parse($0.body) }?["content"]?["jwt"]?.stringValue ?? ""
            _ = try? TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/cashout/process", headers: ["Authorization": "Bearer \(jwt)"],
                                   body: process)
        }
        #expect(result.passed, "\(result.failureText ?? "")")
    }

    /// A D24 app refused for its signature sends the create again, signed right.
    @Test func aCreateSignedRightAfterARefusalPasses() throws {
        let result = try Self.recovering { sandbox in
            let body = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"x","country":"BR","currency":"BRL","amount":"10.00","#
                + #""document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","bank_code":"001","#
                + #""bank_account":"3423422-7","bank_branch":"1234","account_type":"C"}"#
            for signature in [D24Signing.payloadSignature(body).uppercased(), D24Signing.payloadSignature(body)] {
                _ = try? TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/v3/cashout", headers: ["Payload-Signature": signature],
                                       body: Array(body.utf8))
            }
        }
        #expect(result.passed, "\(result.failureText ?? "")")
    }

    /// One that does not send it again fails once it has gone quiet, naming the refusal.
    @Test func aRefusalNotSentAgainFailsOnceTheAppIsQuiet() throws {
        let result = try Self.recovering { sandbox in
            _ = try? TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/cashout/process", headers: ["Authorization": "Bearer stale"],
                                   body: Array(#"{"amount": 10000, "method": "payoneer"}"#.utf8))
        }
        #expect(result.failure?.step == 1)
        #expect(result.failure?.message == #"wait_for_request: request 1 (POST /cashout/process answered 403) is a create the API refused: "#
                + #"{"err":true,"success":false,"content":"forbidden"}; it created no cashout to name "c", and the app sent no matching "#
                + "request again")
    }
}
