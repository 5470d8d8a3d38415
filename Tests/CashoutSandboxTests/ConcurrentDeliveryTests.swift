@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxSupport
@testable import SandboxWire
import Synchronization
import TestHelpers
import Testing
@testable import SandboxPersistence

/// A webhook receiver on its own server: `/ok/...` answers 200, `/fail/...` 500, `/hang/...`
/// never, `/held/...` 200 once `release` opens; with `slow`, each answer comes 0–200 ms late
/// (from a seeded sequence, not the clock). Stopping it closes the connections still waiting.
private final class Receiver: Sendable {
    let slow = Atomic<Bool>(false)
    let requests = Atomic<Int>(0)
    let release = Latch()
    private let delays = Mutex(SplitMix64(seed: 5))
    private let box = Box()
    let server: HTTPServer

    init() throws {
        let box = box
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: 2)
        configuration.gracePeriod = .zero
        server = try HTTPServer.start(configuration: configuration) { request in
            box.receiver?.answer(request) ?? HTTPResponse(status: 500)
        }
        box.receiver = self
    }

    /// When each request arrived (wall time), by path.
    let arrivals = Mutex<[String: [Date]]>([:])

    /// How many requests arrived at paths starting with `prefix`.
    func arrived(_ prefix: String) -> Int {
        arrivals.withLock { $0.filter { $0.key.hasPrefix(prefix) }.map(\.value.count).reduce(0, +) }
    }

    func answer(_ request: HTTPRequest) -> HTTPResponse {
        requests.add(1, ordering: .relaxed)
        arrivals.withLock { $0[String(request.path), default: []].append(Date()) }
        let status = request.path.hasPrefix("/ok/") || request.path.hasPrefix("/held/") ? 200 : 500
        if request.path.hasPrefix("/hang/") { return .deferred { _ in } }
        if request.path.hasPrefix("/held/") {
            return .deferred { [release] answer in release.notify { answer(.json(["received": true], status: status)) } }
        }
        guard slow.load(ordering: .relaxed) else { return .json(["received": true], status: status) }
        let delay = UInt32(delays.withLock { $0.next() % 200 }) * 1000
        return .deferred { answer in
            Thread.detachNewThread {  // not Dispatch's pool, which the sandbox's waits could starve in this one process
                usleep(delay)
                answer(.json(["received": true], status: status))
            }
        }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(server.port)\(path)" }

    private final class Box: @unchecked Sendable {
        var receiver: Receiver?
    }
}

