@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxSupport
@testable import SandboxWire
import Synchronization
import TestHelpers
import Testing

/// A separate HTTP server standing in for the merchant's webhook endpoint: it records every
/// request and answers from a script (then 200).
private final class Receiver: Sendable {
    let requests = Mutex<[HTTPRequest]>([])
    let answers: Mutex<[Int]>
    let server: HTTPServer

    init(answers: [Int]) throws {
        self.answers = Mutex(answers)
        let box = Box()
        server = try HTTPServer.start(configuration: .init(host: "127.0.0.1", port: 0, threads: 1)) { request in
            box.receiver?.record(request) ?? HTTPResponse(status: 500)
        }
        box.receiver = self
    }

    func record(_ request: HTTPRequest) -> HTTPResponse {
        requests.withLock { $0.append(request) }
        return HTTPResponse(status: answers.withLock { $0.isEmpty ? 200 : $0.removeFirst() })
    }

    var url: String { "http://127.0.0.1:\(server.port)/hooks/d24" }

    private final class Box: @unchecked Sendable {
        var receiver: Receiver?
    }
}

/// Python's `hmac`, as an independent check of the control string (nil without python3).
private func pythonControl(secret: String, externalID: String) throws -> String? {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
        || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3") else { return nil }
    let process = Process()
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c",
                         "import hmac,hashlib,sys; print(hmac.new(sys.argv[1].encode(), ('Be4'+sys.argv[2]+'Bo7').encode(), "
                         + "hashlib.sha256).hexdigest().upper())",
                         secret, externalID]
    process.standardOutput = output
    try process.run()
    process.waitUntilExit()
    return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

