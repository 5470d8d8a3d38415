import CashoutSandbox
import Foundation
import SandboxBank
import SandboxCrypto
import SandboxHTTP
import SandboxJSON
import Synchronization
import Testing

/// A webhook receiver on its own server: `/ok/...` answers 200, `/fail/...` 500, `/hang/...`
/// never; with `slow`, each answer comes 0–200 ms late (from a seeded sequence, not the clock).
private final class Receiver: Sendable {
    let slow = Atomic<Bool>(false)
    let requests = Atomic<Int>(0)
    private let delays = Mutex(SplitMix64(seed: 5))
    private let box = Box()
    let server: HTTPServer

    init() throws {
        let box = box
        server = try HTTPServer.start(configuration: .init(host: "127.0.0.1", port: 0, threads: 2)) { request in
            box.receiver?.answer(request) ?? HTTPResponse(status: 500)
        }
        box.receiver = self
    }

    /// When each request arrived (wall time), by path.
    let arrivals = Mutex<[String: [Date]]>([:])

    func answer(_ request: HTTPRequest) -> HTTPResponse {
        requests.add(1, ordering: .relaxed)
        arrivals.withLock { $0[String(request.path), default: []].append(Date()) }
        let status = request.path.hasPrefix("/ok/") ? 200 : 500
        if request.path.hasPrefix("/hang/") { return .deferred { _ in } }
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
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"\#(externalID)","country":"BR","currency":"BRL","amount":"100.00","document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C","notification_url":"\#(url)"}"#
        let signature = Hex.lowercase(HMACSHA256.authenticationCode(for: Array(body.utf8), key: HMACSHA256.Key("sandbox_secret")))
        let response = try HTTPClient.send(method: "POST", url: "\(sandbox.baseURL)/v3/cashout",
                                           headers: ["Content-Type": "application/json", "Payload-Signature": signature], body: Array(body.utf8))
        try #require(response.status == 200, "\(response.bodyText)")
        return try #require(JSON.parse(response.body)["cashout_id"]?.stringValue.flatMap { Int($0) })
    }

    private func admin(_ sandbox: Sandbox, _ method: String, _ path: String, _ body: String = "") throws {
        // An advance waits for each round of deliveries it runs: rounds of receivers that hang
        // take the webhook timeout each, several seconds in all.
        let response = try HTTPClient.send(method: method, url: "\(sandbox.baseURL)\(path)", body: Array(body.utf8), timeout: .seconds(60))
        try #require(response.status == 200, "\(path): \(response.bodyText)")
    }

    @Test func receiversThatNeverAnswerHoldUpNoOtherCashoutNorReceiver() throws {
        let receiver = try Receiver()
        defer { receiver.server.stop() }
        var configuration = Sandbox.Configuration()
        configuration.bank.timeline = { _ in
            DecidedTimeline([TimelineStep(after: .milliseconds(300), status: .delivered), TimelineStep(after: .milliseconds(300), status: .completed)])
        }
        configuration.webhookTimeout = .seconds(2)
        let sandbox = try Sandbox.launch(configuration)  // a real-time clock
        defer { sandbox.stop() }
        let hanging = try (0 ..< 6).map { try create(sandbox, "hang-\($0)", url: receiver.url("/hang/\($0)")) }
        let other = try create(sandbox, "other", url: "\(sandbox.baseURL)/sandbox/sink/other")
        let created = try #require(sandbox.bank.payout(id: other)?.createdAt)
        let remoteSent = Date()  // the remote one's steps are due 300 and 600 ms after its creation, which is after this
        let remote = try create(sandbox, "remote", url: receiver.url("/ok/remote"))
        Thread.sleep(forTimeInterval: 1.0)  // both steps due after 0.6 s; one hanging delivery alone takes 2 s
        for id in hanging + [other, remote] { #expect(sandbox.bank.payout(id: id)?.status == .completed, "cashout \(id)") }
        let delivered = sandbox.sinks.received("other")
        #expect(delivered.count == 2)
        // Each notification went out when its change was due, not after anyone's timeout: to the
        // sink (its own record of when) and to another server's receiver (when it got there).
        for (index, request) in delivered.enumerated() {
            let due = created.adding(.milliseconds(300 * (index + 1)))
            #expect(request.at.milliseconds - due.milliseconds < 100, "notification \(index + 1): \(request.at.milliseconds - due.milliseconds) ms late")
        }
        let arrived = receiver.arrivals.withLock { $0["/ok/remote"] ?? [] }
        #expect(arrived.count == 2)
        for (index, at) in arrived.enumerated() {
            let late = at.timeIntervalSince(remoteSent) * 1000 - Double(300 * (index + 1))
            #expect(late < 100, "remote notification \(index + 1): at most \(Int(late)) ms late")
        }
    }

    /// An advance on a real-time clock waits for the answers on their way without holding up
    /// the clock's other work: a receiver that hangs delays no other cashout past its due time.
    @Test func anAdvanceOnARealClockHoldsUpNoOtherCashout() throws {
        let receiver = try Receiver()
        defer { receiver.server.stop() }
        var configuration = Sandbox.Configuration()
        configuration.bank.timeline = { payout in
            DecidedTimeline([TimelineStep(after: .milliseconds(payout.reference == "hang" ? 100 : 600), status: .delivered)])
        }
        configuration.webhookTimeout = .seconds(2)
        let sandbox = try Sandbox.launch(configuration)
        defer { sandbox.stop() }
        _ = try create(sandbox, "hang", url: receiver.url("/hang/1"))
        let other = try create(sandbox, "other", url: "\(sandbox.baseURL)/sandbox/sink/other")
        let due = try #require(sandbox.bank.payout(id: other)?.createdAt).adding(.milliseconds(600))
        Thread.sleep(forTimeInterval: 0.3)  // the hanging receiver holds its notification
        let started = Date()
        try admin(sandbox, "POST", "/sandbox/clock/advance", #"{"by":"0s"}"#)
        #expect(Date().timeIntervalSince(started) > 1.0)  // it waited for the hanging answer (2 s timeout, sent at 0.1 s)
        let delivered = try #require(sandbox.sinks.received("other").first)
        #expect(delivered.at.milliseconds - due.milliseconds < 100, "\(delivered.at.milliseconds - due.milliseconds) ms late")
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
        configuration.webhookTimeout = .milliseconds(600)
        configuration.stateDirectory = folder
        let first = try Sandbox.launch(configuration)
        _ = try create(first, "hang", url: receiver.url("/hang/1"))
        Thread.sleep(forTimeInterval: 0.3)  // the attempt is on its way, its answer (a timeout) due at 0.7 s
        first.stop()
        let second = try Sandbox.launch(configuration)
        _ = try create(second, "after", url: "\(second.baseURL)/sandbox/sink/after")
        Thread.sleep(forTimeInterval: 0.8)  // past the first one's timeout
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
        func run(slow: Bool) throws -> [UInt8] {
            receiver.slow.store(slow, ordering: .relaxed)
            let folder = NSTemporaryDirectory() + "determinism-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            var configuration = Sandbox.Configuration()
            configuration.clockMode = .manual
            configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
            configuration.stateDirectory = folder
            configuration.webhookTimeout = .milliseconds(800)  // well above the slowest answer, on a loaded machine too
            let sandbox = try Sandbox.launch(configuration)
            var ids: [Int] = []
            for index in 0 ..< 12 {
                let path = ["/ok/", "/fail/", "/hang/"][index % 3] + "\(index)"
                ids.append(try create(sandbox, "e-\(index)", url: receiver.url(path)))
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
        let fast = try run(slow: false)
        let slow = try run(slow: true)
        #expect(fast.count > 1000)
        #expect(fast == slow)
        #expect(receiver.requests.load(ordering: .relaxed) > 60)
    }
}
