import CashoutSandbox
import SandboxHTTP
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
}
