@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// `GET /sandbox/health` is written as bytes around the time (AdminAPI.health): the same bytes the
/// JSON writer makes of the object, on either clock, with and without milliseconds.
@Suite struct HealthTests {
    private static func expected(mode: VirtualClock.Mode, now: String) -> [UInt8] {
        JSON.object(["status": "ok", "version": .string(Sandbox.version),
                     "clock": ["mode": .string(mode.rawValue), "now": .string(now)]]).serialized()
    }

    @Test(arguments: [VirtualClock.Mode.manual, .real])
    func theAnswerIsTheJSONWritersBytes(mode: VirtualClock.Mode) throws {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = mode
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        let sandbox = try Sandbox.launch(configuration)
        defer { sandbox.stop() }
        for step in [0, 1500, 86_400_000] {
            sandbox.advance(by: .milliseconds(step))
            let response = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/health")
            let now = try #require(JSON.parse(response.body)["clock"]?["now"]?.stringValue)
            if mode == .manual { #expect(now == sandbox.clock.now.iso8601) }
            #expect(response.body == Self.expected(mode: mode, now: now))
            #expect(response.headers["Content-Type"] == "application/json")
        }
    }
}
