import Foundation
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// What `serve` prints once it listens: the clock, the scenarios, the dashboard and the docs,
/// in text and as JSON objects; the URLs it prints answer.
@Suite struct StartupLinesTests {
    private func scenarioFile() throws -> String {
        let path = NSTemporaryDirectory() + "startup-\(UUID().uuidString).json"
        try #"{"name": "startup check", "clock": {"mode": "manual", "start": "2026-03-02T12:00:00Z"}}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The lines after the `listening on` ones, up to the first account line.
    private func startupLines(_ binary: RunningBinary) throws -> [String] {
        _ = try #require(binary.line(startingWith: "merchant: "))
        let lines = binary.stdout.split(separator: "\n").map(String.init)
        let first = try #require(lines.lastIndex { $0.contains("listening on http://") }) + 1
        let accounts = try #require(lines.firstIndex { $0.hasPrefix("merchant: ") })
        return Array(lines[first ..< accounts])
    }

    @Test func aRealClockItsScaleNoScenarioAndURLsThatAnswer() throws {
        let binary = try RunningBinary(["serve", "--port", "0", "--host", "127.0.0.1", "--time-scale", "60"])
        let url = try #require(binary.url)
        let lines = try startupLines(binary)
        #expect(lines.count == 4)
        let clock = /clock: real, time scale 60 \(virtual seconds per real second\), now \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z/
        #expect(lines[0].wholeMatch(of: clock) != nil)
        #expect(lines[1] == "scenario: none (the built-in default bank and its magic values decide)")
        #expect(lines[2] == "dashboard: \(url)/")
        #expect(lines[3] == "docs: \(url)/openapi.json (OpenAPI 3.1), \(url)/postman.json (Postman collection)")
        for path in ["/", "/openapi.json", "/postman.json"] {
            #expect(try TestHTTP.send(method: "GET", url: url + path).status == 200)
        }
        #expect(binary.terminate() == 0)
    }

    @Test func aManualClockItsStartAndEachScenarioLoaded() throws {
        let file = try scenarioFile()
        let binary = try RunningBinary(["serve", "--port", "0", "--scenario", file, "--scenario", file])
        let lines = try startupLines(binary)
        #expect(Array(lines.prefix(3)) == [
            "clock: manual, now 2026-03-02T12:00:00Z (it moves only when advanced: POST /sandbox/clock/advance)",
            "scenario: startup check (\(file))",
            "scenario: startup check (\(file))",
        ])
        #expect(binary.terminate() == 0)
    }

    @Test func inJSONEachLineIsAnEventWithItsFields() throws {
        let file = try scenarioFile()
        let binary = try RunningBinary(["serve", "--port", "0", "--host", "127.0.0.1", "--log-format", "json", "--scenario", file])
        _ = try #require(binary.line(containing: #""event":"server.docs""#))
        let events = try binary.stdout.split(separator: "\n").map { try JSON.parse(String($0)) }
        let url = try #require(events.first { $0["event"] == "server.listening" }?["url"]?.stringValue)
        let clock = try #require(events.first { $0["event"] == "server.clock" })
        #expect(clock["mode"] == "manual")
        #expect(clock["now"] == "2026-03-02T12:00:00Z")
        #expect(clock["message"]?.stringValue?.hasPrefix("clock: manual, now 2026-03-02T12:00:00Z") == true)
        let scenario = try #require(events.first { $0["event"] == "server.scenario" })
        #expect(scenario["name"] == "startup check")
        #expect(scenario["file"]?.stringValue == file)
        #expect(events.first { $0["event"] == "server.dashboard" }?["url"]?.stringValue == url + "/")
        let docs = try #require(events.first { $0["event"] == "server.docs" })
        #expect(docs["openapi"]?.stringValue == url + "/openapi.json")
        #expect(docs["postman"]?.stringValue == url + "/postman.json")
        #expect(binary.terminate() == 0)
    }

    @Test func theTimeScaleIsANumberInJSON() throws {
        let binary = try RunningBinary(["serve", "--port", "0", "--log-format", "json", "--time-scale", "0.5"])
        let line = try #require(binary.line(containing: #""event":"server.clock""#))
        let clock = try JSON.parse(line)
        #expect(clock["mode"] == "real")
        #expect(clock["time_scale"]?.numberText == "0.5")
        #expect(binary.terminate() == 0)
    }
}
