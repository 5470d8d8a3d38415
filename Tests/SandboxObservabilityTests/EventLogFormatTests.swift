@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxSupport
@testable import SandboxWire
import Synchronization
import TestHelpers
import Testing

/// `Sandbox.Configuration.eventLog` in an embedded sandbox: escaping, and events after a reset.
@Suite struct EventLogFormatTests {
    /// Runs a sandbox whose event log writes into memory; returns its lines once it has stopped.
    private func lines(format: AccessLog.Format, _ body: (Sandbox) throws -> Void) throws -> [String] {
        let output = Mutex<[UInt8]>([])
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.eventLog = EventLog(format: format) { bytes in output.withLock { $0 += bytes } }
        let sandbox = try Sandbox.launch(configuration)
        try body(sandbox)
        sandbox.stop()  // flushes the log
        return String(decoding: output.withLock { $0 }, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }

    private func post(_ sandbox: Sandbox, _ path: String, _ body: String, headers: HTTPHeaders = [:]) throws -> HTTPResponse {
        let response = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)\(path)", headers: headers, body: Array(body.utf8))
        #expect(response.status == 200, "\(path): \(response.bodyText)")
        return response
    }

    private func create(_ sandbox: Sandbox, _ externalID: String) throws {
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"\#(externalID)","country":"BR","currency":"USD","#
                   + #""amount":"12.30","document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","#
                   + #""bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C"}"#
        let signature = D24Signing.payloadSignature(body)
        _ = try post(sandbox, "/v3/cashout", body, headers: ["Payload-Signature": signature])
    }

    /// Quotes, a backslash, a newline and a control character stay inside one line, and come back intact.
    private static let awkwardName = "a \"quoted\" \\ name\nwith a newline, a tab\t and é"
    private static let scenario = #"{"name": "a \"quoted\" \\ name\nwith a newline, a tab\t and é"}"#

    @Test func jsonLinesEscapeStringsAndEventsGoOnAfterAReset() throws {
        let lines = try lines(format: .json) { sandbox in
            _ = try post(sandbox, "/sandbox/scenario", Self.scenario)
            _ = try post(sandbox, "/sandbox/reset", "")
            try create(sandbox, "after-reset")
        }
        let events = try lines.map { try JSON.parse($0) }
        #expect(events.map { $0["event"]?.stringValue ?? "" } == ["scenario.loaded", "sandbox.reset", "cashout.created"])
        #expect(events.first?["name"]?.stringValue == Self.awkwardName)
        // The bank still reports to the log after a reset replaced its state.
        #expect(events.last?["external_id"] == "after-reset")
        #expect(events.last?["amount"] == "12.30")
        #expect(events.last?["cashout_id"] == 1000001)
        #expect(lines.allSatisfy { $0.hasPrefix(#"{"time":""#) })
    }

    @Test func textLinesQuoteValuesThatWouldSplitThem() throws {
        let lines = try lines(format: .text) { sandbox in _ = try post(sandbox, "/sandbox/scenario", Self.scenario) }
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.contains(#" scenario.loaded name="a \"quoted\" \\ name\nwith a newline, a tab\t and é" rules="#), "\(line)")
        #expect(line.hasSuffix(#" merchants=["sandbox_login","76561198000000001","DefaultMerchantId"]"#), "\(line)")
    }
}
