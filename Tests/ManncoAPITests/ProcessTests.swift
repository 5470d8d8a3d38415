@testable import CashoutSandbox
import Foundation
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxBank
@testable import SandboxMannco
import Synchronization
import Testing

/// `POST /cashout/process`: the rules in the Mannco guide's order, fees, the estimate, and the
/// one-pending and cooldown rules under concurrency.
@Suite struct ProcessTests {
    @Test func documentTwosExampleIsAccepted() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let token = try sandbox.login()
        let response = try sandbox.process(token, #"{"amount":100000,"method":"payoneer","email":"payment@example.com"}"#)
        #expect(response.status == 200)
        // Monday 09:00 + 3 business days: Thursday 2026-01-08 09:00:00Z.
        #expect(response.bodyText == #"{"err":false,"success":true,"content":{"cashoutId":1000001,"amount":100000,"method":"payoneer","fee":2000,"#
                                     + #""netAmount":98000,"status":"pending","estimatedCompletion":"1767862800","message":"Cashout request "#
                                     + #"submitted successfully"}}"#)
        #expect(try sandbox.balance(token) == 900_000)
        let payout = try #require(sandbox.bank.payout(id: 1_000_001))
        #expect(payout.dialect == "mannco" && payout.account == DefaultUser.id && payout.status == .pending)
        #expect(payout.fields["email"] == "payment@example.com" && payout.fields["method"] == "payoneer" && payout.fields["amount"] == "1000.00")
    }

