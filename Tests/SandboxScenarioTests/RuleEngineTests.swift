import Dispatch
import Synchronization
@testable import SandboxBank
import Testing
@testable import SandboxContract

private func rules(_ text: String, seed: UInt64 = 7) throws -> RuleEngine {
    let scenario = try ScenarioLoader.load(Array(text.utf8), file: "r.json", vocabulary: d24Vocabulary)
    return RuleEngine(rules: scenario.rules, defaultTimeline: scenario.defaultTimeline ?? [], defaultScenario: scenario.name, seed: seed,
                      contentFields: d24Vocabulary.ruleFields)
}

private func payout(id: Int = 1_000_001, fields: Fields, merchant: String = "m", occurrence: Int = 1) -> Payout {
    Payout(id: id, dialect: "d24", account: merchant, reference: "e", country: fields["country"] ?? "BR", currency: "USD", amount: Money("1")!,
           settlementAmount: Money("1")!, fields: fields, callbackURL: nil,
           createdAt: VirtualTime(iso8601: "2026-01-09T10:00:00Z")!, status: .pending, history: [], occurrence: occurrence)
}

@Suite struct RuleEngineTests {
    @Test(arguments: [
        (#"{"amount": 100}"#, "100.00", true), (#"{"amount": {"eq": "100"}}"#, "100", true), (#"{"amount": {"gt": 100}}"#, "100", false),
        (#"{"amount": {"gte": 100}}"#, "100.00", true), (#"{"amount": {"lt": 100}}"#, "99.99", true), (#"{"amount": {"lte": 99}}"#, "99.01", false),
        (#"{"amount": {"gt": 10, "lt": 20}}"#, "15", true), (#"{"amount": {"in": [1, 2, "3"]}}"#, "3", true),
        (#"{"amount": {"prefix": "12"}}"#, "123", true), (#"{"amount": {"suffix": "01"}}"#, "801", true),
        (#"{"amount": {"regex": "[0-9]{3}"}}"#, "123", true), (#"{"amount": {"regex": "[0-9]{3}"}}"#, "1234", false),
        (#"{"amount": "abc"}"#, "ABC", false), (#"{"amount": {"gt": 1}}"#, "many", false),
        (#"{"amount": "100"}"#, "100.00", false), (#"{"amount": {"eq": "100"}}"#, "100.00", false), (#"{"amount": "100"}"#, "100", true),
    ])
    func everyMatcher(when: String, value: String, matches: Bool) throws {
        let engine = try rules(#"{"bank": {"rules": [{"when": \#(when), "then": [{"after": "1s", "status": "DELIVERED"}]}]}}"#)
        #expect(engine.timeline(for: payout(fields: ["amount": value])).steps.isEmpty == !matches)
    }

    @Test func theFirstMatchingRuleWinsAndMerchantAndDialectCanBeMatched() throws {
        let engine = try rules(#"""
        {"bank": {"rules": [
          {"when": {"merchant": "acme", "dialect": "d24"}, "then": [{"after": "1s", "status": "DELIVERED"}]},
          {"when": {"country": "BR"}, "then": [{"after": "2s", "status": "DELIVERED"}]}],
          "default": [{"after": "3s", "status": "DELIVERED"}]}}
        """#)
        #expect(engine.timeline(for: payout(fields: ["country": "BR"], merchant: "acme")).steps.first?.after == .seconds(1))
        #expect(engine.timeline(for: payout(fields: ["country": "BR"])).steps.first?.after == .seconds(2))
        #expect(engine.timeline(for: payout(fields: ["country": "MX"])).steps.first?.after == .seconds(3))
    }

    /// Every condition of a rule must hold, however many fields it looks at and however many
    /// other rules look at the same ones (each field is read once per match).
    @Test func aRuleMatchesOnlyWhenAllItsFieldsDoAndFieldsAreSharedBetweenRules() throws {
        let engine = try rules(#"""
        {"bank": {"rules": [
          {"when": {"country": "BR", "amount": {"gt": 100}, "dialect": "d24"}, "then": [{"after": "1s", "status": "DELIVERED"}]},
          {"when": {"amount": {"gt": 100}, "document_type": "CPF"}, "then": [{"after": "2s", "status": "DELIVERED"}]},
          {"when": {"country": "MX", "dialect": "mannco"}, "then": [{"after": "3s", "status": "DELIVERED"}]},
          {"when": {"country": "MX"}, "then": [{"after": "4s", "status": "DELIVERED"}]}],
          "default": [{"after": "5s", "status": "DELIVERED"}]}}
        """#)
        let cases: [(Fields, Duration)] = [
            (["country": "BR", "amount": "150"], .seconds(1)),
            (["country": "BR", "amount": "50", "document_type": "CPF"], .seconds(5)),
            (["country": "AR", "amount": "150", "document_type": "CPF"], .seconds(2)),
            (["amount": "150"], .seconds(5)),
            (["country": "MX", "amount": "150"], .seconds(4)),
        ]
        for (fields, after) in cases {
            #expect(engine.timeline(for: payout(fields: fields)).steps.first?.after == after, "\(fields.map { "\($0.name)=\($0.value)" })")
        }
    }

    /// A timeline comes with what chose it: a rule by name (or none) and its place in its
    /// scenario, or the scenario's default; a built-in scenario's rules are magic values.
    @Test func eachTimelineSaysWhichRuleOrTheDefaultChoseIt() throws {
        var scenario = try ScenarioLoader.load(Array(#"""
        {"name": "acme bank", "bank": {"rules": [
          {"name": "acme", "when": {"merchant": "acme"}, "then": [{"after": "1s", "status": "DELIVERED"}]},
          {"when": {"country": "BR"}, "then": [{"after": "2s", "status": "DELIVERED"}]}],
          "default": [{"after": "3s", "status": "DELIVERED"}]}}
        """#.utf8), file: "acme.json", vocabulary: d24Vocabulary)
        let engine = RuleEngine(rules: scenario.rules, defaultTimeline: [], defaultScenario: scenario.name, seed: 1)
        #expect(engine.timeline(for: payout(fields: ["country": "BR"], merchant: "acme")).decision
            == TimelineDecision(kind: .rule, scenario: "acme bank", rule: "acme", index: 0))
        #expect(engine.timeline(for: payout(fields: ["country": "BR"])).decision == TimelineDecision(kind: .rule, scenario: "acme bank", index: 1))
        #expect(engine.timeline(for: payout(fields: ["country": "MX"])).decision == .defaultTimeline(of: "acme bank"))
        scenario.markBuiltIn()
        let magic = RuleEngine(rules: scenario.rules, defaultTimeline: [], seed: 1)
        #expect(magic.timeline(for: payout(fields: ["country": "BR"])).decision == TimelineDecision(kind: .magicValue, scenario: "acme "
                + "bank", index: 1))
        #expect(magic.timeline(for: payout(fields: ["country": "MX"])).decision == .defaultTimeline(of: nil))
    }

    /// A draw is keyed on the seed and what the payout is (its content and occurrence), never its
    /// id: payouts made in another order, with other ids, draw the same.
    @Test func rangesAndWeightsAreRandomButFixedBySeedAndWhatThePayoutIs() throws {
        let text = #"""
        {"bank": {"rules": [{"when": {}, "outcomes": [
          {"weight": 1, "then": [{"after": {"min": "1m", "max": "10m"}, "status": "DELIVERED"}]},
          {"weight": 1, "then": [{"after": {"min": "1m", "max": "10m"}, "status": "REJECTED"}]}]}]}}
        """#
        let first = try rules(text, seed: 1)
        let named = (0 ..< 200).map { first.timeline(for: payout(id: 1_000_001 + $0, fields: ["beneficiary_name": "n\($0)"])) }
        let again = try rules(text, seed: 1)
        #expect(named == (0 ..< 200).map { again.timeline(for: payout(id: 2_000_200 - $0, fields: ["beneficiary_name": "n\($0)"])) })
        #expect(named.allSatisfy { $0.steps[0].after >= .seconds(60) && $0.steps[0].after <= .seconds(600) })
        let rejected = named.filter { $0.steps[0].status == .rejected }.count
        #expect(rejected > 70 && rejected < 130)  // about half
        // Each says which outcome was drawn.
        #expect(named.allSatisfy { $0.decision.outcome == ($0.steps[0].status == .rejected ? 1 : 0) && $0.decision.index == 0 })
        #expect(named != (0 ..< 200).map { try! rules(text, seed: 2).timeline(for: payout(fields: ["beneficiary_name": "n\($0)"])) })
        // Payouts of one content draw apart by their occurrence, whatever their ids.
        let repeated = (1 ... 200).map { first.timeline(for: payout(id: 3_000_000 - $0, fields: ["beneficiary_name": "Ana"], occurrence: $0)) }
        let rejectedAgain = repeated.filter { $0.steps[0].status == .rejected }.count
        #expect(rejectedAgain > 70 && rejectedAgain < 130)
        #expect(repeated[1] == first.timeline(for: payout(id: 7, fields: ["beneficiary_name": "Ana"], occurrence: 2)))
    }

    /// `occurrence` in a rule's `when` takes which payout of its content the payout is: the 2nd
    /// create of 207.00 to Ana Silva; a decline asks with the occurrence a create would make.
    @Test func aRuleCanPinAnOccurrence() throws {
        let engine = try rules(#"""
        {"bank": {"rules": [
          {"name": "second", "when": {"beneficiary_name": "Ana", "occurrence": 2}, "then": [{"after": "1s", "status": "REJECTED"}]},
          {"name": "later", "when": {"occurrence": {"gte": 3}}, "decline": {"code": 504}}],
         "default": [{"after": "5s", "status": "DELIVERED"}]}}
        """#)
        #expect(engine.timeline(for: payout(fields: ["beneficiary_name": "Ana"], occurrence: 1)).decision.rule == nil)
        #expect(engine.timeline(for: payout(fields: ["beneficiary_name": "Ana"], occurrence: 2)).decision.rule == "second")
        #expect(engine.timeline(for: payout(fields: ["beneficiary_name": "Bo"], occurrence: 2)).decision.rule == nil)
        let request = PayoutRequest(dialect: "d24", account: "m", currency: "USD", amount: Money("1")!, fields: ["beneficiary_name": "Bo"])
        #expect(engine.decline(for: request, occurrence: 2) == nil)
        #expect(engine.decline(for: request, occurrence: 3) == Decline(code: "504"))
    }

    @Test func businessDaysSkipTheWeekend() throws {
        let engine = try rules(#"{"bank": {"default": [{"after": "2bd", "status": "DELIVERED"}]}}"#)
        let step = try #require(engine.timeline(for: payout(fields: [:])).steps.first)
        // Friday 2026-01-09 10:00 + 2 business days = Tuesday 2026-01-13 10:00.
        #expect(step.due(after: VirtualTime(iso8601: "2026-01-09T10:00:00Z")!).iso8601 == "2026-01-13T10:00:00Z")
        #expect(step.due(after: VirtualTime(iso8601: "2026-01-10T10:00:00Z")!).iso8601 == "2026-01-13T10:00:00Z")  // from Saturday
    }

    @Test func aDeclineRuleRefusesAtCreationAndOnlyWhenItIsTheFirstMatch() throws {
        let engine = try rules(#"""
        {"bank": {"rules": [
          {"when": {"document_id": "1"}, "then": []},
          {"when": {"beneficiary_name": {"prefix": "KYC"}}, "decline": {"code": 504, "reason": "Underage user detected", "reason_code": 105}}]}}
        """#)
        func request(_ fields: Fields) -> PayoutRequest {
            PayoutRequest(dialect: "d24", account: "m", reference: "e", country: "BR", currency: "USD", amount: Money("1")!, fields: fields)
        }
        #expect(engine.decline(for: request(["beneficiary_name": "KYC 105"]))
                == Decline(code: "504", details: ["reason": "Underage user detected", "reason_code": "105"]))
        #expect(engine.decline(for: request(["beneficiary_name": "KYC 105", "document_id": "1"])) == nil)
        #expect(engine.decline(for: request(["beneficiary_name": "Ana"])) == nil)
    }
}

/// Regex patterns are compiled once and shared: matches from many threads at once stay right.
struct MatcherConcurrencyTests {
    @Test func regexMatchesFromManyThreadsAtOnceAreRight() {
        let digits = Matcher(tests: [.regex("[0-9]{3}")])
        let order = Matcher(tests: [.regex("(ORDER|order)-[0-9]+")])
        let wrong = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0 ..< 2000 {
                let value = "\(100 + (index + thread) % 1900)"
                let ok = digits.matches(value) == (value.count == 3) && order.matches("order-\(value)") && !order.matches("x-\(value)")
                if !ok { wrong.withLock { $0 += 1 } }
            }
        }
        #expect(wrong.withLock { $0 } == 0)
    }
}

