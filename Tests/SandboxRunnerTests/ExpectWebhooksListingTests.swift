@testable import CashoutSandbox
@testable import SandboxRunner
@testable import SandboxContract
import Testing

// A failing expect_webhooks lists every delivery under its message (ScenarioRunner.deliveryListing):
// time, cashout (when several), the status that caused it, attempt and retry, the answer.

@Suite struct ExpectWebhooksListingTests {
    /// c1 (LATE REJECT 826) notifies a sink that fails once, and is redelivered by hand; the second
    /// cashout has no notification URL.
    private func failure(_ expectation: String) throws -> String {
        let text = #"""
            {"name": "listing", "webhooks": {"sinks": {"shop": {"answers": [500, 200]}}},
             "steps": [
               {"create_cashout": {"notification_url": "{{base_url}}/sandbox/sink/shop", "beneficiary_name": "LATE REJECT 826"}, "as": "c1"},
               {"advance": "6m"},
               {"request": {"method": "POST", "path": "/sandbox/webhooks/1/redeliver"}, "expect": {"status": 200}},
               {"create_cashout": {"notification_url": null}},
               {"advance": "2h"},
               \#(expectation)]}
            """#
        let result = ScenarioRunner.run(try ScenarioLoader.load(Array(text.utf8), file: "t.json",
                                                                vocabulary: Sandbox.Configuration().scenarioVocabulary))
        let failure = try #require(result.failure)
        #expect(failure.step == 6)
        return failure.message
    }

    @Test func aCountThatDiffersListsEveryDeliveryOfEveryCashout() throws {
        #expect(try failure(#"{"expect_webhooks": {"count": 2}}"#) == """
            expect_webhooks: expected 2 notifications, got 5
              2026-01-05T09:00:05Z  c1               DELIVERED  #1               answered 500
              2026-01-05T09:00:15Z  c1               COMPLETED  #1               answered 200
              2026-01-05T09:05:05Z  c1               DELIVERED  #2, retry        answered 200
              2026-01-05T09:06:00Z  c1               DELIVERED  #3, redelivered  answered 200
              2026-01-05T09:06:05Z  cashout 1000002  DELIVERED                   not sent: no notification URL
              2026-01-05T09:06:15Z  cashout 1000002  COMPLETED                   not sent: no notification URL
              2026-01-05T10:00:15Z  c1               REJECTED   #1               answered 200
            """)
    }

    @Test func attemptsOrStatusesThatDifferListTheDeliveriesOfTheirCashout() throws {
        let listing = """
              2026-01-05T09:00:05Z  DELIVERED  #1               answered 500
              2026-01-05T09:00:15Z  COMPLETED  #1               answered 200
              2026-01-05T09:05:05Z  DELIVERED  #2, retry        answered 200
              2026-01-05T09:06:00Z  DELIVERED  #3, redelivered  answered 200
              2026-01-05T10:00:15Z  REJECTED   #1               answered 200
            """
        #expect(try failure(#"{"expect_webhooks": {"ref": "c1", "attempts": 3}}"#)
            == "expect_webhooks c1: expected 3 delivery attempts, got 5\n" + listing)
        #expect(try failure(#"{"expect_webhooks": {"ref": "c1", "statuses": ["DELIVERED", "REJECTED"]}}"#)
            == "expect_webhooks c1: expected statuses DELIVERED, REJECTED, got DELIVERED, COMPLETED, REJECTED\n" + listing)
    }

    @Test func withoutNotificationsNothingIsListed() throws {
        #expect(try failure(#"{"expect_webhooks": {"ref": "c1", "count": 3, "statuses": ["DELIVERED"]}}"#).hasPrefix(
            "expect_webhooks c1: expected statuses DELIVERED, got DELIVERED, COMPLETED, REJECTED\n"))
        let result = ScenarioRunner.run(try ScenarioLoader.load(Array(#"{"steps": [{"expect_webhooks": {"count": 1}}]}"#.utf8), file: "t.json",
                                                                vocabulary: Sandbox.Configuration().scenarioVocabulary))
        #expect(result.failure?.message == "expect_webhooks: expected 1 notifications, got 0")
    }

    @Test func aChaosDeliveryIsMarkedWithWhatChaosDid() throws {
        let text = #"""
            {"name": "chaos listing", "webhooks": {"chaos": [{"name": "twice", "when": {"status": "COMPLETED"}, "kind": "duplicate", "after": \#
            "10s"}]},
             "steps": [{"create_cashout": {}, "as": "c1"}, {"advance": "1m"}, {"expect_webhooks": {"ref": "c1", "attempts": 2}}]}
            """#
        let result = ScenarioRunner.run(try ScenarioLoader.load(Array(text.utf8), file: "t.json",
                                                                vocabulary: Sandbox.Configuration().scenarioVocabulary))
        #expect(result.failure?.message == """
            expect_webhooks c1: expected 2 delivery attempts, got 3
              2026-01-05T09:00:05Z  DELIVERED  #1  answered 200
              2026-01-05T09:00:15Z  COMPLETED  #1  answered 200
              2026-01-05T09:00:25Z  COMPLETED  #2  answered 200  chaos: duplicate of attempt 1, 10s after it (chaos rule 0 "twice")
            """)
    }
}
