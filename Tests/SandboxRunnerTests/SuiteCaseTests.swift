@testable import CashoutSandbox
import Foundation
import Synchronization
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxRunner
@testable import SandboxContract
import TestHelpers
import Testing

/// A suite's run as a QA team's test report (the Testing your app guide, "Cases"): every step runs,
/// a step that uses what a failed one was to give is skipped saying why, and each failure is judged
/// once, in the case of what it is about.
@Suite struct SuiteCaseTests {
    private func load(_ text: String) throws -> Scenario {
        try ScenarioLoader.load(Array(text.utf8), file: "cases.json", vocabulary: Sandbox.standardVocabulary)
    }

    /// A create of `amount` from the app (not the suite's own steps: another `User-Agent`), with `external_id` `order-AMOUNT`.
    private static func create(_ sandbox: Sandbox, _ amount: Int) {
        _ = OwedRetryTests.signed(sandbox, "/v3/cashout", #""external_id":"order-\#(amount)","country":"BR","currency":"BRL","#
            + #""amount":"\#(amount).00","document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","#
            + #""beneficiary_lastname":"Silva","bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C""#)
    }

    /// The app sends 101.00, which a rate limit answers and it never sends again, then 102.00. The wait for 101.00, after
    /// the one for 102.00 (so that both came), says what came; the steps that name its payout are skipped; the others run.
    @Test func aFailedWaitFailsItsPayoutsCaseAndTheStepsThatNameItAreSkipped() throws {
        let scenario = try load(#"""
            {"name": "paths", "written_for": "0.3.0",
             "faults": [{"when": {"endpoint": "POST /v3/cashout", "body": {"amount": 101}}, "every": 1, "times": 1, "kind": "rate_limit"}],
             "steps": [{"wait_for_request": {"request": {"path": "/v3/cashout", "body": {"amount": 102}}, "timeout": "1h"}, "as": "b"},
                       {"wait_for_request": {"request": {"path": "/v3/cashout", "body": {"amount": 101}}, "timeout": "1ms"}, "as": "a"},
                       {"expect_cashout": {"ref": "a", "status": "PENDING"}},
                       {"expect_cashout": {"ref": "b", "status": "PENDING"}},
                       {"request": {"method": "GET", "path": "/sandbox/cashouts/{{a.cashout_id}}"}, "expect": {"status": 200}},
                       {"advance": "1s"}]}
            """#)
        let app: @Sendable (Sandbox) -> CommandOutcome? = { sandbox in
            Self.create(sandbox, 101)
            Self.create(sandbox, 102)
            return CommandOutcome(command: "app", ending: .exited(0), output: "")
        }
        let result = try ScenarioRunner.run(scenario, serving: ScenarioRunner.Serving(threads: 2, beside: app))
        let wait = try #require(result.failure)
        #expect(wait.step == 2)
        #expect(wait.message.hasPrefix("wait_for_request: the create of 101.00 came at +"))
        #expect(wait.message.hasSuffix("s and was rate limited (429, Retry-After 1s); the app never sent it again within 1ms"))
        let skipped = ["`a` was never created (step 2 failed)"]
        #expect(result.verdicts == [.passed, .failed(wait.message), .skipped(skipped[0]), .passed, .skipped(skipped[0]), .passed])
        #expect(result.cases.map(\.line) == [
            "PASS b (steps 1, 4)",
            "FAIL a: step 2: \(wait.message); step 3: skipped: \(skipped[0]); step 5: skipped: \(skipped[0])",
            "PASS other steps (step 6)",
            "PASS the app",
        ])
        #expect(result.caseTally == "3 of 4 cases passed")
        // JUnit: a testcase per case, classname the suite, the one failing case with its failure and its skips.
        let xml = JUnitReport.xml([result])
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 4)
        #expect(xml.contains(#"<testsuite name="paths" tests="4" failures="1" errors="0" skipped="0""#))
        #expect(xml.contains(#"<testcase classname="paths" name="a" file="cases.json""#))
        #expect(xml.contains("type=\"StepFailed\">step 2: \(JUnitReport.escape(wait.message))\nstep 3: skipped: "))
    }

    /// A value a failed request was to save: the steps that use it are skipped, saying so; a step that names a case puts
    /// itself and the payout its `as` names there, and with it every later step that names the payout.
    @Test func aNamedCaseHoldsItsPayoutAndAValueNeverSavedSkipsItsSteps() throws {
        let scenario = try load(#"""
            {"name": "named",
             "steps": [{"create_cashout": {"external_id": "n-1"}, "as": "held", "case": "the panel holds it"},
                       {"request": {"method": "POST", "path": "/sandbox/cashouts/{{held.cashout_id}}/actions", "json": {"action": "hold"}},
                        "expect": {"status": 200}},
                       {"request": {"method": "GET", "path": "/sandbox/nothing"}, "expect": {"status": 200}, "save": {"token": "token"}},
                       {"request": {"method": "GET", "path": "/sandbox/cashouts?merchant={{token}}"}, "expect": {"status": 200}},
                       {"expect_cashout": {"ref": "held", "status": "ON_HOLD"}, "case": "checked apart"}]}
            """#)
        let result = ScenarioRunner.run(scenario)
        #expect(result.failedSteps.map(\.step) == [3])
        #expect(result.verdicts[3] == .skipped("`token` was never saved (step 3 failed)"))
        #expect(result.cases.map(\.name) == ["the panel holds it", "other steps", "checked apart"])
        #expect(result.cases.map(\.verdict) == [.passed, .failed, .passed])
        #expect(result.cases[0].steps == [1, 2])
        #expect(result.cases[1].skips == ["step 4: skipped: `token` was never saved (step 3 failed)"])
    }

    /// A case whose every step was skipped is a SKIP, saying why.
    @Test func aCaseWhoseEveryStepWasSkippedIsSkipped() throws {
        let scenario = try load(#"""
            {"name": "skip",
             "steps": [{"request": {"method": "GET", "path": "/sandbox/nothing"}, "expect": {"status": 200}, "save": {"id": "id"}},
                       {"request": {"method": "GET", "path": "/sandbox/cashouts/{{id}}"}, "expect": {"status": 200}, "case": "read it"}]}
            """#)
        let result = ScenarioRunner.run(scenario)
        #expect(result.cases.map(\.line) == ["FAIL other steps: step 1: request GET /sandbox/nothing: expected status 200, got 404 "
                                                 + #"{"code":404,"message":"No such endpoint: GET /sandbox/nothing"}"#,
                                             "SKIP read it: step 2: skipped: `id` was never saved (step 1 failed)"])
        #expect(JUnitReport.xml([result]).contains(#"<skipped message="step 2: skipped: `id` was never saved (step 1 failed)"/>"#))
    }

    /// A ledger line and a finding about a payout the suite named fail that payout's case, once; the check's own case
    /// passes, saying where its finding was judged; the steps' cases that held pass. `GET /sandbox/suite` lists the same
    /// cases once the run is judged.
    @Test func aFailureAboutANamedPayoutIsJudgedInItsCase() throws {
        let ledger = OwedRetryTests.ledgerFile()
        let entries = #"{"payouts": [{"external_id": "l-1", "amount": "100.00", "status": "PENDING"}, "#
            + #"{"external_id": "l-2", "amount": "100.00", "status": "COMPLETED"}]}"#
        try Data(entries.utf8).write(to: URL(fileURLWithPath: ledger))
        let scenario = try load(#"""
            {"name": "ledger", "written_for": "0.3.0", "app": {"ledger": "\#(ledger)"},
             "steps": [{"create_cashout": {"external_id": "l-1", "amount": "100.00"}, "as": "wrong"},
                       {"create_cashout": {"external_id": "l-2", "amount": "100.00"}, "as": "right"},
                       {"advance": "20s"},
                       {"expect_reconciled": {}},
                       {"expect_report": {"no_errors": true, "exercised": ["ledger_mismatch"]}}]}
            """#)
        let listed = Mutex<JSON?>(nil)
        let result = try ScenarioRunner.run(scenario, serving: ScenarioRunner.Serving()) { sandbox, _ in
            listed.withLock { $0 = sandbox.suite.json?["cases"] }
            return []
        }
        #expect(result.failedSteps.map(\.step) == [4, 5])
        let mismatch = #"the app believes cashout 1000001 (external_id "l-1") is PENDING; the bank's is COMPLETED"#
        #expect(result.cases.map(\.line) == [
            "FAIL wrong: step 4: expect_reconciled: ledger_mismatch: \(mismatch); step 5: ledger_mismatch (error, sandbox_login): \(mismatch)",
            "PASS right (step 2)",
            "PASS other steps (steps 3, 4)",
        ] + result.cases.dropFirst(3).map(\.line))
        let ledgerCheck = try #require(result.cases.first { $0.name == "report: ledger_mismatch" })
        #expect(ledgerCheck.line == #"PASS report: ledger_mismatch (step 5; its finding on cashout 1000001 is judged in case "wrong")"#)
        #expect(result.cases.filter { $0.verdict == .failed }.map(\.name) == ["wrong"])
        #expect(listed.withLock { $0 } == .array(result.cases.map(\.json)))
    }
}