    /// Input errors, in order: missing amount, missing method, then the amount's and the method's values.
    @Test(arguments: [
        (#"{}"#, "Missing required parameter: amount"),
        (#"{"method":"payoneer"}"#, "Missing required parameter: amount"),
        (#"{"amount":null,"method":"payoneer"}"#, "Missing required parameter: amount"),
        (#"{"amount":"abc"}"#, "Missing required parameter: method"),
        (#"{"amount":5000,"method":null}"#, "Missing required parameter: method"),
        (#"{"amount":"5000","method":"payoneer"}"#, "Invalid amount"),
        (#"{"amount":5000.5,"method":"payoneer"}"#, "Invalid amount"),
        (#"{"amount":5000.0,"method":"payoneer"}"#, "Invalid amount"),
        (#"{"amount":5e3,"method":"payoneer"}"#, "Invalid amount"),
        (#"{"amount":-5000,"method":"payoneer"}"#, "Invalid amount"),
        (#"{"amount":0,"method":"payoneer"}"#, "Invalid amount"),
        (#"{"amount":9007199254740993,"method":"payoneer"}"#, "Invalid amount"),
        (#"{"amount":true,"method":"payoneer"}"#, "Invalid amount"),
        (#"{"amount":5000,"method":"paypal"}"#, "Invalid payment method"),
        (#"{"amount":5000,"method":"Payoneer"}"#, "Invalid payment method"),
        (#"{"amount":-1,"method":"bitcoin"}"#, "Invalid amount"),
        (#"{"amount":5000,"method":"payoneer","email":"not an address"}"#, "Invalid email"),
        (#"{"amount":5000,"method":"payoneer","email":42}"#, "Invalid email"),
        // Input first, then the minimum: a bad method of a tiny amount is a bad method.
        (#"{"amount":1,"method":"card"}"#, "Invalid payment method"),
        (#"{"amount":4999,"method":"tipalti"}"#, "Amount below minimum"),
    ])
    func inputErrors(body: String, message: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.process(try sandbox.login(), body), 300, message)
        #expect(sandbox.bank.payouts().isEmpty)
    }

    @Test func unknownFieldsAreIgnoredAndAFormBodyWorks() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let token = try sandbox.login()
        let response = try sandbox.call("POST", "/cashout/process", token: token, body: "amount=5000&method=tipalti&note=hi",
                                        contentType: "application/x-www-form-urlencoded")
        #expect(response.status == 200, "\(response.bodyText)")
        #expect(try JSON.parse(response.body)["content"]?["fee"] == 75)
    }

    /// The business rules, each one failing alone, and in the Mannco guide's order when several fail:
    /// minimum, verification, method linked, pending, cooldown, balance.
    @Test func businessRulesInTheSpecsOrder() throws {
        let sandbox = try startSandbox(users: [
            user("1", apiKey: "unverified", verified: false, linked: []),
            user("2", apiKey: "unlinked", linked: [.tipalti]),
            user("3", apiKey: "poor", cents: 9_999),
        ])
        defer { sandbox.stop() }
        let unverified = try sandbox.login("unverified")
        expectError(try sandbox.process(unverified, #"{"amount":4999,"method":"payoneer"}"#), 300, "Amount below minimum")
        expectError(try sandbox.process(unverified, #"{"amount":5000,"method":"payoneer"}"#), 300, "Account verification required")
        let unlinked = try sandbox.login("unlinked")
        expectError(try sandbox.process(unlinked, #"{"amount":5000,"method":"payoneer"}"#), 300, "Payment method not linked")
        let poor = try sandbox.login("poor")
        expectError(try sandbox.process(poor, #"{"amount":10000,"method":"payoneer"}"#), 300, "Insufficient balance")
        // The balance must cover the amount (the fee is withheld from it): 9999 of 9999 is fine.
        #expect(try sandbox.processOK(poor, amount: 9_999) == 1_000_001)
        #expect(try sandbox.balance(poor) == 0)
        // Pending comes before cooldown, and both before the balance.
        expectError(try sandbox.process(poor, #"{"amount":5000,"method":"payoneer"}"#), 300, "Pending cashout exists")
        try sandbox.advance("5s")  // processing is still pending for this rule
        expectError(try sandbox.process(poor, #"{"amount":5000,"method":"payoneer"}"#), 300, "Pending cashout exists")
        try sandbox.advance("10s")  // completed: the cooldown is what is left
        expectError(try sandbox.process(poor, #"{"amount":5000,"method":"payoneer"}"#), 300, "Cooldown period")
        try sandbox.advance("1d")
        expectError(try sandbox.process(poor, #"{"amount":5000,"method":"payoneer"}"#), 300, "Insufficient balance")
        #expect(sandbox.bank.payouts().count == 1)
    }

    /// Not linked comes before pending and the cooldown: with a cashout in flight, a method
    /// unlinked since is what the answer names.
    @Test func notLinkedComesBeforePendingAndCooldown() throws {
        let sandbox = try startSandbox(users: [user(cents: 5_000)])
        defer { sandbox.stop() }
        let token = try sandbox.login()
        _ = try sandbox.processOK(token, amount: 5_000)  // pending, in the cooldown, and the balance is 0 now
        _ = try sandbox.call("POST", "/cashout/unlink", token: token, body: #"{"provider":"payoneer"}"#)
        expectError(try sandbox.process(token, #"{"amount":5000,"method":"payoneer"}"#), 300, "Payment method not linked")
        expectError(try sandbox.process(token, #"{"amount":5000,"method":"tipalti"}"#), 300, "Pending cashout exists")
        try sandbox.admin("PUT", "/sandbox/users/\(DefaultUser.id)", #"{"verified":false}"#)
        expectError(try sandbox.process(token, #"{"amount":5000,"method":"payoneer"}"#), 300, "Account verification required")
    }

    /// 24 hours after the last accepted request, to the millisecond: 23 h 59 m later is refused,
    /// 24 h later allowed. Refused requests do not restart the cooldown.
    @Test func theCooldownIs24HoursAfterTheLastAcceptedRequest() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let token = try sandbox.login()
        _ = try sandbox.processOK(token, amount: 5_000)
        try sandbox.advance("23h59m")
        expectError(try sandbox.process(token, #"{"amount":5000,"method":"payoneer"}"#), 300, "Cooldown period")
        try sandbox.advance("59s")
        expectError(try sandbox.process(token, #"{"amount":5000,"method":"payoneer"}"#), 300, "Cooldown period")
        try sandbox.advance("1s")
        #expect(try sandbox.processOK(token, amount: 5_000) == 1_000_002)
    }

    /// A failed cashout still started the cooldown (it was accepted), but no longer blocks as pending.
    @Test func aFailedCashoutIsNotPendingButCountsForTheCooldown() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let token = try sandbox.login()
        let id = try sandbox.processOK(token, amount: 5_000)
        try sandbox.admin("POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"reject"}"#)
        expectError(try sandbox.process(token, #"{"amount":5000,"method":"payoneer"}"#), 300, "Cooldown period")
    }

    /// Fees: 2 % and 1.5 % of the amount, to whole cents, halves away from zero (the Mannco guide).
    @Test(arguments: [
        ("payoneer", 5_000, 100), ("payoneer", 5_025, 101), ("payoneer", 5_024, 100), ("payoneer", 100_000, 2_000),
        ("tipalti", 5_000, 75), ("tipalti", 5_001, 75), ("tipalti", 5_100, 77), ("tipalti", 5_033, 75), ("tipalti", 5_034, 76),
        ("tipalti", 9_007_199_254_740_992, 135_107_988_821_115),
    ] as [(String, Int64, Int64)])
    func feesRoundHalvesAwayFromZero(method: String, amount: Int64, fee: Int64) throws {
        let sandbox = try startSandbox(users: [user(cents: 9_007_199_254_740_992)])
        defer { sandbox.stop() }
        let response = try sandbox.process(try sandbox.login(), #"{"amount":\#(amount),"method":"\#(method)"}"#)
        let content = try #require(JSON.parse(response.body)["content"])
        #expect(content["fee"] == .number(String(fee)))
        #expect(content["netAmount"] == .number(String(amount - fee)))
        #expect(content["amount"] == .number(String(amount)))
    }

    /// The estimate: creation + 3 (Payoneer) or 5 (Tipalti) business days, weekends skipped.
    @Test(arguments: [
        ("2026-01-05T09:00:00Z", "payoneer", "2026-01-08T09:00:00Z"),  // Monday -> Thursday
        ("2026-01-05T09:00:00Z", "tipalti", "2026-01-12T09:00:00Z"),  // Monday -> next Monday
        ("2026-01-08T10:30:00Z", "payoneer", "2026-01-13T10:30:00Z"),  // Thursday -> Tuesday
        ("2026-01-10T12:00:00Z", "payoneer", "2026-01-14T12:00:00Z"),  // Saturday -> Wednesday
    ])
    func estimatedCompletionSkipsWeekends(at start: String, method: String, expected: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        try sandbox.admin("POST", "/sandbox/clock/advance", #"{"to":"\#(start)"}"#)
        let response = try sandbox.process(try sandbox.login(), #"{"amount":5000,"method":"\#(method)"}"#)
        let seconds = try #require(VirtualTime(iso8601: expected)).milliseconds / 1000
        #expect(try JSON.parse(response.body)["content"]?["estimatedCompletion"] == .string(String(seconds)))
    }

    /// Twenty requests of one user at once make exactly one cashout; the others hear why.
    @Test func twentyParallelRequestsMakeOneCashout() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let token = try sandbox.login()
        let answers = Answers()
        let group = DispatchGroup()
        for _ in 0 ..< 20 {
            group.enter()
            Thread {
                let response = try? sandbox.process(token, #"{"amount":5000,"method":"payoneer"}"#)
                answers.add(response.map { "\($0.status) \($0.bodyText)" } ?? "no answer")
                group.leave()
            }.start()
        }
        group.wait()
        let all = answers.all
        #expect(all.filter { $0.hasPrefix("200 ") }.count == 1)
        #expect(all.filter { $0 == "300 " + errorBody("Pending cashout exists") }.count == 19)
        #expect(sandbox.bank.payouts().count == 1)
        #expect(try sandbox.balance(token) == 995_000)
    }
}

/// Answers collected from many threads.
final class Answers: Sendable {
    private let lock = Mutex<[String]>([])
    func add(_ answer: String) { lock.withLock { $0.append(answer) } }
    var all: [String] { lock.withLock { $0 } }
}
