import CashoutSandbox
import Foundation
import SandboxJSON
import SandboxRunner
import SandboxScenario
import Testing

private func run(_ steps: String, setup: String = "") throws -> ScenarioResult {
    let text = #"{\#(setup)"steps": \#(steps)}"#
    return ScenarioRunner.run(try ScenarioLoader.load(Array(text.utf8), file: "t.json", vocabulary: Sandbox.standardVocabulary))
}

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
             {"request": {"method": "GET", "path": "/sandbox/cashouts/{{second.cashout_id}}"}, "expect": {"status": 200, "json_contains": {"external_id": "b"}}}]
            """#)
        #expect(result.failure == nil, "\(result.failureText ?? "")")
    }

    @Test func aWaitThatTimesOutSaysWhatCameInstead() throws {
        let result = try run(#"""
            [{"create_cashout": {"external_id": "a", "amount": "50.00"}},
             {"wait_for_request": {"request": {"path": "/v3/cashout", "body": {"amount": {"gte": 100}}}, "timeout": "200ms"}}]
            """#)
        #expect(result.failure?.step == 2)
        #expect(result.failure?.message == #"wait_for_request: no request matching /v3/cashout with body.amount >= 100.00 came within 200ms; near misses: request 1 POST /v3/cashout: body.amount: expected >= 100.00, got "50.00""#)
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
            expect_report: expected no errors, got 1
            signature_errors (error, sandbox_login): 1 request refused: wrong_pass: pass does not match merchant sandbox_login's passphrase "sandbox_pass"
            """#)
        let wrong = try run("[\(refused) {\"expect_report\": {\"account\": \"sandbox_login\", \"findings\": [\"late_rejection_missed\"]}}]")
        #expect(wrong.failure?.message.hasPrefix("expect_report sandbox_login: expected findings late_rejection_missed, missing late_rejection_missed; unexpected signature_errors\n") == true)
    }

    @Test func stepsThatCannotBeRunAreRefusedWhenTheFileLoads() {
        for (steps, message) in [
            (#"[{"expect_report": {"findings": ["late_rejection"]}}]"#,
             #"t.json: steps[0].expect_report.findings[0]: expected a finding's id: duplicate_after_lost_response, expired_token_used, forged_notification_accepted, idempotency_key_reused, late_rejection_missed, ledger_mismatch, notification_failed, notification_not_followed_up, retried_after_refusal, signature_errors, status_polling_excessive, got "late_rejection""#),
            (#"[{"expect_report": {}}]"#, #"t.json: steps[0].expect_report: expected "no_errors": true or "findings": [ids] (or both)"#),
            (#"[{"wait_for_request": {"timeout": "1s"}}]"#, #"t.json: steps[0].wait_for_request: expected "request": a request pattern, as expect_requests takes"#),
            (#"[{"wait_for_request": {"request": {}}, "expect": {"status": 200}}]"#,
             #"t.json: steps[0].expect: expected only with "request" or "create_cashout" ("as" names the cashout the request created)"#),
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
