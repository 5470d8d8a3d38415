@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxRunner
@testable import SandboxContract
import TestHelpers
import Testing

/// A failed run is followed by the timeline of each cashout it names (the Testing your app guide, "Why a run failed"):
/// what the app asked and was answered, or the fault that replaced the answer; the bank's changes; the notifications;
/// the clock's stops and how each ended; the ledger as read; the moment it was judged. Real times count from the start.
@Suite struct TimelineTests {
    /// The app of ``OwedRetryTests`` that asks once and never again, its answers lost: the run fails at its report step.
    static func failedRun() throws -> ScenarioResult {
        let faults = #"[{"when": {"endpoint": "POST /v3/cashout/status"}, "kind": "drop_after_commit", "every": 1}]"#
        var serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(50), quietLimit: .milliseconds(300),
                                             beside: OwedRetryTests.app(.once))
        serving.timeline = .onFailure
        return try ScenarioRunner.run(try OwedRetryTests.suite(faults: faults), serving: serving)
    }

    @Test func aFailedRunTellsWhatHappenedToTheCashoutItNames() throws {
        let result = try Self.failedRun()
        #expect(result.failure?.step == 4)
        let lines = result.timelineLines(realTime: true)
        #expect(lines.first == #"timeline of cashout 1000001 (d24 sandbox_login, "owed-1", 100.00 BRL, now COMPLETED):"#)
        // `  09:00:00.000 +0.123s   app → sandbox  POST /v3/cashout: 200`: the virtual time, the real one, who acted, what.
        let shape = #/^  (\d\d:\d\d:\d\d\.\d\d\d) \+\d+\.\d\d\ds +  (app → sandbox|sandbox → app|bank|clock|sandbox) *  (.+)$/#
        let parsed = lines.dropFirst().compactMap { try? shape.wholeMatch(in: $0) }
        #expect(parsed.count == lines.count - 1, "\(lines.joined(separator: "\n"))")
        #expect(parsed.map(\.output.1) == parsed.map(\.output.1).sorted(), "oldest first")
        let what = parsed.map { "\($0.output.2): \($0.output.3)" }
        #expect(what.first == "app → sandbox: POST /v3/cashout: 200")
        #expect(what.contains("bank: PENDING → DELIVERED"))
        #expect(what.contains("sandbox → app: notification DELIVERED: 200"))
        #expect(what.contains("app → sandbox: POST /v3/cashout/status: injected fault drop_after_commit: done, then its answer was lost"))
        #expect(what.contains { $0.hasPrefix("clock: stopped for the app's follow-up of the notifications of cashout 1000001; then for "
                                             + "the app's retry of POST /v3/cashout/status, answered by an injected fault: --quiet-limit "
                                             + "came first; the clock moved anyway (") }, "\(what)")
        #expect(what.contains("sandbox → app: read the app's ledger: it says PENDING; the bank's is COMPLETED"))
        // The report step that failed stands for the report's errors, each judged.
        #expect(what.suffix(2) == [
            #"sandbox: judged ledger_mismatch: the app believes cashout 1000001 (external_id "owed-1") is PENDING; the bank's is COMPLETED"#,
            "sandbox: judged notification_not_followed_up: the DELIVERED, COMPLETED notifications of cashout 1000001 were followed up by "
                + "POST /v3/cashout/status twice, and both answers were lost to injected faults: no query answered within 1m",
        ])
        #expect(lines.count <= Timeline.lineLimit + 1)
        // JUnit's failure carries the same text.
        let junit = JUnitReport.xml([result])
        #expect(junit.contains(JUnitReport.escape(lines.joined(separator: "\n"))))
        // Without real times (explore's output, the same each run): the virtual time, who, what.
        #expect(result.timelineLines(realTime: false).dropFirst().allSatisfy { $0.wholeMatch(of: #/^  \d\d:\d\d:\d\d\.\d\d\d  \S.*$/#) != nil })
    }

    /// A careful app's run passes and prints nothing; asked for (`--timeline`), its timeline has the stop that waited for its
    /// retry, ended because the app had its answer.
    @Test func aPassedRunHasATimelineOnlyWhenAskedForAndItsStopsSayHowTheyEnded() throws {
        let faults = #"[{"when": {"endpoint": "POST /v3/cashout/status"}, "kind": "drop_after_commit", "every": 1, "times": 1}]"#
        var serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(50), quietLimit: Waiting.limit,
                                             beside: OwedRetryTests.app(.background(backoff: .milliseconds(300))))
        serving.timeline = .always
        let result = try ScenarioRunner.run(try OwedRetryTests.suite(faults: faults), serving: serving)
        #expect(result.passed, "\(result.failureText ?? "")")
        #expect(result.timelineLines(realTime: true).isEmpty)
        let timeline = try #require(result.timeline)
        #expect(timeline.findings.isEmpty && timeline.cashouts.map(\.id) == [1000001])
        let stops = timeline.entries.filter { $0.kind == .clockStop }
        #expect(stops.contains { $0.ended == .answered && $0.text.contains("the app's retry of POST /v3/cashout/status") && ($0.lasted ?? 0) > 0 },
                "\(stops.map(\.text))")
        #expect(timeline.entries.contains { $0.kind == .ledger && $0.text == "read the app's ledger: it says COMPLETED, as the bank does" })
        #expect(timeline.entries.filter(\.injected).map(\.text)
            == ["POST /v3/cashout/status: injected fault drop_after_commit: done, then its answer was lost"])
        // What each answer said, in D24's words: the status description.
        #expect(timeline.entries.filter { $0.kind == .request && !$0.injected }.map(\.text)
            == ["POST /v3/cashout: 200", "POST /v3/cashout/status: 200 Delivered", "POST /v3/cashout/status: 200 Completed"])
        // The page's data: every entry with its virtual time and its real time since the start.
        let json = timeline.json
        #expect(json["entries"]?.arrayValue?.allSatisfy { $0["real_ms"]?.numberText.flatMap { Int($0) }.map { $0 >= 0 } == true } == true)
    }

    /// A Mannco poller whose reads of the history faults answer (503s, one every 300 ms for 6 s):
    /// each is on the timeline of the cashout it would have shown, and the clock waits for a real
    /// read though the faults outlast the quiet limit (5 s): each read a fault answered was a read.
    @Test func aPollersFaultedReadsAreOnTheTimelineAndTheNextReadIsWaitedFor() throws {
        let scenario = try ScenarioLoader.load(Array(#"""
            {"name": "poller", "users": [{"id": "2001", "api_key": "poll_key", "balance": 100000, "linked": ["payoneer"]}],
             "bank": {"rules": [{"when": {"amount": {"gte": 0}}, "then": [{"after": "5s", "status": "DELIVERED"}]}]},
             "faults": [{"when": {"endpoint": "GET /user/getCashoutHistory"}, "kind": "error", "status": 503, "every": 1, "times": 20}],
             "steps": [{"wait_for_request": {"request": {"path": "/cashout/process"}}}, {"advance": "10s"}]}
            """#.utf8), file: "poller.json", vocabulary: Sandbox.standardVocabulary)
        let app: @Sendable (Sandbox) -> CommandOutcome? = { sandbox in
            func call(_ method: String, _ path: String, _ body: String = "", token: String? = nil) -> HTTPResponse? {
                var headers: HTTPHeaders = ["User-Agent": "test-app", "Content-Type": "application/json"]
                if let token { headers["Authorization"] = "Bearer \(token)" }
                return try? TestHTTP.send(method: method, url: "\(sandbox.baseURL)\(path)", headers: headers, body: Array(body.utf8))
            }
            let login = call("POST", "/user/login", #"{"apiKey": "poll_key"}"#).flatMap { try? JSON.parse($0.body) }
            let token = login?["content"]?["jwt"]?.stringValue ?? ""
            _ = call("POST", "/cashout/process", #"{"amount": 5000, "method": "payoneer"}"#, token: token)
            // The poller: a read every 300 ms while the steps run.
            while (try? TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/suite")).flatMap({ try? JSON.parse($0.body) })?["state"]
                == "running" {
                _ = call("GET", "/user/getCashoutHistory", token: token)
                Thread.sleep(forTimeInterval: 0.3)
            }
            return nil
        }
        var serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(50), quietLimit: .seconds(5), beside: app)
        serving.timeline = .always
        let result = try ScenarioRunner.run(scenario, serving: serving)
        #expect(result.passed, "\(result.failureText ?? "")")
        #expect(result.notes.isEmpty, "\(result.notes)")
        let entries = result.timeline?.entries ?? []
        #expect(entries.filter { $0.text == "GET /user/getCashoutHistory: injected fault error: answered 503" && $0.injected }.count == 20,
                "\(entries.map(\.text))")
        // The real read after the faults came before the clock moved past the change.
        let firstRead = try #require(entries.firstIndex { $0.text == "GET /user/getCashoutHistory: 200 pending" })
        let change = try #require(entries.firstIndex { $0.text == "pending (PENDING) → processing (DELIVERED)" })
        #expect(firstRead < change)
    }

    /// Past 25 lines the first and the last are kept, with how many were left out between them.
    @Test func aLongTimelineKeepsItsFirstAndLastLines() {
        let start = VirtualTime(iso8601: "2026-01-05T09:00:00Z")!
        let entries = (0 ..< 40).map { index in
            Timeline.Entry(.request, at: VirtualTime(milliseconds: start.milliseconds + Int64(index) * 1000), real: 1_000 + Int64(index),
                           from: .app, to: .api, text: "POST /v3/cashout/status: 200 (\(index))", cashouts: [7])
        }
        let timeline = Timeline(title: "t", started: 1_000, findings: [], cashouts: [
            Timeline.Cashout(id: 7, name: nil, api: "d24", account: "a", reference: nil, amount: "1.00", currency: "USD", status: "PENDING"),
        ], entries: entries)
        let lines = timeline.lines(of: 7, realTime: true)
        #expect(lines.count == Timeline.lineLimit + 1)
        #expect(lines[1] == "  09:00:00.000 +0.000s   app → sandbox  POST /v3/cashout/status: 200 (0)")
        #expect(lines[5] == "  … 16 more …")
        #expect(lines.last == "  09:00:39.000 +0.039s   app → sandbox  POST /v3/cashout/status: 200 (39)")
        #expect(lines[0] == "timeline of cashout 7 (d24 a, 1.00 USD, now PENDING):")
    }
}