@Suite struct WebhookDeliveryTests {
    private func sandbox(timeline: [TimelineStep] = TimelineStep.defaultTimeline) throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.bank.timeline = { _ in DecidedTimeline(timeline) }
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.webhookTimeout = Waiting.limit  // the receivers here answer: none is a hang
        return try Sandbox.launch(configuration)
    }

    private func create(_ sandbox: Sandbox, externalID: String, url: String) throws -> HTTPResponse {
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"\#(externalID)","country":"BR","currency":"BRL","#
                   + #""amount":"100.00","document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","#
                   + #""bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C","comments":"order 42","#
                   + #""notification_url":"\#(url)"}"#
        let signature = D24Signing.payloadSignature(body)
        return try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/v3/cashout",
                                 headers: ["Content-Type": "application/json", "Payload-Signature": signature], body: Array(body.utf8))
    }

    private func advance(_ sandbox: Sandbox, _ by: String) throws {
        let response = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/clock/advance", body: Array(#"{"by":"\#(by)"}"#.utf8))
        #expect(response.status == 200)
    }

    @Test func eachStatusChangeIsPostedAsTheSignedFormOfTheSpec() throws {
        let receiver = try Receiver(answers: [])
        defer { receiver.server.stop() }
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        #expect(try create(sandbox, externalID: "cashoutID1234", url: receiver.url).bodyText == #"{"cashout_id":"1000001"}"#)
        try advance(sandbox, "15s")
        let received = receiver.requests.withLock { $0 }
        try #require(received.count == 2)
        let expectedControl = D24Signing.control(externalID: "cashoutID1234")
        if let python = try pythonControl(secret: "sandbox_secret", externalID: "cashoutID1234") {
            #expect(python == expectedControl)
        }
        #expect(received[0].method == "POST")
        #expect(received[0].path == "/hooks/d24")
        #expect(received[0].headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(String(decoding: received[0].body, as: UTF8.self) ==
            "date=2026-01-05%2009%3A00%3A05&bank_reference_id=&comments=order%2042&external_id=cashoutID1234"
                + "&control=\(expectedControl)&cashout_id=1000001&status_reason=")
        #expect(String(decoding: received[1].body, as: UTF8.self).hasPrefix("date=2026-01-05%2009%3A00%3A15&"))
        let fields = try #require(FormURLEncoding.decode(received[1].body))
        #expect(fields.map(\.name) == ["date", "bank_reference_id", "comments", "external_id", "control", "cashout_id", "status_reason"])
    }

    @Test func theControlMatchesTheSpecsVectorAndPython() throws {
        #expect(D24ControlVector.compute() == "DDD345FB66A8053FBB69E0DBCACFDE5F63CA05140C3A2C446B7A0E4118F8BA1D")
        if let python = try pythonControl(secret: "your_cashout_api_signature", externalID: "cashoutID1234") {
            #expect(python == D24ControlVector.compute())
        }
    }

    /// The DELIVERED notification of a payout whose bank stops there, and its journal entry.
    private func retries(answers: [Int]) throws -> (counts: [Int], journal: JSON) {
        let receiver = try Receiver(answers: answers)
        defer { receiver.server.stop() }
        let sandbox = try sandbox(timeline: [TimelineStep(after: .seconds(5), status: .delivered)])
        defer { sandbox.stop() }
        _ = try create(sandbox, externalID: "r-1", url: receiver.url)
        var counts: [Int] = []
        // Just before and at each attempt: 0, then +5, +25, +125, +625 and +3125 minutes.
        for step in ["5s", "4m", "1m", "24m", "1m", "124m", "1m", "624m", "1m", "3124m", "1m", "10000m"] {
            try advance(sandbox, step)
            counts.append(receiver.requests.withLock { $0.count })
        }
        let journal = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/webhooks?cashout_id=1000001")
        return (counts, try #require(JSON.parse(journal.body)["webhooks"]?[0]))
    }

    @Test func failedDeliveriesAreRetriedAfter5_25_125_625_3125MinutesUntilA2xx() throws {
        let (counts, webhook) = try retries(answers: [500, 503, 404, 500, 502])
        #expect(counts == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6])
        #expect(webhook["attempts"]?.arrayValue?.compactMap { $0["at"]?.stringValue } == [
            "2026-01-05T09:00:05Z", "2026-01-05T09:05:05Z", "2026-01-05T09:30:05Z", "2026-01-05T11:35:05Z",
            "2026-01-05T22:00:05Z", "2026-01-08T02:05:05Z"])
        #expect(webhook["attempts"]?.arrayValue?.compactMap { $0["response_status"]?.numberText } == ["500", "503", "404", "500", "502", "200"])
        #expect(webhook["state"] == "delivered")
    }

    @Test func deliveriesGiveUpAfterFiveRetries() throws {
        let (counts, webhook) = try retries(answers: Array(repeating: 500, count: 10))
        #expect(counts.last == 6)
        #expect(webhook["state"] == "failed")
        #expect(webhook["next_attempt_at"] == .null)
    }

    @Test func aRefusedConnectionCountsAsAFailedAttempt() throws {
        let sandbox = try sandbox(timeline: [TimelineStep(after: .seconds(5), status: .delivered)])
        defer { sandbox.stop() }
        _ = try create(sandbox, externalID: "r-1", url: "http://127.0.0.1:9/hooks")
        try advance(sandbox, "5s")
        let journal = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/webhooks")
        let attempt = try #require(JSON.parse(journal.body)["webhooks"]?[0]?["attempts"]?[0])
        #expect(attempt["response_status"] == .null)
        #expect(attempt["error"]?.stringValue?.contains("Connection refused") == true)
    }

    @Test func aReceiverThatTimesOutIsRetriedOnTheSchedule() throws {
        // It answers once the attempt has timed out and the test has looked: never in time, however slow the machine.
        let late = Latch()
        let slow = try HTTPServer.start(configuration: .init(host: "127.0.0.1", port: 0, threads: 1)) { _ in
            .deferred { answer in late.notify { answer(HTTPResponse(status: 200)) } }
        }
        defer {
            late.open()
            slow.stop()
        }
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.webhookTimeout = .milliseconds(150)
        configuration.bank.timeline = { _ in DecidedTimeline([TimelineStep(after: .seconds(5), status: .delivered)]) }
        let sandbox = try Sandbox.launch(configuration)
        defer { sandbox.stop() }
        _ = try create(sandbox, externalID: "t-1", url: "http://127.0.0.1:\(slow.port)/hook")
        try advance(sandbox, "5s")
        let journal = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/webhooks").body)
        let webhook = try #require(journal["webhooks"]?[0])
        #expect(webhook["attempts"]?[0]?["error"] == "timed out")
        #expect(webhook["state"] == "pending")
        #expect(webhook["next_attempt_at"] == "2026-01-05T09:05:05Z")
    }

    @Test func aFailedRedeliveryLeavesTheScheduledRetriesAlone() throws {
        let sandbox = try sandbox(timeline: [TimelineStep(after: .seconds(5), status: .delivered)])
        defer { sandbox.stop() }
        let sink = "\(sandbox.baseURL)/sandbox/sink/r"
        _ = try TestHTTP.send(method: "PUT", url: sink, body: Array(#"{"answers":[500,500,500,200]}"#.utf8))
        _ = try create(sandbox, externalID: "r-1", url: sink)
        try advance(sandbox, "5s")  // scheduled attempt 1: 500
        let redelivered = try JSON.parse(TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/webhooks/1/redeliver").body)
        #expect(redelivered["state"] == "pending")
        #expect(redelivered["next_attempt_at"] == "2026-01-05T09:05:05Z")
        #expect(redelivered["attempts"]?[1]?["manual"] == true)
        try advance(sandbox, "5m")  // scheduled attempt 2 at +5 min: 500; the next is 25 min later
        let journal = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/webhooks").body)
        #expect(journal["webhooks"]?[0]?["next_attempt_at"] == "2026-01-05T09:30:05Z")
        try advance(sandbox, "25m")
        let done = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/webhooks").body)
        #expect(done["webhooks"]?[0]?["state"] == "delivered")
        #expect(done["webhooks"]?[0]?["attempts"]?.arrayValue?.count == 4)
    }

    @Test func aWebhookToTheSandboxItselfIsAnsweredEvenWithOneLoopThread() throws {
        var configuration = Sandbox.Configuration()
        configuration.server.threads = 1
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.bank.timeline = { _ in DecidedTimeline([TimelineStep(after: .seconds(5), status: .delivered)]) }
        configuration.webhookTimeout = Waiting.limit  // a loop thread waiting on itself would reach it
        let sandbox = try Sandbox.launch(configuration)
        defer { sandbox.stop() }
        _ = try create(sandbox, externalID: "self-1", url: "\(sandbox.baseURL)/not-a-sink")
        try advance(sandbox, "5s")
        // Answered by the sandbox (its 404), not given up on: the one loop thread did not wait on itself.
        let journal = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/webhooks").body)
        let attempt = try #require(journal["webhooks"]?[0]?["attempts"]?[0])
        #expect((attempt["error"] ?? .null) == .null)
        #expect(attempt["response_status"] == 404)
    }

    @Test func theBuiltInSinkRecordsNotificationsAndAnswersFromItsScript() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let sink = "\(sandbox.baseURL)/sandbox/sink/merchant-a"
        #expect(try TestHTTP.send(method: "PUT", url: sink, body: Array(#"{"answers":[500]}"#.utf8)).status == 204)
        _ = try create(sandbox, externalID: "s-1", url: sink)
        try advance(sandbox, "15s")
        let received = try JSON.parse(TestHTTP.send(method: "GET", url: sink).body)
        #expect(received["requests"]?.arrayValue?.compactMap { $0["answered"]?.numberText } == ["500", "200"])
        #expect(received["requests"]?[0]?["form"]?["external_id"] == "s-1")
        try advance(sandbox, "5m")
        #expect(try JSON.parse(TestHTTP.send(method: "GET", url: sink).body)["requests"]?.arrayValue?.count == 3)
        #expect(try TestHTTP.send(method: "DELETE", url: sink).status == 204)
        #expect(try JSON.parse(TestHTTP.send(method: "GET", url: sink).body)["requests"] == [])
    }

    /// Behind a port mapping (`docker run -p 9000:8080`) the Postman environment and the dashboard
    /// name the sandbox by the Host they were asked on; its sink under that name is still its own.
    @Test func theSinkUnderTheNameTheDocumentsWereAskedOnIsDeliveredInProcess() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let mapped = "http://localhost:9/sandbox/sink/mapped"  // port 9 (discard): nothing would answer there
        _ = try create(sandbox, externalID: "before", url: mapped)
        try advance(sandbox, "15s")
        let journal = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/webhooks").body)
        #expect(journal["webhooks"]?[0]?["attempts"]?[0]?["response_status"] == .null)  // a real POST, refused
        let environment = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/postman/environment.json", headers: ["Host": "LocalHost:9"])
        #expect(try JSON.parse(environment.body)["values"]?[0]?["value"] == "http://LocalHost:9")
        _ = try create(sandbox, externalID: "after", url: mapped)
        try advance(sandbox, "15s")
        let received = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/sink/mapped").body)
        #expect(received["requests"]?.arrayValue?.compactMap { $0["form"]?["external_id"]?.stringValue } == ["after", "after"])
    }

    /// A 1xx is not a final answer: scripting one would leave the notifier waiting for a response that never comes.
    @Test(arguments: [#"{"answers":[500,101]}"#, #"{"answers":[600]}"#, #"{"answers":["500"]}"#, #"{"answer":[500]}"#])
    func theSinkRefusesScriptsThatAreNotFinalHTTPStatuses(script: String) throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let sink = "\(sandbox.baseURL)/sandbox/sink/merchant-a"
        let response = try TestHTTP.send(method: "PUT", url: sink, body: Array(script.utf8))
        #expect(response.status == 400)
        #expect(String(decoding: response.body, as: UTF8.self)
            == #"{"code":400,"message":"expected {\"answers\": [500, 500, 200], \"check_signatures\": true, \"deduplicate\": true}, each optional: "#
               + #"answers are HTTP statuses 200 to 599, one per request processed"}"#)
        #expect(try JSON.parse(TestHTTP.send(method: "GET", url: sink).body)["answers"] == [])
    }
}

/// The `control` example of D24's page "Notifications".
enum D24ControlVector {
    static func compute() -> String {
        D24Signing.control(externalID: "cashoutID1234", secret: "your_cashout_api_signature")
    }
}
