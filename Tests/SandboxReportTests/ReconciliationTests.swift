@testable import CashoutSandbox
import Foundation
@testable import SandboxWire
@testable import SandboxRunner
@testable import SandboxContract
import TestHelpers
import Testing

/// Reconciliation in a suite: `expect_reconciled` and `app.ledger` compare the app's ledger (a
/// file or a URL) with the bank, and fail with each mismatch, or with what was wrong with the ledger.
@Suite struct ReconciliationTests {
    /// `late-1` completes a minute after it is made and is reversed an hour later; every other cashout completes.
    static let bank = #"""
        "bank": {"rules": [{"when": {"external_id": "late-1"}, "then": [{"after": "30s", "status": "DELIVERED"}, {"after": "30s", "status": \#
        "COMPLETED"},
                                                                        {"after": "1h", "status": "REJECTED"}]},
                           {"when": {}, "then": [{"after": "30s", "status": "DELIVERED"}, {"after": "30s", "status": "COMPLETED"}]}]}
        """#

    private func load(_ text: String) throws(ScenarioError) -> Scenario {
        try ScenarioLoader.load(Array(text.utf8), file: "t.json", vocabulary: Sandbox.standardVocabulary)
    }

    /// Two D24 cashouts made by the steps, two hours on, then the ledger `ledger` (written to a
    /// file, or `location` as given) reconciled: the failure's message, nil for none.
    /// The failure of a suite whose last step reconciles (`ledger`, in a file, or at `location`), or what it noted.
    private func reconcile(_ ledger: String? = nil, location: String? = nil, account: String? = nil) throws -> String? {
        let path = NSTemporaryDirectory() + "ledger-\(UUID().uuidString).json"
        if let ledger { try ledger.write(toFile: path, atomically: true, encoding: .utf8) }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let accountField = account.map { #", "account": "\#($0)""# } ?? ""
        let result = ScenarioRunner.run(try load(#"""
            {\#(Self.bank),
             "steps": [
               {"create_cashout": {"external_id": "late-1", "amount": 101}},
               {"create_cashout": {"external_id": "fine-2", "amount": 102}},
               {"advance": "2h"},
               {"expect_reconciled": {"ledger": "\#(location ?? path)"\#(accountField)}}]}
            """#))
        return result.failure.map { "step \($0.step): \($0.message)" } ?? result.notes.first.map { "noted: \($0)" }
    }

    static func ledger(_ rows: String...) -> String { #"{"payouts": [\#(rows.joined(separator: ","))]}"# }
    static let late = #"{"external_id": "late-1", "status": "REJECTED", "amount": "101.00"}"#
    static let fine = #"{"external_id": "fine-2", "status": "COMPLETED", "amount": 102}"#

    @Test func aLedgerThatAgreesWithTheBankPasses() throws {
        let agreed = try reconcile(Self.ledger(Self.late, Self.fine))
        #expect(agreed == nil)
        // Any case of the API's words.
        let anyCase = try reconcile(Self.ledger(Self.late.replacingOccurrences(of: "REJECTED", with: "rejected"), Self.fine))
        #expect(anyCase == nil)
    }

    @Test(arguments: [
        (ledger(#"{"external_id": "late-1", "status": "COMPLETED", "amount": "101.00"}"#, fine),
         #"step 4: expect_reconciled: ledger_mismatch: the app believes cashout 1000001 (external_id "late-1") is COMPLETED; the bank's is "#
         + #"REJECTED (reversed after it completed)"#),
        (ledger(late, fine, fine),
         #"step 4: expect_reconciled: ledger_mismatch: the app's ledger has external_id "fine-2" 2 times (payouts[1], payouts[2]); the bank made "#
         + #"one cashout, 1000002"#),
        (ledger(late, #"{"external_id": "fine-2", "status": "COMPLETED", "amount": "120.00"}"#),
         #"step 4: expect_reconciled: ledger_mismatch: the app has 120.00 BRL for cashout 1000002 (external_id "fine-2"); the bank's is 102.00 BRL"#),
        (ledger(late),
         #"step 4: expect_reconciled: ledger_mismatch: cashout 1000002 (external_id "fine-2", 102.00 BRL, COMPLETED) is not in the app's ledger"#),
        (ledger(#"{"external_id": "late-1", "status": "PENDING", "amount": "101.00"}"#,
                #"{"external_id": "fine-2", "status": "DELIVERED", "amount": "102.00"}"#),
         #"step 4: expect_reconciled: ledger_mismatch: the app believes cashout 1000001 (external_id "late-1") is PENDING; the bank's is REJECTED "#
         + #"(reversed after it completed); "#
            + #"the app believes cashout 1000002 (external_id "fine-2") is DELIVERED; the bank's is COMPLETED"#),
    ] as [(String, String)])
    func eachMismatchFailsTheStep(ledger: String, message: String) throws {
        let failure = try reconcile(ledger)
        #expect(failure == message)
    }

    @Test(arguments: [
        ("[]", #"expected an object such as {"payouts": [{"external_id": "order-1", "status": "COMPLETED", "amount": "100.00"}]}, got []"#),
        (ledger(#"{"external_id": "nope", "status": "COMPLETED", "amount": "1.00"}"#),
         #"payouts[0].external_id: "nope" names no cashout the bank made"#),
        (ledger(#"{"status": "COMPLETED", "amount": "1.00"}"#), "payouts[0]: expected exactly one of cashout_id, external_id, merchant_payout_id"),
        (ledger(#"{"external_id": "late-1", "status": "PAID", "amount": "1.00"}"#),
         #"""
         payouts[0].status: expected one of STAGED, AWAITING_DETAILS, PENDING, ON_HOLD, DELIVERED, COMPLETED, REJECTED, CANCELLED, EXPIRED, \#
         got "PAID" (the entry of external_id "late-1": cashout 1000001)
         """#),
        (ledger(#"{"external_id": "late-1", "status": "REJECTED", "amount": 1.005}"#),
         #"payouts[0].amount: expected an amount with at most two decimals, such as "100.00", got 1.005 "#
             + #"(the entry of external_id "late-1": cashout 1000001)"#),
        ("<html>", #"expected JSON, got "<html>""#),
    ])
    func aLedgerOfTheWrongShapeFailsWithWhereItWasReadAndWhatWasWrong(ledger: String, message: String) throws {
        let failure = try #require(try reconcile(ledger))
        #expect(failure.hasPrefix("step 4: expect_reconciled: ledger /"))
        #expect(failure.hasSuffix(".json: " + message))
    }

    @Test func aLedgerThatCannotBeReadFailsWithItsURLOrPath() throws {
        #expect(try reconcile(location: "/nonexistent/ledger.json") == "step 4: expect_reconciled: ledger /nonexistent/ledger.json: no such file, "
                                                                       + "or it cannot be read")
        let server = try HTTPServer.start(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0)) { _ in HTTPResponse(status: 500) }
        defer { server.stop() }
        let url = "http://\(server.addresses[0])/ledger"
        #expect(try reconcile(location: url) == "step 4: expect_reconciled: ledger \(url): answered 500, expected 200 and the ledger as JSON")
        // Where nothing listens, the app serves no ledger: the step notes it, and ledger_mismatch stays not exercised.
        let closed = try #require(SocketAddress.freePort())
        let failure = try #require(try reconcile(location: "http://127.0.0.1:\(closed)/ledger"))
        #expect(failure.hasPrefix("noted: step 4: expect_reconciled: ledger not checked: ledger http://127.0.0.1:\(closed)/ledger: no answer: "
                                  + "connection failed: "), "\(failure)")
        #expect(try reconcile(location: "http://127.0.0.1:${CASHOUT_SANDBOX_NO_SUCH_VARIABLE}/ledger")
            == "step 4: expect_reconciled: ledger http://127.0.0.1:${CASHOUT_SANDBOX_NO_SUCH_VARIABLE}/ledger: ${CASHOUT_SANDBOX_NO_SUCH_VARIABLE} "
               + "is not set in the app's environment")
        #expect(try reconcile(Self.ledger(Self.late, Self.fine), account: "nobody") == #"step 4: expect_reconciled: no account "nobody""#)
    }

    /// A ledger URL that never answers is given up after `Sandbox.ledgerTimeout` (10 s of real time).
    @Test func aLedgerURLThatHangsIsBoundedByATimeout() throws {
        let hung = Latch()
        let server = try HTTPServer.start(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0)) { _ in
            .deferred { answer in hung.notify { answer(HTTPResponse(status: 200)) } }
        }
        defer {
            hung.open()
            server.stop()
        }
        let url = "http://\(server.addresses[0])/ledger"
        #expect(try reconcile(location: url) == "step 4: expect_reconciled: ledger \(url): no answer within 10s")
    }

    @Test(arguments: [
        (#"{"app": {"ledger": 5}}"#, "t.json: app.ledger: expected a string"),
        (#"{"app": {"ledger": "https://shop.example/ledger"}}"#,
         #"t.json: app.ledger: expected an http:// URL or a file path, got "https://shop.example/ledger""#),
        (#"{"app": {"ledgr": "x"}}"#, #"t.json: app.ledgr: unknown key (did you mean "ledger"? expected one of: ledger, settled)"#),
        (#"{"app": {"settled": "/tmp/settled.json"}}"#, #"t.json: app.settled: expected an http:// URL, got "/tmp/settled.json""#),
        (#"{"steps": [{"expect_reconciled": {}}]}"#,
         #"t.json: steps[0].expect_reconciled: expected "ledger" here or an "app": {"ledger": URL or file} section to read the app's ledger from"#),
        (#"{"steps": [{"expect_reconciled": {"acount": "x", "ledger": "l.json"}}]}"#,
         #"t.json: steps[0].expect_reconciled.acount: unknown key (did you mean "account"? expected one of: account, ledger)"#),
    ])
    func theAppSectionAndTheStepAreCheckedWhenLoaded(text: String, message: String) {
        #expect(throws: ScenarioError.self) { try load(text) }
        do { _ = try load(text) } catch { #expect(error.description == message) }
    }

    /// The example app that follows up every notification but keeps a reversed cashout
    /// COMPLETED: the reconciliation after the last step catches it; the careful one passes.
    @Test(arguments: [false, true])
    func theLedgerAppThatNeverRecordsAReversalIsCaught(careful: Bool) throws {
        guard let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile) else { return }
        let apps = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("ExampleApps")
        let suite = try load(#"""
            {\#(Self.bank),
             "app": {"ledger": "http://127.0.0.1:${CASHOUT_SANDBOX_APP_PORT}/ledger"},
             "steps": [
               {"wait_for_request": {"request": {"path": "/v3/cashout", "body": {"external_id": "late-1"}}, "timeout": "60s"}, "as": "late"},
               {"wait_for_request": {"request": {"path": "/v3/cashout", "body": {"external_id": "fine-2"}}, "timeout": "60s"}},
               {"advance": "30s"},
               {"wait_for_request": {"request": {"path": "/v3/cashout/status", "body": {"cashout_id": "{{late.cashout_id}}"}}, "timeout": "60s"}},
               {"advance": "30s"},
               {"wait_for_request": {"request": {"path": "/v3/cashout/status", "body": {"cashout_id": "{{late.cashout_id}}"}}, "timeout": "60s"}},
               {"advance": "1h"},
               {"wait_for_request": {"request": {"path": "/v3/cashout/status", "body": {"cashout_id": "{{late.cashout_id}}"}}, "timeout": "60s"}}]}
            """#)
        let result = try ScenarioRunner.run(suite, serving: ScenarioRunner.Serving(threads: 4) { sandbox in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [apps.appendingPathComponent("ledger_app.py").path] + (careful ? ["--careful"] : [])
            process.currentDirectoryURL = apps
            process.environment = ProcessInfo.processInfo.environment.merging(sandbox.environment.map { ($0.name, $0.value) }) { $1 }
            do { try process.run() } catch { return CommandOutcome(command: "ledger_app.py", ending: .exited(127), output: "\(error)") }
            process.waitUntilExit()
            return CommandOutcome(command: "ledger_app.py", ending: .exited(process.terminationStatus), output: "")
        })
        #expect(result.command?.failure == nil)
        if careful {
            #expect(result.failure == nil, "\(result.failure.map { "step \($0.step): \($0.message)" } ?? "")")
        } else {
            #expect(result.failure?.step == 8)
            #expect(result.failure?.message == #"app.ledger, after the last step: ledger_mismatch: the app believes cashout 1000001 (external_id "#
                                               + #""late-1") is COMPLETED; the bank's is REJECTED (reversed after it completed)"#)
        }
    }
}
