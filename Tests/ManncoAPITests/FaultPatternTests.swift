import CashoutSandbox
import SandboxHTTP
import SandboxJSON
import TestHelpers
import Testing

/// A scenario's fault aimed at Mannco requests by their body: the cashout it names loses its
/// answer, the others are answered.
@Suite struct FaultPatternTests {
    @Test func aFaultAimedByAmountDropsOnlyThatCashoutsAnswer() throws {
        let sandbox = try startSandbox(users: [user("1", apiKey: "k1"), user("2", apiKey: "k2")], scenario: #"""
            {"faults": [{"when": {"method": "POST", "path": "/cashout/process", "dialect": "mannco", "body": {"amount": {"gte": 500000}}},
                         "every": 1, "kind": "drop_after_commit"}]}
            """#)
        defer { sandbox.stop() }
        let (first, second) = (try sandbox.login("k1"), try sandbox.login("k2"))
        _ = try sandbox.processOK(first, amount: 100_000)
        #expect(throws: HTTPClientError.self) { try sandbox.process(second, #"{"amount":600000,"method":"payoneer"}"#) }
        // Committed: the cashout was made and debited, its answer lost.
        #expect(sandbox.bank.payouts(account: "2").map(\.amount.hundredths) == [600_000])
        #expect(sandbox.bank.payouts(account: "1").map(\.amount.hundredths) == [100_000])
    }

    /// `truncate` cuts a committed `POST /cashout/process`'s answer partway through its body and closes the
    /// connection: the client gets broken JSON (an error, not an answer) though the cashout was made; with
    /// `"commit": false` the cashout is not made, and what is cut is a 503.
    @Test func aTruncatedProcessAnswerIsAnErrorToTheClientAndCommitsOnlyWhenScripted() throws {
        let sandbox = try startSandbox(users: [user("1", apiKey: "k1")], scenario: #"""
            {"faults": [{"when": {"endpoint": "POST /cashout/process", "body": {"amount": {"lt": 200000}}}, "every": 1, "kind": "truncate"},
                        {"when": {"endpoint": "POST /cashout/process", "body": {"amount": {"gte": 200000}}}, "every": 1, "kind": "truncate",
                         "after_bytes": 5, "commit": false}]}
            """#)
        defer { sandbox.stop() }
        let token = try sandbox.login("k1")
        #expect(throws: HTTPClientError.self) { try sandbox.process(token, #"{"amount":100000,"method":"payoneer"}"#) }
        #expect(sandbox.bank.payouts(account: "1").map(\.amount.hundredths) == [100_000])  // committed
        #expect(throws: HTTPClientError.self) { try sandbox.process(token, #"{"amount":300000,"method":"payoneer"}"#) }
        #expect(sandbox.bank.payouts(account: "1").map(\.amount.hundredths) == [100_000])  // not made
    }

    /// A ledger names Mannco cashouts by the `cashoutId` they were answered, in Mannco's words.
    @Test func aLedgerOfManncoCashoutsIsReconciledByCashoutID() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.processOK(try sandbox.login(), amount: 100_000)
        let outcome = try sandbox.reconcile(ledger: ["payouts": [["cashout_id": .number(id), "status": "pending", "amount": "999.00"]]]).get()
        #expect(outcome.mismatches.map(\.occurrence.summary)
            == ["the app has 999.00 USD for cashout \(id) (cashout_id \"\(id)\"); the bank's is 1000.00 USD"])
    }
}
