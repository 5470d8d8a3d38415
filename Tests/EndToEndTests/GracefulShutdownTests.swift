import Dispatch
import Foundation
import Glibc
@testable import SandboxWire
@testable import SandboxSupport
import Synchronization
import TestHelpers
import Testing

/// The Running it guide, "Serving": on SIGTERM the server stops accepting, finishes the requests in flight,
/// flushes, and exits 0; with `--state-dir` nothing it answered is lost.
@Suite struct GracefulShutdownTests {
    /// One create sent on a keep-alive connection, and what came back.
    private struct Sent: Sendable {
        let externalID: String
        let answer: KeepAliveConnection.Answer
    }

    @Test func sigtermFinishesRequestsInFlightAndKeepsEveryAnsweredCreate() throws {
        let directory = NSTemporaryDirectory() + "graceful-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The held webhook is answered when the test releases it, not given up on meanwhile (the
        // server's own 5 s would end it, and the advance with it, before the signal on a busy machine).
        let scenario = directory + ".scenario.json"
        try (#"{"name": "patient webhooks", "webhooks": {"timeout": "#
             + #""\#(Waiting.seconds)s"}}"#).write(toFile: scenario, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scenario) }
        let arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--clock", "manual", "--log-format", "off", "--state-dir", directory,
                         "--scenario", scenario]
        let binary = try RunningBinary(arguments)
        let url = try #require(binary.url)
        let port = try #require(url.split(separator: ":").last.flatMap { Int($0) })

        // A webhook receiver that answers only when told: a clock advance that notifies it stays in
        // flight (its answer deferred, on the admin worker) until then.
        let receiver = try HeldReceiver()
        #expect(try SignedCreate.send(to: url, externalID: "held-webhook", notificationURL: "http://127.0.0.1:\(receiver.port)/hook").status == 200)
        let advanced = Mutex<Result<HTTPResponse, HTTPClientError>?>(nil)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            let result = Result { () throws(HTTPClientError) in
                try TestHTTP.send(method: "POST", url: url + "/sandbox/clock/advance", body: Array(#"{"by":"6s"}"#.utf8))
            }
            advanced.withLock { $0 = result }
        }
        #expect(receiver.waitForRequest(), "the advance never sent its webhook")

        // Four keep-alive connections sending signed creates back to back until the server is gone.
        let sent = Mutex<[Sent]>([])
        for worker in 0 ..< 4 {
            DispatchQueue.global().async(group: group) {
                var connection: KeepAliveConnection?
                var number = 0
                let deadline = ContinuousClock.now + Waiting.limit
                while ContinuousClock.now < deadline {
                    if connection == nil {
                        connection = KeepAliveConnection(port: port)
                        if connection == nil { return }  // refused: the server has stopped listening
                    }
                    number += 1
                    let externalID = "w\(worker)-\(number)"
                    let answer = connection!.exchange(SignedCreate.request(externalID: externalID))
                    sent.withLock { $0.append(Sent(externalID: externalID, answer: answer)) }
                    if case .response(200, false, _) = answer { continue }
                    connection = nil  // closed, or about to be: reconnect (refused once stopping)
                }
            }
        }
        let answered = { sent.withLock { list in list.count { if case .response = $0.answer { true } else { false } } } }
        // Half a second of creates (and at least 20 answered) before the signal, so some are in flight when it comes.
        // Beside the rest of the suite, the workers' threads may start late.
        let enough = ContinuousClock.now + .milliseconds(500)
        #expect(Waiting.until { answered() >= 20 && ContinuousClock.now >= enough })

        binary.kill(SIGTERM)
        #expect(binary.line(startingWith: "received SIGTERM, stopping") != nil)
        // New connections are refused while the advance still keeps the server running.
        let refused = Waiting.until { KeepAliveConnection(port: port) == nil && errno == ECONNREFUSED }
        #expect(refused, "a new connection was still accepted after SIGTERM")
        #expect(binary.isRunning, "the server exited with a request in flight")

        receiver.release()
        #expect(group.wait(timeout: .now() + .seconds(Waiting.seconds)) == .success)
        #expect(binary.exitStatus() == 0)
        #expect(binary.line(startingWith: "stopped") != nil)
        // The request in flight at SIGTERM was answered in full, its webhook delivered.
        let advance = try #require(try advanced.withLock { $0 }?.get())
        #expect(advance.status == 200)
        #expect(try JSON.parse(advance.body)["events_applied"] == 2)  // DELIVERED, and its webhook
        #expect(receiver.answered)

        // Every answer is whole: a 200 with a cashout_id, or nothing at all.
        var ids: [String: Int] = [:]
        var closedEarly = 0
        for request in sent.withLock({ $0 }) {
            switch request.answer {
            case .response(let status, _, let body):
                #expect(status == 200, "\(request.externalID): \(String(decoding: body, as: UTF8.self))")
                let id = try JSON.parse(body)["cashout_id"]?.stringValue.flatMap { Int($0) }
                #expect(id != nil, "\(request.externalID): \(String(decoding: body, as: UTF8.self))")
                if let id { ids[request.externalID] = id }
            case .closedBeforeResponse:
                closedEarly += 1
            case .truncated(let received):
                Issue.record("\(request.externalID): the response was cut after \(received) bytes")
            }
        }
        #expect(ids.count >= 20, "only \(ids.count) creates were answered (\(closedEarly) closed unanswered)")

        // Started again on the same folder: every answered create is there, with the id it was given.
        let again = try RunningBinary(arguments)
        let url2 = try #require(again.url)
        var limits = HTTPLimits()
        limits.maxBodyBytes = 256 << 20
        let list = try TestHTTP.send(method: "GET", url: url2 + "/sandbox/cashouts", limits: limits)
        #expect(list.status == 200)
        var stored: [String: (id: Int, status: String)] = [:]
        for cashout in try JSON.parse(list.body)["cashouts"]?.arrayValue ?? [] {
            if let external = cashout["external_id"]?.stringValue, let id = cashout["cashout_id"]?.numberText.flatMap({ Int($0) }) {
                stored[external] = (id, cashout["status"]?.stringValue ?? "")
            }
        }
        let lost = ids.filter { stored[$0.key]?.id != $0.value }
        #expect(lost.isEmpty, "\(lost.count) of \(ids.count) answered creates are missing after the restart: \(lost.prefix(5))")
        #expect(stored["held-webhook"]?.status == "DELIVERED")
        #expect(again.terminate() == 0)
    }
}

/// A webhook receiver on 127.0.0.1 that takes one request and answers 200 only on `release()`.
private final class HeldReceiver: Sendable {
    let port: Int
    private let listener: Int32
    private let received = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let done = Atomic<Bool>(false)

    init() throws {
        (listener, port) = try LoopbackListener.open(backlog: 4)
        DispatchQueue.global().async { [self] in serveOne() }
    }

    deinit { close(listener) }

    func waitForRequest() -> Bool { received.wait(timeout: .now() + .seconds(Waiting.seconds)) == .success }
    func release() { released.signal() }
    var answered: Bool { done.load(ordering: .acquiring) }

    private func serveOne() {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return }
        defer { close(fd) }
        // The whole request, body included: closing with unread bytes would reset the connection.
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let text = String(decoding: request, as: UTF8.self)
            if let head = text.range(of: "\r\n\r\n") {
                let length = text[..<head.lowerBound].lowercased().split(separator: "\r\n")
                    .compactMap { $0.hasPrefix("content-length:") ? Int($0.dropFirst(15).trimmingPrefix(" ")) : nil }.first ?? 0
                if request.count >= text.utf8.distance(from: text.startIndex, to: head.upperBound) + length { break }
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return }
            request += buffer[0 ..< n]
        }
        received.signal()
        released.wait()
        let response = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8)
        _ = response.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        done.store(true, ordering: .releasing)
    }
}
