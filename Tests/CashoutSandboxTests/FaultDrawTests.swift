@testable import CashoutSandbox
import Foundation
@testable import SandboxSupport
@testable import SandboxWire
@testable import SandboxContract
import Synchronization
import TestHelpers
import Testing
@testable import SandboxBank

/// A fault's draws and tests depend on what a request is about, never on the order requests
/// arrive in: an app that sends from several threads meets the same faults every run, and a
/// pinned fault (`every` with `when.payout`) hits the occurrence it names.
@Suite struct FaultDrawTests {
    private static func sandbox(faults: String, seed: Int = 9) throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.scenarios = [try ScenarioLoader.load(Array(#"{"name": "f", "seed": \#(seed), "faults": \#(faults)}"#.utf8), file: "f.json",
                                                           vocabulary: Sandbox.standardVocabulary)]
        return try Sandbox.launch(configuration)
    }

    private static func signed(_ sandbox: Sandbox, _ path: String, _ fields: String) -> Int {
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass",\#(fields)}"#
        let signature = Hex.lowercase(HMACSHA256.authenticationCode(for: Array(body.utf8), key: HMACSHA256.Key("sandbox_secret")))
        return (try? TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)\(path)", headers: ["Payload-Signature": signature],
                                   body: Array(body.utf8)))?.status ?? 0
    }

    /// Six cashouts of BRL 101.00 to 106.00, each created under a reference made anew (`run`).
    private static func createSix(_ sandbox: Sandbox, run: String) -> [Int: Int] {
        var ids: [Int: Int] = [:]
        for amount in 101 ... 106 {
            let fields = #""external_id":"\#(run)-\#(amount)","country":"BR","currency":"BRL","amount":"\#(amount).00","#
                + #""document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","#
                + #""bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C""#
            #expect(signed(sandbox, "/v3/cashout", fields) == 200)
            ids[amount] = sandbox.bank.payouts().first { $0.reference == "\(run)-\(amount)" }?.id
        }
        return ids
    }

    /// Four status queries of each cashout, each cashout's from a thread of its own, the threads
    /// started in the order given: which queries (amount, nth) met the fault.
    private static func queries(_ sandbox: Sandbox, _ ids: [Int: Int], order: [Int]) -> Set<String> {
        let hit = Mutex<Set<String>>([])
        let done = DispatchGroup()
        for amount in order {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                for nth in 1 ... 4 where signed(sandbox, "/v3/cashout/status", #""cashout_id":\#(ids[amount]!)"#) == 503 {
                    hit.withLock { _ = $0.insert("\(amount) #\(nth)") }
                }
            }
        }
        done.wait()
        return hit.withLock { $0 }
    }

    @Test func aRateDrawsTheSameRequestsWhateverOrderTheyArriveIn() throws {
        let faults = #"[{"when": {"endpoint": "POST /v3/cashout/status"}, "rate": 0.3, "kind": "error", "status": 503}]"#
        var seen: [Set<String>] = []
        for (run, order) in [("a", Array(101 ... 106)), ("b", Array((101 ... 106).reversed())), ("c", [104, 101, 106, 102, 105, 103])] {
            let sandbox = try Self.sandbox(faults: faults)
            defer { sandbox.stop() }
            seen.append(Self.queries(sandbox, Self.createSix(sandbox, run: run), order: order))
        }
        #expect(!seen[0].isEmpty && seen[0].count < 24, "\(seen[0])")
        #expect(seen[1] == seen[0] && seen[2] == seen[0], "\(seen)")

        // Another seed, other draws.
        let other = try Self.sandbox(faults: faults, seed: 10)
        defer { other.stop() }
        #expect(Self.queries(other, Self.createSix(other, run: "d"), order: Array(101 ... 106)) != seen[0])
    }

    /// `when.payout` takes the requests that name the payout of BRL 102.00 (by its id here), and
    /// `every: 3, times: 1` the third of them alone; `when.account`, the requests of that login.
    @Test func aPinnedFaultHitsTheOccurrenceItNames() throws {
        let sandbox = try Self.sandbox(faults: #"""
            [{"when": {"endpoint": "POST /v3/cashout/status", "payout": {"amount": "102.00"}}, "every": 3, "times": 1, "kind": "error",
              "status": 503},
             {"when": {"path": "/v3/cashout/status", "account": "nobody"}, "every": 1, "kind": "error", "status": 500}]
            """#)
        defer { sandbox.stop() }
        let ids = Self.createSix(sandbox, run: "p")
        #expect(Self.queries(sandbox, ids, order: Array(101 ... 106)) == ["102 #3"])
        #expect(Self.queries(sandbox, ids, order: [102]) == [])  // times: 1
    }
}
