@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
import Testing

/// A cashout's life on the bank: pending, processing, completed, or failed with the amount refunded
/// exactly once, also after completion; one email per stage; the ledger.
@Suite struct LifecycleTests {
    private func emails(_ sandbox: Sandbox, user: String? = nil) throws -> [JSON] {
        try sandbox.admin("GET", "/sandbox/emails" + (user.map { "?user=\($0)" } ?? ""))["emails"]?.arrayValue ?? []
    }

    @Test func theDefaultBankCompletesAndEmailsEachStage() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let token = try sandbox.login()
        let id = try sandbox.processOK(token, amount: 100_000, email: "payment@example.com")
        try sandbox.advance("5s")
        #expect(sandbox.bank.payout(id: id)?.status == .delivered)
        try sandbox.advance("10s")
        #expect(sandbox.bank.payout(id: id)?.status == .completed)
        let sent = try emails(sandbox)
        #expect(sent.map { $0["status"]?.stringValue } == ["pending", "processing", "completed"])
        #expect(sent.map { $0["at"]?.stringValue } == ["2026-01-05T09:00:00Z", "2026-01-05T09:00:05Z", "2026-01-05T09:00:15Z"])
        #expect(sent.allSatisfy { $0["to"] == "payment@example.com" && $0["cashout_id"] == .number(id) })
        #expect(sent[0]["subject"]?.stringValue == "We received your cashout request #\(id)")
        #expect(sent[0]["body"] == .string("Your cashout of $1000.00 to Payoneer was requested. After the $20.00 fee you will receive $980.00, by "
                                           + "2026-01-08."))
        #expect(sent[2]["subject"]?.stringValue == "Your cashout #\(id) is complete")
        #expect(try sandbox.balance(token) == 900_000)
        #expect(try emails(sandbox, user: "nobody").isEmpty)
        #expect(try emails(sandbox, user: DefaultUser.id).count == 3)
        // Not webhooks: a Mannco cashout names no URL, so nothing is sent anywhere.
        #expect(sandbox.bank.notifications().allSatisfy { $0.state == .noURL })
    }

    /// Changes of one instant (forced by the admin) send their emails in the order they happened.
    @Test func emailsOfOneInstantKeepTheirOrder() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.processOK(try sandbox.login(), email: "never@example.com")
        for action in ["deliver", "complete", "reject"] {
            try sandbox.admin("POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"\#(action)"}"#)
        }
        let sent = try emails(sandbox)
        #expect(sent.map { $0["status"]?.stringValue } == ["pending", "processing", "completed", "failed"])
        #expect(Set(sent.map { $0["at"]?.stringValue }) == ["2026-01-05T09:00:00Z"])
    }

    /// The magic email `fail@…`: processing, then failed and refunded once; the ledger shows both.
    @Test func aFailureRefundsExactlyOnce() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let token = try sandbox.login()
        let id = try sandbox.processOK(token, amount: 50_000, email: "fail@example.com")
        try sandbox.advance("1d")
        let payout = try #require(sandbox.bank.payout(id: id))
        #expect(payout.status == .rejected && payout.reasonCode == "payee_rejected")
        #expect(try sandbox.balance(token) == 1_000_000)
        let ledger = try sandbox.admin("GET", "/sandbox/ledger?merchant=\(DefaultUser.id)")["entries"]?.arrayValue ?? []
        #expect(ledger.map { $0["kind"] } == ["debit", "refund"])
        #expect(ledger.map { $0["amount"] } == ["-500.00", "500.00"])
        #expect(try emails(sandbox).map { $0["status"]?.stringValue } == ["pending", "processing", "failed"])
        #expect(try emails(sandbox).last?["body"]?.stringValue == "Payoneer could not pay your cashout of $500.00 (The payee account refused the "
                                                                  + "payment). $500.00 was returned to your balance.")
        // A second rejection is not allowed, and nothing moves.
        let again = try sandbox.call("POST", "/sandbox/cashouts/\(id)/actions", body: #"{"action":"reject"}"#)
        #expect(again.status == 409)
        #expect(try sandbox.balance(token) == 1_000_000)
    }

    /// `late-fail@…`: completed, then failed two days later, refunded.
    @Test func aLateFailureAfterCompletionRefunds() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let token = try sandbox.login()
        let id = try sandbox.processOK(token, amount: 20_000, method: "tipalti", email: "late-fail@example.com")
        try sandbox.advance("1m")
        #expect(sandbox.bank.payout(id: id)?.status == .completed)
        #expect(try sandbox.balance(token) == 980_000)
        try sandbox.advance("2d")
        #expect(sandbox.bank.payout(id: id)?.status == .returned)
        #expect(try sandbox.balance(token) == 1_000_000)
        #expect(try emails(sandbox).map { $0["status"]?.stringValue } == ["pending", "processing", "completed", "failed"])
        let history = try JSON.parse(try sandbox.call("GET", "/user/getCashoutHistory", token: try sandbox.login()).body)
        #expect(history["content"]?["cashouts"]?[0]?["status"] == "failed")
    }

    @Test func magicEmailsForTheOtherOutcomes() throws {
        let sandbox = try startSandbox(users: (1 ... 4).map { user("\($0)", apiKey: "k\($0)") })
        defer { sandbox.stop() }
        let stuck = try sandbox.processOK(try sandbox.login("k1"), email: "stuck@example.com")
        let never = try sandbox.processOK(try sandbox.login("k2"), email: "never@example.com")
        let slow = try sandbox.processOK(try sandbox.login("k3"), email: "slow@example.com")
        expectError(try sandbox.process(try sandbox.login("k4"), #"{"amount":5000,"method":"payoneer","email":"decline@example.com"}"#),
                    300, "Cashout declined by the payment provider")
        try sandbox.advance("1h")
        #expect(sandbox.bank.payout(id: stuck)?.status == .delivered)
        #expect(sandbox.bank.payout(id: never)?.status == .pending)
        #expect(sandbox.bank.payout(id: slow)?.status == .delivered)
        try sandbox.advance("10d")
        #expect(sandbox.bank.payout(id: stuck)?.status == .delivered)
        #expect(sandbox.bank.payout(id: slow)?.status == .completed)
        #expect(sandbox.bank.payouts().count == 3)
    }

    /// Scenario rules match the dialect, the method, the amount (in dollars, as for every API),
    /// the user and the email; a decline answers in Mannco's envelope.
    @Test func scenarioRulesMatchManncoFields() throws {
        let scenario = #"""
            {"bank": {"rules": [
              {"name": "big tipalti", "when": {"dialect": "mannco", "method": "tipalti", "amount": {"gte": 1000}},
               "then": [{"after": "1m", "status": "PROCESSING"}, {"after": "1m", "status": "REJECTED", "rejection_code": "too_big"}]},
              {"name": "vip", "when": {"user": "2"}, "then": [{"after": "1s", "status": "PROCESSING"}, {"after": "1s", "status": "COMPLETED"}]},
              {"name": "blocked", "when": {"dialect": "mannco", "email": {"suffix": "@blocked.test"}},
               "decline": {"code": 429, "message": "Too many cashouts"}},
              {"name": "down", "when": {"dialect": "mannco", "email": {"suffix": "@down.test"}}, "decline": {"code": 500}}
            ]}}
            """#
        let sandbox = try startSandbox(users: (1 ... 4).map { user("\($0)", apiKey: "k\($0)") }, scenario: scenario)
        defer { sandbox.stop() }
        let big = try sandbox.processOK(try sandbox.login("k1"), amount: 100_000, method: "tipalti")
        let vip = try sandbox.processOK(try sandbox.login("k2"), amount: 100_000, method: "payoneer")
        expectError(try sandbox.process(try sandbox.login("k3"), #"{"amount":5000,"method":"payoneer","email":"a@blocked.test"}"#),
                    429, "Too many cashouts")
        expectError(try sandbox.process(try sandbox.login("k4"), #"{"amount":5000,"method":"payoneer","email":"a@down.test"}"#),
                    500, "Cashout declined")
        let small = try sandbox.processOK(try sandbox.login("k4"), amount: 99_999, method: "tipalti")
        try sandbox.advance("5s")
        #expect(sandbox.bank.payout(id: vip)?.status == .completed)
        #expect(sandbox.bank.payout(id: small)?.status == .delivered)  // the default bank
        #expect(sandbox.bank.payout(id: big)?.status == .pending)
        try sandbox.advance("2m")
        #expect(sandbox.bank.payout(id: big)?.status == .rejected && sandbox.bank.payout(id: big)?.reasonCode == "too_big")
        #expect(sandbox.bank.payout(id: small)?.status == .completed)
    }
}
