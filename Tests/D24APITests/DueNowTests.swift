@testable import CashoutSandbox
import Foundation
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// On a manual clock, what falls due at the current time runs at once: a merchant's hold or
/// cancel, or an admin's forced change, is notified without anybody moving the clock (the Clock and webhooks
/// guide, "The clock"). Nothing here advances the clock.
@Suite struct DueNowTests {
    /// How many notifications the sink `name` received, waiting for `count` (the clock driver
    /// sends them at once, on its own thread).
    private func received(_ sandbox: Sandbox, _ name: String, count: Int) throws -> Int {
        var received = 0
        try Waiting.until {
            received = try sandbox.admin("GET", "/sandbox/sink/\(name)")["requests"]?.arrayValue?.count ?? 0
            return received >= count
        }
        return received
    }

    /// The states of a cashout's notifications, waiting for them to be `expected` (the sink has a
    /// request before the bank records its answer).
    private func webhookStates(_ sandbox: Sandbox, cashout id: String, expected: [String]) throws -> [String] {
        var states: [String] = []
        try Waiting.until {
            let webhooks = try sandbox.admin("GET", "/sandbox/webhooks?cashout_id=\(id)")["webhooks"]?.arrayValue ?? []
            states = webhooks.compactMap { $0["state"]?.stringValue }
            return states == expected
        }
        return states
    }

    @Test func aHoldAndACancelByTheMerchantAreNotifiedWithoutMovingTheClock() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "hold-1", extra: #","notification_url":"\#(sandbox.base)/sandbox/sink/due""#)
        expectOK(try sandbox.updateStatus(updateBody(id: id, status: "ON_HOLD")), #"{"cashout_status":5,"cashout_status_description":"On Hold"}"#)
        #expect(try received(sandbox, "due", count: 1) == 1)
        #expect(try sandbox.cancel(cancelBody(id: id, externalID: "hold-1")).status == 200)
        #expect(try received(sandbox, "due", count: 2) == 2)
        #expect(try webhookStates(sandbox, cashout: id, expected: ["delivered", "delivered"]) == ["delivered", "delivered"])
        #expect(try sandbox.admin("GET", "/sandbox/clock")["now"] == "2026-01-05T09:00:00Z")
    }

    @Test func aForcedChangeIsNotifiedWithoutMovingTheClock() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "force-1", extra: #","notification_url":"\#(sandbox.base)/sandbox/sink/forced""#)
        try sandbox.force(id, #"{"action":"reject","rejection_code":801}"#)
        #expect(try received(sandbox, "forced", count: 1) == 1)
        #expect(try webhookStates(sandbox, cashout: id, expected: ["delivered"]) == ["delivered"])
        // Due before the clock moves, so not counted by the next advance.
        #expect(try sandbox.admin("POST", "/sandbox/clock/advance", #"{"by":"0s"}"#)["events_applied"] == 0)
    }
}
