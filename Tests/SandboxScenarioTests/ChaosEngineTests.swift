@testable import SandboxBank
import Testing
@testable import SandboxContract

/// The chaos engine: which rules match a notification, which of them act, and what a seed draws.
@Suite struct ChaosEngineTests {
    static func engine(_ rules: String, seed: UInt64 = 7) throws -> ChaosEngine {
        let scenario = try ScenarioLoader.load(Array(#"{"webhooks": {"chaos": \#(rules)}}"#.utf8), file: "c.json", vocabulary: d24Vocabulary)
        return ChaosEngine(rules: scenario.chaos ?? [], seed: seed, identity: rules)
    }

    static let payout = Payout(id: 1_000_001, dialect: "d24", account: "acme", reference: "e", country: "BR", currency: "USD", amount: Money("1")!,
                               settlementAmount: Money("1")!, fields: ["country": "BR"], callbackURL: "http://hook",
                               createdAt: VirtualTime(milliseconds: 0), status: .delivered, history: [])

    static func notification(_ id: Int, _ status: PayoutStatus) -> StatusNotification {
        StatusNotification(id: id, of: payout.shared, status: status, changedAt: VirtualTime(milliseconds: 0), state: .pending,
                           nextAttemptAt: .some(nil))
    }

    @Test func everyMatchingRuleCountsTheNotificationCopiesAddUpAndTheFirstShiftActs() throws {
        let engine = try Self.engine(#"""
            [{"when": {"status": "COMPLETED"}, "kind": "duplicate"},
             {"when": {"country": "BR", "merchant": "acme", "dialect": "d24"}, "kind": "forged", "after": "5s"},
             {"when": {"status": {"in": ["DELIVERED", "COMPLETED"]}}, "kind": "delayed", "delay": "1m"},
             {"kind": "out_of_order"},
             {"when": {"country": "MX"}, "kind": "replay"}]
            """#)
        let plan = try #require(engine.plan(for: Self.notification(1, .completed), of: Self.payout, counts: [:]))
        #expect(plan.matched == [0, 1, 2, 3])
        #expect(plan.copies.map(\.kind) == [.duplicate, .forged] && plan.copies[1].after == .seconds(5))
        #expect(plan.shift == .delay(.seconds(60)) && plan.shiftRule == ChaosRule(index: 2, name: nil))
        let held = try #require(engine.plan(for: Self.notification(2, .rejected), of: Self.payout, counts: [:]))
        #expect(held.shift == .hold(atMost: .seconds(600)) && held.copies.map(\.kind) == [.forged])
        #expect(try Self.engine(#"[{"when": {"country": "MX"}, "kind": "replay"}]"#).plan(for: Self.notification(1, .completed), of: Self.payout,
                                                                                          counts: [:]) == nil)
    }

    @Test func everyActsOnTheNthMatchAndRateAndRangesDrawFromTheSeed() throws {
        let every = try Self.engine(#"[{"kind": "duplicate", "every": 3}]"#)
        let acted = (0 ..< 6).map { count in every.plan(for: Self.notification(1, .delivered), of: Self.payout, counts: [0: count])!.copies.count }
        #expect(acted == [0, 0, 1, 0, 0, 1])

        // Forty payouts of as many amounts, each notified DELIVERED, in one order or the other.
        let rules = #"[{"kind": "forged", "rate": 0.5, "after": {"min": "1s", "max": "1h"}}]"#
        func payout(_ cents: Int) -> Payout {
            Payout(id: 1_000_000 + cents, dialect: "d24", account: "acme", reference: "e-\(cents)", country: "BR", currency: "USD",
                   amount: Money(hundredths: Int64(cents)), settlementAmount: Money(hundredths: Int64(cents)), fields: ["country": "BR"],
                   callbackURL: "http://hook", createdAt: VirtualTime(milliseconds: 0), status: .delivered, history: [])
        }
        func draws(_ seed: UInt64, reversed: Bool = false) throws -> [Int: Duration?] {
            let engine = try Self.engine(rules, seed: seed)
            let amounts = reversed ? Array((1 ... 40).reversed()) : Array(1 ... 40)
            return Dictionary(uniqueKeysWithValues: amounts.enumerated().map { number, cents in
                let notification = StatusNotification(id: number + 1, of: payout(cents).shared, status: .delivered,
                                                      changedAt: VirtualTime(milliseconds: 0), state: .pending, nextAttemptAt: .some(nil))
                return (cents, engine.plan(for: notification, of: payout(cents), counts: [:])!.copies.first?.after)
            })
        }
        let first = try draws(7)
        #expect(try draws(7) == first)
        // What a payout draws is its content's, whatever the order (and ids) its notifications came in.
        #expect(try draws(7, reversed: true) == first)
        #expect(try draws(8) != first)
        let chosen = first.values.compactMap { $0 }
        #expect((10 ... 30).contains(chosen.count))
        #expect(chosen.allSatisfy { (.seconds(1) ... .seconds(3600)).contains($0) } && Set(chosen).count == chosen.count)
    }

    @Test func noRulesNoPolicy() throws {
        #expect(try Self.engine("[]").policy == nil)
        #expect(try Self.engine(#"[{"kind": "replay"}]"#).policy != nil)
    }
}
