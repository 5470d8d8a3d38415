@testable import CashoutSandbox
@testable import SandboxRunner
@testable import SandboxContract
import Testing
import Foundation
import FoundationEssentials

/// `expect_deliveries` and `expect_sink` hold when the receiver did what they say, and say what
/// happened when it did not; `expect_failure` passes a suite that fails and fails one that passes.
@Suite struct ChaosStepTests {
    static func run(_ text: String) throws -> ScenarioResult {
        ScenarioRunner.run(try ScenarioLoader.load(Array(text.utf8), file: "t.json", vocabulary: Sandbox.Configuration().scenarioVocabulary))
    }

    /// A D24 cashout to a signature-checking sink: DELIVERED forged, COMPLETED duplicated.
    static func suite(_ steps: String, sink: String = #"{"check_signatures": true}"#, more: String = "") -> String {
        #"""
        {"webhooks": {"sinks": {"shop": \#(sink)},
                      "chaos": [{"name": "stale", "when": {"status": "DELIVERED"}, "kind": "forged"},
                                {"when": {"status": "COMPLETED"}, "kind": "duplicate", "after": "10s"}]},
         \#(more)
         "steps": [{"create_cashout": {"notification_url": "{{base_url}}/sandbox/sink/shop"}, "as": "c1"}, {"advance": "1m"}, \#(steps)]}
        """#
    }

    @Test(arguments: [
        #"{"expect_deliveries": {"ref": "c1", "chaos": "forged", "count": 1, "answered": 401}}"#,
        #"{"expect_deliveries": {"ref": "c1", "chaos": "forged", "answered": "non-2xx"}}"#,
        #"{"expect_deliveries": {"ref": "c1", "chaos": "forged", "answered": {"gte": 400, "lt": 500}}}"#,
        #"{"expect_deliveries": {"ref": "c1", "chaos": "duplicate", "count": 1, "answered": "2xx"}}"#,
        #"{"expect_deliveries": {"ref": "c1", "chaos": "none", "count": 2, "answered": 200}}"#,
        #"{"expect_deliveries": {"chaos": "replay", "count": 0}}"#,
        #"{"expect_deliveries": {"ref": "c1", "status": "COMPLETED", "count": 2}}"#,
        #"{"expect_deliveries": {"ref": "c1", "count": 4}}"#,
        #"{"expect_sink": {"name": "shop", "received": 4, "processed": 3, "refused": 1, "duplicates": 0, "failed": 0}}"#,
        #"{"expect_sink": {"name": "shop", "ref": "c1", "status": "COMPLETED", "processed": 2}}"#,
        #"{"expect_sink": {"name": "nobody", "received": 0}}"#,
    ])
    func aStepThatMatchesWhatTheReceiverDidHolds(step: String) throws {
        let result = try Self.run(Self.suite(step))
        #expect(result.failure == nil, "\(result.failure?.message ?? "")")
    }

    /// A sink keeps its last 1,000 requests whole and counts every one: `expect_sink` counts past
    /// them, and a failing one lists the last it keeps.
    @Test func aSinkCountsEveryRequestPastTheThousandItKeeps() throws {
        let steps = #"""
            {"steps": [{"create_cashouts": {"count": 600, "fields": {"notification_url": "{{base_url}}/sandbox/sink/many"}}}, {"advance": "1m"},
                       {"expect_sink": {"name": "many", "received": 1200, "processed": 1200, "failed": 0}}, STEP]}
            """#
        #expect(try Self.run(steps.replacingOccurrences(of: ", STEP", with: "")).failure == nil)
        let failure = try #require(try Self.run(steps.replacingOccurrences(of: "STEP",
                                                                           with: #"{"expect_sink": {"name": "many", "received": 7}}"#)).failure)
        #expect(failure.message.hasPrefix("expect_sink many: expected 7 received, got 1200; the last 1000 of 1200 requests: "))
        #expect(failure.message.components(separatedBy: "; ").count == 1 + 1000)
    }

    /// What a failing expect_deliveries lists of `suite`'s deliveries, as a failing expect_webhooks does.
    static let listing = #"""
          2026-01-05T09:00:05Z  DELIVERED  #1  answered 200
          2026-01-05T09:00:05Z  DELIVERED  #2  answered 401  chaos: forged copy of attempt 1, signed with a wrong secret (chaos rule 0 "stale")
          2026-01-05T09:00:15Z  COMPLETED  #1  answered 200
          2026-01-05T09:00:25Z  COMPLETED  #2  answered 200  chaos: duplicate of attempt 1, 10s after it (chaos rule 1)
        """#

    /// A `ref` that no earlier step named is refused when the file is loaded, as for every step.
    @Test(arguments: [
        (#"{"expect_deliveries": {"ref": "zz", "count": 1}}"#,
         #"t.json: steps[2].expect_deliveries.ref: expected the "as" of an earlier step, got "zz" (named so far: c1)"#),
        (#"{"expect_sink": {"name": "shop", "ref": "zz", "processed": 1}}"#,
         #"t.json: steps[2].expect_sink.ref: expected the "as" of an earlier step, got "zz" (named so far: c1)"#),
    ])
    func aRefNamedByNoEarlierStepIsRefusedWhenLoaded(step: String, message: String) {
        #expect(throws: ScenarioError.self) { try Self.run(Self.suite(step)) }
        do {
            _ = try Self.run(Self.suite(step))
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test(arguments: [
        (#"{"expect_deliveries": {"ref": "c1", "chaos": "forged", "answered": "2xx"}}"#,
         "expect_deliveries c1 (chaos forged): expected every answer 2xx, but attempt #2 of webhook 1 (DELIVERED, 2026-01-05T09:00:05Z) answered "
         + "401\n"
            + listing),
        (#"{"expect_deliveries": {"ref": "c1", "chaos": "duplicate", "count": 2}}"#,
         "expect_deliveries c1 (chaos duplicate): expected 2 deliveries, got 1\n" + listing),
        (#"{"expect_deliveries": {"ref": "c1", "chaos": "replay", "answered": 200}}"#,
         "expect_deliveries c1 (chaos replay): expected deliveries answered 200, got none\n" + listing),
        (#"{"expect_sink": {"name": "shop", "ref": "c1", "status": "COMPLETED", "processed": 1}}"#,
         "expect_sink shop c1 COMPLETED: expected 1 processed, got 2; requests: 2026-01-05T09:00:05Z cashout 1000001 DELIVERED: 200 processed; "
            + "2026-01-05T09:00:05Z cashout 1000001 DELIVERED: 401 refused (control "),
        (#"{"expect_sink": {"name": "nobody", "processed": 1}}"#, "expect_sink nobody: expected 1 processed, got 0; it received nothing"),
    ])
    func aStepThatDoesNotSaysWhatItExpectedAndListsWhatHappened(step: String, message: String) throws {
        let result = try Self.run(Self.suite(step))
        let failure = try #require(result.failure)
        #expect(failure.step == 3)
        #expect(failure.message.hasPrefix(message), "\(failure.message)")
    }

    @Test func aSuiteExpectedToFailPassesWhenAStepFailsAndShowsTheFailure() throws {
        let marked = #""expect_failure": "the handler acts twice on a duplicate","#
        let result = try Self.run(Self.suite(#"{"expect_sink": {"name": "shop", "status": "COMPLETED", "processed": 1}}"#, more: marked))
        #expect(result.passed)
        let shown = try #require(result.expectedFailure)
        #expect(shown.reason == "the handler acts twice on a duplicate")
        #expect(shown.step == 3 && shown.message.hasPrefix("expect_sink shop COMPLETED: expected 1 processed, got 2"))
        #expect(JUnitReport.xml([result]).contains("<system-out>failed as expected (the handler acts twice on a duplicate): step 3: expect_sink "
                                                   + "shop"))
        #expect(JUnitReport.xml([result]).contains(#"failures="0""#))

        // Deduplicating, the handler passes the step: then the suite fails, saying so.
        let passing = try Self.run(Self.suite(#"{"expect_sink": {"name": "shop", "status": "COMPLETED", "processed": 1}}"#,
                                              sink: #"{"check_signatures": true, "deduplicate": true}"#, more: marked))
        let failure = try #require(passing.failure)
        #expect(failure.step == 3 && failure.message == "expected a failure (the handler acts twice on a duplicate), but every step passed")
        #expect(passing.expectedFailure == nil)
    }

    @Test func expectFailureNeedsStepsAndAReason() throws {
        let vocabulary = Sandbox.Configuration().scenarioVocabulary
        #expect(throws: ScenarioError.self) { try ScenarioLoader.load(Array(#"{"expect_failure": "x"}"#.utf8), file: "t.json",
                                                                      vocabulary: vocabulary) }
        do {
            _ = try ScenarioLoader.load(Array(#"{"expect_failure": "", "steps": [{"advance": "1s"}]}"#.utf8), file: "t.json", vocabulary: vocabulary)
            Issue.record("an empty reason was accepted")
        } catch {
            #expect("\(error)" == "t.json: expect_failure: expected a non-empty string")
        }
    }
}
