@testable import SandboxBank
@testable import SandboxWire
@testable import CashoutSandbox
import Testing

/// A sink records what it receives, answers as scripted, and keeps the newest it was told to keep.
@Suite struct SinkStoreTests {
    private func receive(_ sinks: SinkStore, _ name: String, _ body: String) -> Int {
        sinks.receive(name, at: VirtualTime(milliseconds: 0), method: "POST", path: "/sandbox/sink/\(name)",
                      headers: ["Content-Type": "text/plain"], body: body).status
    }

    @Test func aScriptedSinkAnswersInTurnThenTwoHundred() {
        let sinks = SinkStore()
        sinks.script("shop", answers: [500, 503])
        #expect(sinks.answers("shop") == [500, 503])
        #expect([receive(sinks, "shop", "1"), receive(sinks, "shop", "2"), receive(sinks, "shop", "3")] == [500, 503, 200])
        #expect(sinks.answers("shop").isEmpty)
        #expect(sinks.received("shop").map(\.body) == ["1", "2", "3"])
        #expect(sinks.receivedCount("other") == 0)
    }

    @Test func itKeepsTheNewestItWasToldToKeepAndClearsByName() {
        let sinks = SinkStore(keeping: 2)
        for body in ["a", "b", "c"] { _ = receive(sinks, "shop", body) }
        _ = receive(sinks, "other", "x")
        #expect(sinks.received("shop").map(\.body) == ["b", "c"])
        sinks.clear("shop")
        #expect(sinks.received("shop").isEmpty && sinks.receivedCount("other") == 1)
        sinks.clearAll()
        #expect(sinks.receivedCount("other") == 0)
    }
}

/// The webhook counts count each outcome apart.
@Suite struct WebhookCountsTests {
    @Test func eachOutcomeIsCountedApart() {
        let counts = WebhookCounts()
        counts.count(.delivered)
        counts.count(.delivered)
        counts.count(.timeout)
        #expect(counts[.delivered] == 2 && counts[.timeout] == 1 && counts[.httpError] == 0)
        #expect(WebhookCounts.Outcome.allCases.map(\.label) == ["delivered", "http_error", "timeout", "connection_error", "not_sent"])
    }
}
