@testable import CashoutSandbox
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxRunner
@testable import SandboxContract
import TestHelpers
import Testing
@testable import SandboxBank

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

    /// A wait for a cashout that a rate limit answered, and that the app never sent again, says what came: the create of
    /// its amount in Mannco's words (cents), and the 429 with its `Retry-After`. (The app reads its balance after it.)
    @Test func aWaitSaysARateLimitedCashoutCameAndWasNeverSentAgain() throws {
        let scenario = try ScenarioLoader.load(Array(#"""
            {"name": "limited", "faults": [{"when": {"endpoint": "POST /cashout/process"}, "every": 1, "times": 1, "kind": "rate_limit",
                                            "retry_after": "2s"}],
             "steps": [{"wait_for_request": {"request": {"path": "/user/balance"}, "timeout": "1h"}},
                       {"wait_for_request": {"request": {"path": "/cashout/process"}, "timeout": "1ms"}, "as": "c1"}]}
            """#.utf8), file: "t.json", vocabulary: Sandbox.standardVocabulary)
        let app: @Sendable (Sandbox) -> CommandOutcome? = { sandbox in
            func call(_ method: String, _ path: String, token: String? = nil, _ body: String = "") -> JSON? {
                var headers: HTTPHeaders = ["Content-Type": "application/json", "User-Agent": "app"]
                if let token { headers.add("Authorization", "Bearer \(token)") }
                let answer = try? TestHTTP.send(method: method, url: sandbox.base + path, headers: headers, body: Array(body.utf8))
                return answer.flatMap { try? JSON.parse($0.body) }
            }
            let token = call("POST", "/user/login", #"{"apiKey":"\#(DefaultUser.apiKey)"}"#)?["content"]?["jwt"]?.stringValue
            _ = call("POST", "/cashout/process", token: token, #"{"amount":10100,"method":"payoneer"}"#)
            _ = call("GET", "/user/balance", token: token)
            return nil
        }
        let result = try ScenarioRunner.run(scenario, serving: ScenarioRunner.Serving(threads: 2, beside: app))
        let failure = try #require(result.failure)
        #expect(failure.step == 2)
        #expect(failure.message.hasPrefix("wait_for_request: the create of 10100 came at +"))
        #expect(failure.message.hasSuffix("and was rate limited (429, Retry-After 2s); the app never sent it again within 1ms"))
        #expect(result.cases.map(\.line).last == "FAIL c1: step 2: \(failure.message)")
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