/// Webhooks are delivered side by side, off the path that applies status changes: a receiver
/// that never answers holds up no other cashout, and no other receiver. On a manual clock the
/// journal does not depend on how fast receivers answer.
@Suite struct ConcurrentDeliveryTests {
    private func create(_ sandbox: Sandbox, _ externalID: String, url: String) throws -> Int {
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"\#(externalID)","country":"BR","currency":"BRL","#
                   + #""amount":"100.00","document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","#
                   + #""bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C","notification_url":"\#(url)"}"#
        let signature = Hex.lowercase(HMACSHA256.authenticationCode(for: Array(body.utf8), key: HMACSHA256.Key("sandbox_secret")))
        let response = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/v3/cashout",
                                         headers: ["Content-Type": "application/json", "Payload-Signature": signature], body: Array(body.utf8))
        try #require(response.status == 200, "\(response.bodyText)")
        return try #require(JSON.parse(response.body)["cashout_id"]?.stringValue.flatMap { Int($0) })
    }

    private func admin(_ sandbox: Sandbox, _ method: String, _ path: String, _ body: String = "") throws {
        // An advance waits for each round of deliveries it runs: rounds of receivers that hang
        // take the webhook timeout each, several seconds in all.
        let response = try TestHTTP.send(method: method, url: "\(sandbox.baseURL)\(path)", body: Array(body.utf8))
        try #require(response.status == 200, "\(path): \(response.bodyText)")
    }

    @Test func receiversThatNeverAnswerHoldUpNoOtherCashoutNorReceiver() throws {
        let receiver = try Receiver()
        defer { receiver.server.stop() }
        var configuration = Sandbox.Configuration()
        configuration.bank.timeline = { _ in
            DecidedTimeline([TimelineStep(after: .milliseconds(300), status: .delivered),
                             TimelineStep(after: .milliseconds(300), status: .completed)])
        }
        // Longer than the test waits for anything: whatever happens below happens while the
        // hanging deliveries are on their way.
        configuration.webhookTimeout = .seconds(10 * Waiting.seconds)
        let sandbox = try Sandbox.launch(configuration)  // a real-time clock
        defer { sandbox.stop() }
        let hanging = try (0 ..< 6).map { try create(sandbox, "hang-\($0)", url: receiver.url("/hang/\($0)")) }
        let other = try create(sandbox, "other", url: "\(sandbox.baseURL)/sandbox/sink/other")
        let created = try #require(sandbox.bank.payout(id: other)?.createdAt)
        let remote = try create(sandbox, "remote", url: receiver.url("/ok/remote"))
        #expect(Waiting.until { receiver.arrived("/hang/") == 6 }, "the hanging receivers were not all sent to")
        // Every cashout completes, each change notified to the sink and to the other server's
        // receiver...
        #expect(Waiting.until { (hanging + [other, remote]).allSatisfy { sandbox.bank.payout(id: $0)?.status == .completed } })
        #expect(Waiting.until { sandbox.sinks.received("other").count == 2 && receiver.arrived("/ok/remote") == 2 })
        // ...while every hanging delivery is still unanswered: nothing waited for them, nor for
        // anyone's timeout.
        let hangingNotifications = sandbox.bank.notifications().filter { $0.url?.contains("/hang/") == true }
        #expect(hangingNotifications.count >= 6 && hangingNotifications.allSatisfy(\.attempts.isEmpty))
        // Each notification went out once its change was due (the sink's own record of when).
        for (index, request) in sandbox.sinks.received("other").enumerated() {
            let due = created.adding(.milliseconds(300 * (index + 1)))
            #expect(request.at.milliseconds >= due.milliseconds, "notification \(index + 1): \(due.milliseconds - request.at.milliseconds) ms early")
        }
    }

    /// An advance on a real-time clock waits for the answers on their way without holding up
    /// the clock's other work: a receiver that hangs delays no other cashout past its due time.
    @Test func anAdvanceOnARealClockHoldsUpNoOtherCashout() throws {
        let receiver = try Receiver()
        defer { receiver.server.stop() }
        let log = Mutex("")
        var configuration = Sandbox.Configuration()
        configuration.bank.timeline = { payout in
            DecidedTimeline([TimelineStep(after: .milliseconds(payout.reference == "hang" ? 100 : 600), status: .delivered)])
        }
        configuration.webhookTimeout = .seconds(10 * Waiting.seconds)  // the hanging answer ends when the receiver stops
        configuration.eventLog = EventLog(format: .json) { bytes in log.withLock { $0 += String(decoding: bytes, as: UTF8.self) } }
        let sandbox = try Sandbox.launch(configuration)
        defer { sandbox.stop() }
        _ = try create(sandbox, "hang", url: receiver.url("/hang/1"))
        #expect(Waiting.until { receiver.arrived("/hang/1") == 1 }, "the hanging receiver was not sent to")
        // The advance runs what is due, then waits for the hanging answer...
        let advanced = Mutex<Result<HTTPResponse, HTTPClientError>?>(nil)
        Thread.detachNewThread {
            let result = Result { () throws(HTTPClientError) in
                try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/clock/advance", body: Array(#"{"by":"0s"}"#.utf8))
            }
            advanced.withLock { $0 = result }
        }
        #expect(Waiting.until { log.withLock { $0.contains(#""event":"clock.advanced""#) } })
        // ...while the clock goes on: a cashout created now is notified when its change is due.
        let other = try create(sandbox, "other", url: "\(sandbox.baseURL)/sandbox/sink/other")
        let due = try #require(sandbox.bank.payout(id: other)?.createdAt).adding(.milliseconds(600))
        #expect(Waiting.until { !sandbox.sinks.received("other").isEmpty })
        #expect(advanced.withLock { $0 == nil }, "the advance did not wait for the hanging answer")
        receiver.server.stop()  // the hanging receiver goes: its connection closes unanswered
        #expect(Waiting.until { advanced.withLock { $0 != nil } })
        #expect(try advanced.withLock { $0 }?.get().status == 200)
        let delivered = try #require(sandbox.sinks.received("other").first)
        #expect(delivered.at.milliseconds >= due.milliseconds)
        #expect(sandbox.bank.notifications().first { $0.url == receiver.url("/hang/1") }?.attempts.first?.outcome.error != nil)
    }

    /// Once a sandbox stops, an answer still on its way is not journaled: a sandbox started on the
    /// same folder at once (as a test suite does) owns the journal, and sends that attempt again.
    @Test func anAnswerArrivingAfterStopIsNotJournaled() throws {
        let receiver = try Receiver()
        defer { receiver.server.stop() }
        let folder = NSTemporaryDirectory() + "late-answer-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = Sandbox.Configuration()
        configuration.bank.timeline = { _ in DecidedTimeline([TimelineStep(after: .milliseconds(100), status: .delivered)]) }
        configuration.webhookTimeout = .seconds(10 * Waiting.seconds)  // the answer comes when the test lets it
        configuration.stateDirectory = folder
        let first = try Sandbox.launch(configuration)
        _ = try create(first, "hang", url: receiver.url("/held/1"))
        #expect(Waiting.until { receiver.arrived("/held/1") == 1 }, "the attempt never left")
        first.stop()
        let second = try Sandbox.launch(configuration)
        _ = try create(second, "after", url: "\(second.baseURL)/sandbox/sink/after")
        // The first one's answer arrives now, while the second owns the journal.
        receiver.release.open()
        #expect(Waiting.until {
            first.respond(to: HTTPRequest(method: "GET", target: "/sandbox/metrics")).bodyText
                .contains(#"cashout_sandbox_webhook_attempts_total{outcome="delivered"} 1"#)
        }, "the first sandbox never got its answer")
        second.stop()
        let third = try Sandbox.launch(configuration)
        defer { third.stop() }
        #expect(third.journalRecovery?.problem == nil)
        #expect(third.journalRecovery?.droppedBytes == 0)
        #expect(third.bank.payouts().map(\.reference) == ["hang", "after"])
    }

    /// The same steps against receivers that answer at once and against receivers that take up
    /// to 200 ms give the same journal, byte for byte; and so do two runs against receivers that hang.
    @Test func theJournalOfAManualClockDoesNotDependOnHowFastReceiversAnswer() throws {
        let receiver = try Receiver()
        defer { receiver.server.stop() }
        func run(webhookTimeout: Duration, paths: [String]) throws -> [UInt8] {
            let folder = NSTemporaryDirectory() + "determinism-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            var configuration = Sandbox.Configuration()
            configuration.clockMode = .manual
            configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
            configuration.stateDirectory = folder
            configuration.webhookTimeout = webhookTimeout
            let sandbox = try Sandbox.launch(configuration)
            var ids: [Int] = []
            for index in 0 ..< 12 {
                ids.append(try create(sandbox, "e-\(index)", url: receiver.url(paths[index % paths.count] + "\(index)")))
            }
            try admin(sandbox, "POST", "/sandbox/clock/advance", #"{"by":"3s"}"#)
            try admin(sandbox, "POST", "/sandbox/cashouts/\(ids[0])/actions", #"{"action":"hold"}"#)
            // A change whose webhook is due now is sent at once; waiting for it (an advance of 0s
            // returns once what is due is answered) keeps the next change after it in the journal.
            try admin(sandbox, "POST", "/sandbox/clock/advance", #"{"by":"0s"}"#)
            try admin(sandbox, "POST", "/sandbox/cashouts/\(ids[1])/actions", #"{"action":"reject","rejection_code":801}"#)
            try admin(sandbox, "POST", "/sandbox/clock/advance", #"{"by":"2h"}"#)
            sandbox.stop()
            return Array(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/journal.log")))
        }
        // Receivers that answer, at once or up to 200 ms late: no timeout but the one only a hang reaches.
        func answering(slow: Bool) throws -> [UInt8] {
            receiver.slow.store(slow, ordering: .relaxed)
            return try run(webhookTimeout: Waiting.limit, paths: ["/ok/", "/fail/"])
        }
        let fast = try answering(slow: false)
        let slow = try answering(slow: true)
        #expect(fast.count > 1000)
        #expect(fast == slow)
        // Receivers that never answer: every attempt times out, whenever its timer fires.
        let hanging = try run(webhookTimeout: .milliseconds(300), paths: ["/hang/"])
        #expect(hanging.count > 1000)
        #expect(try run(webhookTimeout: .milliseconds(300), paths: ["/hang/"]) == hanging)
        #expect(receiver.requests.load(ordering: .relaxed) > 60)
    }
}
