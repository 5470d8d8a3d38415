@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
import TestHelpers
import Testing
import FoundationEssentials

@Suite struct SandboxTests {
    @Test func startsOnAFreePortAndAnswersHealthWithTheClock() async throws {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        let sandbox = try await Sandbox.start(configuration)
        defer { sandbox.stop() }
        #expect(sandbox.baseURL.absoluteString.hasPrefix("http://127.0.0.1:"))
        #expect(sandbox.baseURL.port != 8080 && sandbox.baseURL.port != 0)
        let health = try TestHTTP.send(method: "GET", url: sandbox.baseURL.absoluteString + "/sandbox/health")
        #expect(health.status == 200)
        #expect(health.headers["Content-Type"] == "application/json")
        #expect(health.bodyText == #"{"clock":{"mode":"manual","now":"2026-01-05T09:00:00Z"},"status":"ok","version":"\#(Sandbox.version)"}"#)

        #expect(sandbox.advance(by: .seconds(90)) == 0)
        let later = try TestHTTP.send(method: "GET", url: sandbox.baseURL.absoluteString + "/sandbox/health")
        #expect(later.bodyText.contains(#""now":"2026-01-05T09:01:30Z""#))
    }

    @Test func severalInstancesRunSideBySideAndStopForGood() async throws {
        let sandboxes = try await [Sandbox.start(Sandbox.Configuration()), Sandbox.start(Sandbox.Configuration()),
                                   Sandbox.start(Sandbox.Configuration())]
        #expect(Set(sandboxes.map(\.baseURL)).count == 3)
        for sandbox in sandboxes {
            #expect(try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/health").status == 200)
        }
        for sandbox in sandboxes {
            sandbox.stop()
            #expect(throws: HTTPClientError.self) {
                try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/health")
            }
        }
    }

    @Test func unknownSandboxPathsAnswerJSON404() async throws {
        let sandbox = try await Sandbox.start(Sandbox.Configuration())
        defer { sandbox.stop() }
        let response = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/nothing")
        #expect(response.status == 404)
        #expect(response.bodyText == #"{"code":404,"message":"No such endpoint: GET /sandbox/nothing"}"#)
    }
}
