@testable import CashoutSandbox
import Foundation
@testable import SandboxRunner
@testable import SandboxContract
import Testing

private func load(_ text: String) throws -> Scenario {
    try ScenarioLoader.load(Array(text.utf8), file: "t.json", vocabulary: Sandbox.standardVocabulary)
}

/// `expect_cashout`'s `decided_by`: a rule's name, a matcher on it, or an object of kind, rule,
/// index and outcome; a mismatch says what was expected and what decided.
@Suite struct ExpectDecidedByTests {
    /// The shipped example: this file's rule over a magic value, each API's magic value, a Transfer
    /// that chooses the timeline again, a weighted outcome, the default and a forced action.
    @Test func theShippedExamplePasses() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../scenarios/which-rule-decided.json")
        let result = ScenarioRunner.run(try ScenarioLoader.load(file: file.standardized.path, vocabulary: Sandbox.standardVocabulary))
        #expect(result.failure == nil)
        #expect(result.steps == 24)
    }

    @Test(arguments: [
        (#"{"expect_cashout": {"ref": "c1", "decided_by": "REJECT 801"}}"#,
         #"expect_cashout c1: expected decided_by rule "REJECT 801", got the default timeline of scenario "default bank""#),
        (#"{"expect_cashout": {"ref": "m1", "decided_by": "REJECT 802"}}"#,
         #"expect_cashout m1: expected decided_by rule "REJECT 802", got magic value "REJECT 801" (bank.rules[1] of the built-in scenario "default "#
         + #"bank")"#),
        (#"{"expect_cashout": {"ref": "m1", "decided_by": {"kind": "rule", "rule": {"prefix": "REJECT"}}}}"#,
         #"expect_cashout m1: expected decided_by kind rule, rule prefix("REJECT"), got magic value "REJECT 801" (bank.rules[1] of the built-in "#
         + #"scenario "default bank")"#),
        (#"{"expect_cashout": {"ref": "m1", "decided_by": {"index": 2}}}"#,
         #"expect_cashout m1: expected decided_by bank.rules[2], got magic value "REJECT 801" (bank.rules[1] of the built-in scenario "default "#
         + #"bank")"#),
        (#"{"expect_cashout": {"ref": "m1", "decided_by": {"outcome": 0}}}"#,
         #"expect_cashout m1: expected decided_by outcomes[0], got magic value "REJECT 801" (bank.rules[1] of the built-in scenario "default "#
         + #"bank")"#),
        (#"{"expect_cashout": {"ref": "c1", "decided_by": {"kind": "forced"}}}"#,
         #"expect_cashout c1: expected decided_by kind forced, got the default timeline of scenario "default bank""#),
        (#"{"expect_cashout": {"ref": "held", "decided_by": {"kind": "default"}}}"#,
         "expect_cashout held: expected decided_by kind default, got forced by the admin API: hold at 2026-01-05T09:00:00Z"),
    ])
    func aMismatchSaysWhatWasExpectedAndWhatDecided(step: String, message: String) throws {
        let result = ScenarioRunner.run(try load(#"""
        {"steps": [{"create_cashout": {}, "as": "c1"}, {"create_cashout": {"beneficiary_name": "REJECT 801"}, "as": "m1"},
                   {"create_cashout": {}, "as": "held"},
                   {"request": {"method": "POST", "path": "/sandbox/cashouts/{{held.cashout_id}}/actions", "json": {"action": "hold"}},
                    "expect": {"status": 200}},
                   {"expect_cashout": {"ref": "m1", "decided_by": {"kind": "magic_value", "rule": "REJECT 801", "index": 1}}},
                   {"expect_cashout": {"ref": "held", "decided_by": {"kind": "forced"}}},
                   \#(step)]}
        """#))
        let failure = try #require(result.failure)
        #expect(failure.step == 7)
        #expect(failure.message == message)
    }

    @Test(arguments: [
        (#"{"kind": "magic"}"#, #"steps[0].expect_cashout.decided_by.kind: expected one of rule, magic_value, default, forced, got "magic""#),
        (#"{"kind": "rule", "eq": "x"}"#, "steps[0].expect_cashout.decided_by.eq: unknown key (expected one of: kind, rule, index, outcome)"),
        (#"{"rulle": "x"}"#,
         "steps[0].expect_cashout.decided_by.rulle: unknown key (did you mean \"rule\"? expected a matcher's eq, in, prefix, suffix, regex, gt, "
         + "gte, lt, lte, "
            + "or kind, rule, index, outcome)"),
        (#"{"outcome": -1}"#, "steps[0].expect_cashout.decided_by.outcome: expected a whole number from 0 to 1000000, got -1"),
    ])
    func aWrongDecidedByIsRefusedWithItsPath(decidedBy: String, message: String) throws {
        do {
            _ = try load(#"{"steps": [{"expect_cashout": {"ref": "c1", "decided_by": \#(decidedBy)}}]}"#)
            Issue.record("loaded")
        } catch {
            #expect("\(error)" == "t.json: \(message)")
        }
    }
}
