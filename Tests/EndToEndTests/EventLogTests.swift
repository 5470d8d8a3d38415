import Foundation
import Glibc
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// `serve --log-format text|json|off`: one event line per thing that happened, beside the access log.
@Suite struct EventLogTests {
    /// A run with the clock at a known start, so every virtual time in the lines is known.
    private struct Run {
        let binary: RunningBinary
        let url: String
        /// What the forced rejection answered (`rejection_reason` is the code's name).
        var rejectionReason = ""
        /// What loading the scenario answered (`rules` counts the built-in magic values too).
        var rules = JSON.null
    }

    /// Starts the binary, then: a create notified to the sandbox's own sink, 15 s of bank events,
    /// a second create to a closed port, rejected by the admin, its failed webhook, a scenario, a
    /// reset, SIGTERM.
    private func run(format: String) throws -> Run {
        let scenario = NSTemporaryDirectory() + "event-log-\(UUID().uuidString).json"
        try #"{"clock": {"start": "2026-01-05T09:00:00Z"}}"#.write(toFile: scenario, atomically: true, encoding: .utf8)
        let binary = try RunningBinary(["serve", "--port", "0", "--host", "127.0.0.1", "--clock", "manual",
                                        "--log-format", format, "--scenario", scenario])
        let listening = try #require(binary.line(containing: "listening on http://"))
        let url = try #require(listening.firstMatch(of: /http:\/\/127\.0\.0\.1:\d+/)).output
        var run = Run(binary: binary, url: String(url))

        #expect(try SignedCreate.send(to: url, externalID: "order-1", notificationURL: "\(url)/sandbox/sink/orders").bodyText
            == #"{"cashout_id":"1000001"}"#)
        #expect(try admin(url, "/sandbox/clock/advance", #"{"by":"15s"}"#)["events_applied"] == 4)
        #expect(try SignedCreate.send(to: url, externalID: "order-2", notificationURL: "http://127.0.0.1:1/hook").status == 200)
        let rejected = try admin(url, "/sandbox/cashouts/1000002/actions", #"{"action":"reject","rejection_code":801}"#)
        run.rejectionReason = try #require(rejected["rejection_reason"]?.stringValue)
        // The rejection's webhook was due at once, and went out without waiting for the clock to move.
        #expect(try admin(url, "/sandbox/clock/advance", #"{"by":"1s"}"#)["events_applied"] == 0)
        let loaded = try admin(url, "/sandbox/scenario", #"{"name": "more merchants", "merchants": [{"login": "acme", "pass": "p", "secret": "s"}]}"#)
        run.rules = try #require(loaded["rules"])
        #expect(try admin(url, "/sandbox/reset", "")["status"] == "reset")

        #expect(binary.terminate() == 0)
        return run
    }

    private func admin(_ url: some StringProtocol, _ path: String, _ body: String) throws -> JSON {
        let response = try TestHTTP.send(method: "POST", url: url + path, body: Array(body.utf8))
        #expect(response.status == 200, "\(path): \(response.bodyText)")
        return try JSON.parse(response.body)
    }

    @Test func jsonEventLinesSayWhatHappenedWithTheirFields() throws {
        let run = try run(format: "json")
        let lines = run.binary.stdout.split(separator: "\n")
        // Every line is a JSON object: access-log lines, events, and the startup lines.
        let entries = try lines.map { line in try #require(JSON.parse(String(line)).objectValue, "not an object: \(line)") }
        let events = entries.filter { $0["event"] != nil }
        for event in events {
            let time = try #require(event["time"]?.stringValue)
            #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "time: \(time)")
        }
        var without = events.map { event in event.filter { $0.key != "time" } }

        // The startup lines keep their text in "message" (scripts grep for "listening on http://").
        #expect(without.first == ["event": "server.listening", "message": .string("listening on \(run.url)"), "url": .string(run.url)])
        #expect(without.contains {
            $0["event"] == "server.merchant" && $0["login"] == "sandbox_login" && $0["currency"] == "USD" && $0["balance"] == "1000000.00"
                && $0["message"] == .string("merchant: login sandbox_login, pass sandbox_pass, secret sandbox_secret, read-only key "
                                            + "sandbox_read_only, balance USD 1000000.00")
        })
        #expect(without.suffix(2) == [
            ["event": "server.stopping", "message": "received SIGTERM, stopping", "signal": "SIGTERM"],
            ["event": "server.stopped", "message": "stopped"],
        ])
        without.removeAll { $0["event"]?.stringValue?.hasPrefix("server.") == true }

