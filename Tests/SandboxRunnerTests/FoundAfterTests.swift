@testable import CashoutSandbox
import Foundation
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxRunner
@testable import SandboxContract
import TestHelpers
import Testing

/// A failed step does not hide the rest of the story (the Testing your app guide, "Why a run
/// failed"): in a suite that reads no report itself, the integration report's findings are judged
/// after the steps and printed under the failure; a suite that reads it judges them at its step, as
/// it comes; and a ledger mismatch a finding explains names it.
@Suite struct FoundAfterTests {
    /// An app whose create's answer is lost, which creates again under a new `external_id` and keeps
    /// only that one in its ledger: its reconciliation fails (`report`: a last step that reads the report).
    private func run(report: Bool) throws -> ScenarioResult {
        let ledger = OwedRetryTests.ledgerFile()
        let scenario = try ScenarioLoader.load(Array(#"""
            {"name": "new reference", "app": {"ledger": "\#(ledger)"},
             "faults": [{"when": {"endpoint": "POST /v3/cashout"}, "kind": "drop_after_commit", "every": 1, "times": 1}],
             "steps": [{"wait_for_request": {"request": {"path": "/v3/cashout", "body": {"external_id": "order-1-again"}}}},
                       {"expect_reconciled": {}}\#(report ? #", {"expect_report": {"no_errors": true}}"# : "")]}
            """#.utf8), file: "again.json", vocabulary: Sandbox.standardVocabulary)
        let app: @Sendable (Sandbox) -> CommandOutcome? = { sandbox in
            // Each entry is written before its create is sent (an outbox): the ledger read never races the write.
            for reference in ["order-1", "order-1-again"] {
                let entry = #"{"external_id": "\#(reference)", "amount": "100.00", "status": "PENDING"}"#
                try? Data(#"{"payouts": [\#(entry)]}"#.utf8).write(to: URL(fileURLWithPath: ledger), options: .atomic)
                _ = OwedRetryTests.signed(sandbox, "/v3/cashout", #""external_id":"\#(reference)","country":"BR","currency":"BRL","#
                    + #""amount":"100.00","document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","#
                    + #""beneficiary_lastname":"Silva","bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C","#
                    + #""notification_url":"\#(sandbox.baseURL)/sandbox/sink/again""#)
            }
            return nil
        }
        var serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(50), quietLimit: Waiting.limit, beside: app)
        serving.timeline = .onFailure
        return try ScenarioRunner.run(scenario, serving: serving)
    }

    @Test func aFailedStepIsFollowedByTheReportsFindingsAndTheMismatchNamesItsCause() throws {
        let result = try run(report: false)
        #expect(result.failureText == #"step 2: expect_reconciled: ledger_mismatch: cashout 1000001 (external_id "order-1", 100.00 BRL, "#
                + "PENDING) is not in the app's ledger: the app created it again as cashout 1000002 after its answer was lost")
        #expect(result.foundAfterLines == ["found after the failure: duplicate_after_lost_response (error, sandbox_login): the answer to the "
                                           + "create of external_id order-1 (cashout 1000001) was lost, and the app created again for the same "
                                           + "beneficiary and amount as order-1-again"])
        #expect(result.timeline?.findings.map(\.id) == ["ledger_mismatch", "duplicate_after_lost_response"])
        let junit = JUnitReport.xml([result])
        #expect(junit.contains("is not in the app&apos;s ledger: the app created it again as cashout 1000002 after its answer was lost\n\n"
                               + "found after the failure: duplicate_after_lost_response (error, sandbox_login): the answer to the create"))
    }

    /// Every step runs: the report step after the failed one judges the findings itself, each on a line of its failure.
    @Test func aReportStepAfterTheFailedOneJudgesTheFindings() throws {
        let result = try run(report: true)
        #expect(result.failedSteps.map(\.step) == [2, 3])
        #expect(result.failureTexts[1].hasPrefix("step 3: expect_report: expected no errors, got 2 (2 errors, 0 warnings"))
        #expect(result.failureTexts[1].contains("\nduplicate_after_lost_response (error, sandbox_login): the answer to the create of "
                                                 + "external_id order-1 (cashout 1000001) was lost"))
        #expect(result.foundAfterLines.isEmpty)
        #expect(Set(result.timeline?.findings.map(\.id) ?? []) == ["ledger_mismatch", "duplicate_after_lost_response"])
        // No step named the payouts: each failure is its check's case, or the steps'.
        #expect(result.cases.first?.line == "FAIL other steps: step 2: expect_reconciled: ledger_mismatch: cashout 1000001 (external_id "
                + "\"order-1\", 100.00 BRL, PENDING) is not in the app's ledger: the app created it again as cashout 1000002 after its answer "
                + "was lost")
        let checks = result.cases.filter { $0.verdict == .failed }.map(\.name)
        #expect(checks == ["other steps", "report: duplicate_after_lost_response", "report: ledger_mismatch"])
    }
}
