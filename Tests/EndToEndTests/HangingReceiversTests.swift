import Foundation
import Glibc
@testable import SandboxWire
@testable import SandboxSupport
import Synchronization
import TestHelpers
import Testing

/// Receivers that hang hold up no other cashout's status changes and no other receiver's
/// notifications (the Clock and webhooks guide, "Webhook delivery"), in the built binary on a
/// real-time clock.
///
/// A verdict here never depends on the machine's speed: it is an order of events. The webhook
/// timeout is ``Waiting/limit`` (a scenario's `webhooks.timeout`), so a delivery to a receiver that
/// never answers stays on its way for as long as any wait of the test may last: no hanging
/// delivery can end before the test itself ends it. The test
/// 1. creates 100 cashouts notifying a receiver that accepts and reads, and never answers, and
///    waits until it holds the 100 DELIVERED notifications, each on a connection of its own;
/// 2. starts an advance of `0s`, which waits for the answers on their way;
/// 3. only then creates 5 cashouts notifying a receiver that answers 200 at once and 5 notifying
///    the built-in sink, and waits until all 110 cashouts are COMPLETED, the fast receiver and the
///    sink have both notifications of each of theirs, and the hanging receiver holds the 200
///    notifications of its cashouts (DELIVERED and COMPLETED: a cashout's notifications overlap
///    when its receiver takes longer than the time between its changes);
/// 4. checks that all that happened while every hanging delivery was still on its way: the
///    sandbox had closed none of the 200 connections, and the advance had not answered. A
///    sandbox whose status changes or other deliveries waited for a hanging one would still be
///    waiting when the test's bound (``Waiting/limit``) ran out, or would have given up on the
///    hanging deliveries first: either fails.
///
/// Each change is at its due time by the server's own clock (the history's `at` is one second
/// after the create, then one more: the scenario's timeline), the sink received each notification
/// no earlier than its change was due, and each notification was delivered on its first attempt.
/// Then the test ends the hang by closing the hanging connections: the advance answers 200, and
/// each hanging notification's one attempt failed and waits for its retry 5 minutes after it, as
/// the retry schedule says (the Scenario files guide, "Webhooks"). How many milliseconds past due
/// the others were is a latency, which no test here can assert on a busy machine.
@Suite struct HangingReceiversTests {
    static let hanging = 100
    static let fast = 5
    static let sink = 5
    static let sinkName = "hanging-check"
    /// Two changes, a second apart: DELIVERED one second after the create, COMPLETED one after that.
    static let scenario = #"""
        {"name": "hanging receivers",
         "bank": {"default": [{"after": "1s", "status": "DELIVERED"}, {"after": "1s", "status": "COMPLETED"}]},
         "webhooks": {"timeout": "\#(Waiting.seconds)s"}}
        """#

    @Test(.timeLimit(.minutes(Waiting.testMinutes)))
    func whileAHundredReceiversHangEveryOtherCashoutChangesAndIsNotified() throws {
        let hangingReceiver = try HangingReceiver()
        defer { hangingReceiver.close() }
        let fastReceiver = try FastReceiver()
        defer { fastReceiver.server.stop() }
        let scenario = NSTemporaryDirectory() + "hanging-receivers-\(UUID().uuidString).json"
        try Self.scenario.write(toFile: scenario, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scenario) }
        let binary = try RunningBinary(["serve", "--host", "127.0.0.1", "--port", "0", "--log-format", "off", "--scenario", scenario])
        let url = try #require(binary.url)
        let port = try #require(url.split(separator: ":").last.flatMap { Int($0) })
        let client = APIClient(port: port)

        func create(_ externalID: String, notifying notificationURL: String) throws -> Int {
            let (status, body) = try client.call("POST", "/v3/cashout", SignedCreate.body(externalID: externalID, notificationURL: notificationURL),
                                                 signedWith: "sandbox_secret")
            try #require(status == 200, "create \(externalID): \(body)")
            return try #require(body["cashout_id"]?.int)
        }

        // 1. Every hanging receiver holds its DELIVERED notification.
        let hanging = try (0 ..< Self.hanging).map { try create("hanging-\($0)", notifying: "http://127.0.0.1:\(hangingReceiver.port)/hook/\($0)") }
        #expect(Waiting.until { Set(hangingReceiver.requests.map(\.path)).count == Self.hanging }, "the hanging receivers were not all sent to")

        // 2. An advance waiting for the answers on their way.
        let advanced = Mutex<Result<HTTPResponse, HTTPClientError>?>(nil)
        Thread.detachNewThread {
            let result = Result { () throws(HTTPClientError) in
                try TestHTTP.send(method: "POST", url: url + "/sandbox/clock/advance", body: Array(#"{"by":"0s"}"#.utf8))
            }
            advanced.withLock { $0 = result }
        }

        // 3. The other cashouts, created only now: all their changes and notifications come while the 100 hang.
        let fast = try (0 ..< Self.fast).map { try create("fast-\($0)", notifying: fastReceiver.url("/ok/\($0)")) }
        let sunk = try (0 ..< Self.sink).map { try create("sink-\($0)", notifying: "\(url)/sandbox/sink/\(Self.sinkName)") }
        let all = hanging + fast + sunk
        let completed = Waiting.until { (try? client.get("/sandbox/cashouts?status=COMPLETED"))?.list("cashouts").count == all.count }
        #expect(completed, "not every cashout completed")
        #expect(Waiting.until { fastReceiver.requests.count >= 2 * Self.fast }, "the fast receiver got \(fastReceiver.requests.count) notifications")
        #expect(Waiting.until { (try? client.get("/sandbox/sink/\(Self.sinkName)"))?.list("requests").count ?? 0 >= 2 * Self.sink })
        #expect(Waiting.until { hangingReceiver.requests.count >= 2 * Self.hanging },
                "the hanging receivers got \(hangingReceiver.requests.count) notifications")

        // 4. ...while every hanging delivery was on its way.
        #expect(hangingReceiver.closedBySandbox == 0, "the sandbox gave up on \(hangingReceiver.closedBySandbox) hanging deliveries")
        #expect(advanced.withLock { $0 == nil }, "the advance answered before the hanging deliveries did")

        // The server's own record: every cashout went PENDING -> DELIVERED -> COMPLETED at its due times...
        var details: [Int: JSON] = [:]
        for id in all { details[id] = try client.get("/sandbox/cashouts/\(id)") }
        for id in all {
            let detail = try #require(details[id])
            let history = detail.list("history")
            let times = history.compactMap { $0["at"]?.stringValue.flatMap(VirtualInstant.init) }
            #expect(history.map { $0.text("status") } == ["PENDING", "DELIVERED", "COMPLETED"] && times.count == 3
                && times[1].milliseconds - times[0].milliseconds == 1000 && times[2].milliseconds - times[1].milliseconds == 1000,
                    "cashout \(id): history \(history)")
        }
        // ...each notification of the others delivered on its first attempt...
        for id in fast + sunk {
            let webhooks = try #require(details[id]).list("webhooks")
            #expect(webhooks.map { $0.text("status") } == ["DELIVERED", "COMPLETED"], "cashout \(id): \(webhooks)")
            for webhook in webhooks {
                let attempts = webhook.list("attempts")
                #expect(webhook.text("state") == "delivered" && attempts.count == 1 && attempts.first?["response_status"]?.int == 200,
                        "cashout \(id): \(webhook)")
            }
        }
        // ...to the receiver it names, the fast receiver's and the hanging one's on the path the cashout gave, once per change.
        let received: [(paths: [String], forms: [[String: String]], ids: [Int], prefix: String)] = [
            (fastReceiver.requests.map(\.path), fastReceiver.requests.map(\.form), fast, "/ok/"),
            (hangingReceiver.requests.map(\.path), hangingReceiver.requests.map(\.form), hanging, "/hook/"),
        ]
        // D24's form names the change by its `date`, to the second.
        for (paths, forms, ids, prefix) in received {
            for (index, id) in ids.enumerated() {
                let detail = try #require(details[id])
                let mine = zip(paths, forms).filter { $0.0 == "\(prefix)\(index)" }.map(\.1)
                let changes = Set(detail.list("history").dropFirst().map {
                    String($0.text("at").prefix(19)).replacingOccurrences(of: "T", with: " ")
                })
                let control = D24Signing.control(externalID: detail.text("external_id"))
                #expect(mine.count == 2 && Set(mine.compactMap { $0["date"] }) == changes
                    && mine.allSatisfy { $0["cashout_id"] == String(id) && $0["control"] == control },
                        "cashout \(id) at \(prefix)\(index): \(mine), changes \(changes)")
            }
        }
        // The sink's own clock: no notification before its change was due.
        let sinkRequests = try client.get("/sandbox/sink/\(Self.sinkName)").list("requests")
        for id in sunk {
            let due = try #require(details[id]).list("history").dropFirst().compactMap { $0["at"]?.stringValue.flatMap(VirtualInstant.init) }
            let arrived = sinkRequests.filter { request in request["form"]?["cashout_id"]?.stringValue == String(id) }
                .compactMap { $0["at"]?.stringValue.flatMap(VirtualInstant.init) }
            #expect(arrived.count == 2 && zip(arrived, due).allSatisfy { $0.milliseconds >= $1.milliseconds },
                    "cashout \(id): sink at \(arrived), due \(due)")
        }

        // The test ends the hang: the advance answers, and each hanging notification's one attempt
        // failed and waits for its retry, 5 minutes after the attempt.
        hangingReceiver.close()
        #expect(Waiting.until { advanced.withLock { $0 != nil } }, "the advance never answered")
        #expect(try advanced.withLock { $0 }?.get().status == 200)
        let retried = Waiting.value { () -> [JSON]? in
            let webhooks = hanging.flatMap { (try? client.get("/sandbox/cashouts/\($0)"))?.list("webhooks") ?? [] }
            return webhooks.count == 2 * Self.hanging && webhooks.allSatisfy({ !$0.list("attempts").isEmpty }) ? webhooks : nil
        }
        for webhook in try #require(retried, "the hanging notifications' attempts were never recorded") {
            let attempts = webhook.list("attempts")
            let changed = webhook["changed_at"]?.stringValue.flatMap(VirtualInstant.init)
            let next = webhook["next_attempt_at"]?.stringValue.flatMap(VirtualInstant.init)
            #expect(webhook.text("state") == "pending" && attempts.count == 1 && attempts[0]["response_status"]?.isNull == true
                && changed != nil && next?.milliseconds == changed.map { $0.milliseconds + 300_000 }, "\(webhook)")
        }
        #expect(binary.terminate() == 0)
    }
}

/// An instant the admin API writes (`2026-01-05T09:00:01.250Z`, or without the fraction), in
/// milliseconds since the epoch.
private struct VirtualInstant: CustomStringConvertible {
    let milliseconds: Int64
    let description: String

    init?(_ text: String) {
        guard let match = text.wholeMatch(of: /(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,3}))?Z/) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(match.1)! - 1900
        parts.tm_mon = Int32(match.2)! - 1
        parts.tm_mday = Int32(match.3)!
        parts.tm_hour = Int32(match.4)!
        parts.tm_min = Int32(match.5)!
        parts.tm_sec = Int32(match.6)!
        let fraction = match.7.map { Int64(String($0).padding(toLength: 3, withPad: "0", startingAt: 0))! } ?? 0
        milliseconds = Int64(timegm(&parts)) * 1000 + fraction
        description = text
    }
}

/// A receiver that answers 200 at once, recording each request's path and form.
private final class FastReceiver: Sendable {
    let server: HTTPServer
    private let log: Log

    private final class Log: Sendable {
        let received = Mutex<[ReceivedRequest]>([])
    }

    init() throws {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: 2)
        configuration.gracePeriod = .zero
        let log = Log()
        self.log = log
        server = try HTTPServer.start(configuration: configuration) { request in
            log.received.withLock { $0.append(ReceivedRequest(path: String(request.path), body: request.body)) }
            return HTTPResponse(status: 200, body: Array("ok".utf8))
        }
    }

    var requests: [ReceivedRequest] { log.received.withLock { $0 } }

    func url(_ path: String) -> String { "http://127.0.0.1:\(server.port)\(path)" }
}

/// A request a test receiver got: its path and its form-encoded body's fields.
private struct ReceivedRequest: Sendable {
    let path: String
    let form: [String: String]

    init(path: String, body: [UInt8]) {
        self.path = path
        form = Dictionary((FormURLEncoding.decode(body) ?? []).map { ($0.name, $0.value) }) { first, _ in first }
    }
}

/// A receiver that accepts every connection and reads its request, and never answers: it records
/// each whole request, and each connection the sandbox closed (its timeout, or giving up).
/// ``close()`` ends the hang, closing every connection it holds.
private final class HangingReceiver: Sendable {
    let port: Int
    private let listener: Int32
    private let state = Mutex(State())
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    private struct State {
        /// Each open connection's bytes so far, until its request is whole.
        var reading: [Int32: [UInt8]] = [:]
        /// Connections whose request is whole: held open, never answered.
        var held: Set<Int32> = []
        var requests: [ReceivedRequest] = []
        var closedBySandbox = 0
    }

    init() throws {
        (listener, port) = try LoopbackListener.open(backlog: 1024, nonBlocking: true)
        Thread.detachNewThread { [self] in run() }
    }

    var requests: [ReceivedRequest] { state.withLock { $0.requests } }
    var closedBySandbox: Int { state.withLock { $0.closedBySandbox } }

    /// Closes every connection held and the listener (once).
    func close() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
        state.withLock { state in
            for fd in state.reading.keys { Glibc.close(fd) }
            for fd in state.held { Glibc.close(fd) }
            state.reading = [:]
            state.held = []
        }
        Glibc.close(listener)
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !stopping.load(ordering: .acquiring) {
            let watched = state.withLock { Array($0.reading.keys) + Array($0.held) }
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)] + watched.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), 20) > 0 else { continue }
            if fds[0].revents != 0 {
                while case let fd = accept(listener, nil, nil), fd >= 0 {
                    state.withLock { $0.reading[fd] = [] }
                }
            }
            for entry in fds.dropFirst() where entry.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(entry.fd, $0.baseAddress, $0.count, 0) }
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                state.withLock { state in
                    guard n > 0 else {  // the sandbox closed it: it gave up
                        state.closedBySandbox += 1
                        state.reading[entry.fd] = nil
                        state.held.remove(entry.fd)
                        Glibc.close(entry.fd)
                        return
                    }
                    guard var bytes = state.reading[entry.fd] else { return }  // held: more bytes after the request are ignored
                    bytes += buffer[0 ..< n]
                    if let request = Self.whole(bytes) {
                        state.reading[entry.fd] = nil
                        state.held.insert(entry.fd)
                        state.requests.append(request)
                    } else {
                        state.reading[entry.fd] = bytes
                    }
                }
            }
        }
        finished.signal()
    }

    /// The request in `bytes` once its head and its `Content-Length` body are all there.
    private static func whole(_ bytes: [UInt8]) -> ReceivedRequest? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.dropLast(3).first(where: { bytes[$0 ..< $0 + 4].elementsEqual(separator) }) else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n")
        let length = head.compactMap { line in
            line.lowercased().hasPrefix("content-length:") ? Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) : nil
        }.first ?? 0
        guard bytes.count >= end + 4 + length, let target = head.first?.split(separator: " ").dropFirst().first else { return nil }
        return ReceivedRequest(path: String(target), body: Array(bytes[(end + 4) ..< (end + 4 + length)]))
    }
}