        let attemptError = try #require(without.count > 8 ? without[8]["error"]?.stringValue : nil)
        #expect(!attemptError.isEmpty)
        let expected: [[String: JSON]] = [
            ["event": "cashout.created", "cashout_id": 1000001, "merchant": "sandbox_login", "external_id": "order-1",
             "country": "BR", "currency": "BRL", "amount": "100.00", "status": "PENDING", "at": "2026-01-05T09:00:00Z"],
            ["event": "cashout.status_changed", "cashout_id": 1000001, "merchant": "sandbox_login", "external_id": "order-1",
             "from": "PENDING", "to": "DELIVERED", "by": "bank", "at": "2026-01-05T09:00:05Z"],
            ["event": "webhook.attempt", "notification_id": 1, "cashout_id": 1000001, "cashout_status": "DELIVERED",
             "url": .string("\(run.url)/sandbox/sink/orders"), "attempt": 1, "response_status": 200, "outcome": "delivered",
             "at": "2026-01-05T09:00:05Z"],
            ["event": "cashout.status_changed", "cashout_id": 1000001, "merchant": "sandbox_login", "external_id": "order-1",
             "from": "DELIVERED", "to": "COMPLETED", "by": "bank", "at": "2026-01-05T09:00:15Z"],
            ["event": "webhook.attempt", "notification_id": 2, "cashout_id": 1000001, "cashout_status": "COMPLETED",
             "url": .string("\(run.url)/sandbox/sink/orders"), "attempt": 1, "response_status": 200, "outcome": "delivered",
             "at": "2026-01-05T09:00:15Z"],
            ["event": "clock.advanced", "from": "2026-01-05T09:00:00Z", "to": "2026-01-05T09:00:15Z", "events_applied": 4],
            ["event": "cashout.created", "cashout_id": 1000002, "merchant": "sandbox_login", "external_id": "order-2",
             "country": "BR", "currency": "BRL", "amount": "100.00", "status": "PENDING", "at": "2026-01-05T09:00:15Z"],
            ["event": "cashout.status_changed", "cashout_id": 1000002, "merchant": "sandbox_login", "external_id": "order-2",
             "from": "PENDING", "to": "REJECTED", "by": "admin", "rejection_code": 801,
             "rejection_reason": .string(run.rejectionReason), "at": "2026-01-05T09:00:15Z"],
            ["event": "webhook.attempt", "notification_id": 3, "cashout_id": 1000002, "cashout_status": "REJECTED",
             "url": "http://127.0.0.1:1/hook", "attempt": 1, "error": .string(attemptError), "outcome": "retrying",
             "next_attempt_at": "2026-01-05T09:05:15Z", "at": "2026-01-05T09:00:15Z"],
            ["event": "clock.advanced", "from": "2026-01-05T09:00:15Z", "to": "2026-01-05T09:00:16Z", "events_applied": 0],
            ["event": "scenario.loaded", "name": "more merchants", "rules": run.rules,
             "merchants": ["sandbox_login", "76561198000000001", "DefaultMerchantId", "acme"]],
            ["event": "sandbox.reset", "clock": "2026-01-05T09:00:16Z"],
        ]
        // The access log still has its own lines, one per request.
        #expect(entries.count { $0["method"] != nil && $0["path"] != nil } == 7)
        #expect(without.count == expected.count)
        for (index, (actual, wanted)) in zip(without, expected).enumerated() {
            #expect(actual == wanted, "event \(index)")
        }
    }

    @Test func textEventLinesAreReadableAndStartupLinesUnchanged() throws {
        let run = try run(format: "text")
        // The access log's lines (written in batches, so they may come late) aside.
        let lines = run.binary.stdout.split(separator: "\n").map(String.init)
            .filter { $0.wholeMatch(of: /\S+Z [A-Z]+ \S+ \d{3} \d+\.\d{3}ms/) == nil }
        #expect(lines.first == "listening on \(run.url)")
        #expect(lines.suffix(2) == ["received SIGTERM, stopping", "stopped"])
        // TIME EVENT key=value ...: the wall-clock time, then the event and its fields in a fixed order.
        let events = lines.compactMap { line -> String? in
            guard let match = line.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z ([a-z_]+\.[a-z_]+ .*)/) else { return nil }
            return String(match.output.1)
        }
        #expect(events.count == 12)
        #expect(events.first == "cashout.created cashout_id=1000001 merchant=sandbox_login external_id=order-1 country=BR "
            + "currency=BRL amount=100.00 status=PENDING at=2026-01-05T09:00:00Z")
        #expect(events.contains("cashout.status_changed cashout_id=1000001 merchant=sandbox_login external_id=order-1 "
            + "from=DELIVERED to=COMPLETED by=bank at=2026-01-05T09:00:15Z"))
        #expect(events.contains("cashout.status_changed cashout_id=1000002 merchant=sandbox_login external_id=order-2 "
            + "from=PENDING to=REJECTED by=admin rejection_code=801 rejection_reason=\(run.rejectionReason) at=2026-01-05T09:00:15Z"))
        #expect(events.contains("clock.advanced from=2026-01-05T09:00:00Z to=2026-01-05T09:00:15Z events_applied=4"))
        // A value with a space is quoted as a JSON string, so a line still splits into fields.
        #expect(events.contains("scenario.loaded name=\"more merchants\" rules=\(run.rules.numberText ?? "?") merchants=[\"sandbox_login\","
                                + "\"76561198000000001\",\"DefaultMerchantId\",\"acme\"]"))
        #expect(events.last == "sandbox.reset clock=2026-01-05T09:00:16Z")
        let attempt = try #require(events.first { $0.hasPrefix("webhook.attempt notification_id=3 ") })
        let pattern = #"webhook\.attempt notification_id=3 cashout_id=1000002 cashout_status=REJECTED url=http:\/\/127\.0\.0\.1:1\/hook attempt=1 "#
            + #"error=("[^"]+"|\S+) outcome=retrying next_attempt_at=2026-01-05T09:05:15Z at=2026-01-05T09:00:15Z"#
        #expect(try attempt.wholeMatch(of: Regex(pattern)) != nil, "\(attempt)")
    }

    @Test func offLogsNothingButTheStartupLines() throws {
        let run = try run(format: "off")
        let lines = run.binary.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "listening on \(run.url)")
        #expect(lines.suffix(2) == ["received SIGTERM, stopping", "stopped"])
        let startup = ["clock: ", "scenario: ", "dashboard: ", "docs: ", "merchant: ", "mannco user: ", "payoutservice merchant: ", "received "]
        #expect(lines.allSatisfy { line in line == "listening on \(run.url)" || startup.contains { line.hasPrefix($0) } || line == "stopped" })
    }
}
