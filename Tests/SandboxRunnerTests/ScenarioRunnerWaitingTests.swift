@testable import CashoutSandbox
import Foundation
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxRunner
@testable import SandboxContract
import Synchronization
import TestHelpers
import Testing

/// What a run beside an app waits for: the app to go quiet before the clock moves
/// (`Serving.quietPeriod`) or at a `settle` step, at most `Serving.quietLimit` (then noted); and
/// `GET /sandbox/suite`, which tells the app's driver when the steps are over. The app's activity
/// here is a request the sandbox holds (a latency fault), made before the request a step waits
/// for: when the step sees that one, the held one is in flight whatever the machine's speed.
@Suite struct ScenarioRunnerWaitingTests {
    /// Step 1 waits for `GET /v3/ready`; step 2 is `wait`; step 3 checks that the held status
    /// request was answered by then.
    private static func suite(wait: String, latency: String) throws -> Scenario {
        try ScenarioLoader.load(Array(#"""
            {"name": "waits",
             "faults": [{"when": {"endpoint": "POST /v3/cashout/status"}, "kind": "latency", "latency": "\#(latency)", "every": 1}],
             "steps": [
              {"wait_for_request": {"request": {"path": "/v3/ready"}}},
              \#(wait),
              {"expect_requests": {"request": {"path": "/v3/cashout/status"}, "count": {"exactly": 1}}}]}
            """#.utf8), file: "waits.json", vocabulary: Sandbox.standardVocabulary)
    }

    /// The app: a status request (held by the fault) and, once that is in flight, `GET /v3/ready`.
    private static let app: @Sendable (Sandbox) -> CommandOutcome? = { sandbox in
        Thread.detachNewThread { _ = try? TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/v3/cashout/status", body: Array("{}".utf8)) }
        Waiting.until { sandbox.activity.inFlight == 1 }
        _ = try? TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/v3/ready")
        return nil
    }

    @Test func settleWaitsForTheRequestsInFlight() throws {
        let serving = ScenarioRunner.Serving(threads: 2, quietLimit: Waiting.limit, beside: Self.app)
        let result = try ScenarioRunner.run(try Self.suite(wait: #"{"settle": "20ms"}"#, latency: "300ms"), serving: serving)
        #expect(result.passed, "\(result.failureText ?? "")")
        #expect(result.notes.isEmpty)
    }

    /// With a quiet period (as `test --serve` has), an `advance` waits as a `settle` does.
    @Test func anAdvanceWaitsForTheAppWithAQuietPeriod() throws {
        let serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(20), quietLimit: Waiting.limit, beside: Self.app)
        let result = try ScenarioRunner.run(try Self.suite(wait: #"{"advance": "1s"}"#, latency: "300ms"), serving: serving)
        #expect(result.passed, "\(result.failureText ?? "")")
    }

    /// An app still busy at the limit (a settle's: its period and the limit; the `expect_requests`
    /// after it: the quiet limit): each step goes on (the held request is not answered by the next
    /// step), and the result and the JUnit report note it.
    @Test func anAppStillBusyAtTheLimitIsNoted() throws {
        let serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(20), quietLimit: .milliseconds(50), beside: Self.app)
        let result = try ScenarioRunner.run(try Self.suite(wait: #"{"settle": "20ms"}"#, latency: "\(Waiting.seconds)s"), serving: serving)
        #expect(result.notes == ["step 2: the app was still busy after 70ms; went on anyway",
                                 "step 3: the app was still busy after --quiet-limit 50ms; its requests were checked anyway"])
        #expect(result.failure?.step == 3)
        #expect(JUnitReport.xml([result]).contains("<system-out>step 2: the app was still busy after 70ms; went on anyway\n"
                                                   + "step 3: the app was still busy after --quiet-limit 50ms; its requests were checked "
                                                   + "anyway</system-out>"))
    }

    /// `GET /sandbox/suite` while the steps run, once they failed, once they passed; 404 outside a suite.
    @Test func theSuiteEndpointSaysWhereTheStepsAre() throws {
        func suite(_ last: String) throws -> Scenario {
            try ScenarioLoader.load(Array(#"""
                {"name": "s", "steps": [{"wait_for_request": {"request": {"path": "/v3/ready"}}}, \#(last)]}
                """#.utf8), file: "s.json", vocabulary: Sandbox.standardVocabulary)
        }
        // The driver: reads the suite, makes the request step 1 waits for, then reads it until the steps are over.
        let driver: @Sendable (Sandbox) -> CommandOutcome? = { sandbox in
            let url = "\(sandbox.baseURL)/sandbox/suite"
            let first = (try? TestHTTP.send(method: "GET", url: url)).map { String(decoding: $0.body, as: UTF8.self) } ?? ""
            _ = try? TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/v3/ready")
            let last = Waiting.value { () -> String? in
                guard let answer = try? TestHTTP.send(method: "GET", url: url), let json = try? JSON.parse(answer.body),
                      json["state"] != "running" else { return nil }
                return String(decoding: answer.body, as: UTF8.self)
            }
            return CommandOutcome(command: "driver", ending: .exited(0), output: first + "\n" + (last ?? ""))
        }
        let failed = try ScenarioRunner.run(try suite(#"{"expect_ledger": {"merchant": "sandbox_login", "count": 5}}"#),
                                            serving: ScenarioRunner.Serving(beside: driver))
        let states = try (failed.command?.output ?? "").split(separator: "\n").map { try JSON.parse(Array($0.utf8)) }
        // (Its cases come once the run is judged, after the driver ended.)
        #expect(states == [
            ["state": "running", "step": 1, "steps": 2, "failure": .null, "cases": []],
            ["state": "failed", "step": 2, "steps": 2, "failure": "step 2: expect_ledger sandbox_login: expected 5 entries, got 0", "cases": []],
        ])
        let passed = try ScenarioRunner.run(try suite(#"{"expect_ledger": {"merchant": "sandbox_login", "count": 0}}"#),
                                            serving: ScenarioRunner.Serving(beside: driver))
        #expect(try passed.command?.output.split(separator: "\n").last.map { try JSON.parse(Array($0.utf8)) }
                == ["state": "passed", "step": 2, "steps": 2, "failure": .null, "cases": []])

        let sandbox = try Sandbox.launch(Sandbox.Configuration())
        defer { sandbox.stop() }
        let answer = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/suite")
        #expect(answer.status == 404)
        let message = "no suite is running: GET /sandbox/suite answers while 'cashout-sandbox test SUITE --serve' runs a suite's steps"
        #expect(try JSON.parse(answer.body) == ["code": 404, "message": .string(message)])
    }

    /// Once the steps of a run that failed are over (each one run), `stepFailed` is called with the first that failed
    /// (where `test --exec` stops the command) before the run waits for what runs beside; the command's failure then says
    /// why it was stopped, and does not fail a suite whose step was expected to fail.
    @Test func aFailedRunStopsWhatRunsBesideOnceItsStepsAreOver() throws {
        func run(_ top: String) throws -> ScenarioResult {
            let suite = try ScenarioLoader.load(Array(#"""
                {"name": "s", \#(top)"steps": [{"expect_ledger": {"merchant": "sandbox_login", "count": 0}}, {"expect_ledger": {"merchant": \#
                "sandbox_login", "count": 5}}, {"expect_ledger": {"merchant": "sandbox_login", "count": 6}}]}
                """#.utf8), file: "s.json", vocabulary: Sandbox.standardVocabulary)
            let stopped = Latch()
            let serving = ScenarioRunner.Serving(beside: { _ in
                // An app that waits for the clock: it ends only when stopped.
                stopped.wait()
                return CommandOutcome(command: "app", ending: .signalled(15), output: "")
            }, stepFailed: { step in if step == 2 { stopped.open() } })
            return try ScenarioRunner.run(suite, serving: serving)
        }
        let failed = try run("")
        #expect(!failed.passed)
        #expect(failed.failure?.step == 2)
        #expect(failed.failedSteps.map(\.step) == [2, 3])
        // It failed by its steps: not again for the command.
        #expect(failed.command?.failure == "command was killed by signal 15 (SIGTERM): stopped once the steps were over, step 2 having failed")
        #expect(failed.commandFailure == nil)
        #expect(!JUnitReport.xml([failed]).contains("CommandFailed"))
        let expected = try run(#""expect_failure": "the ledger is empty", "#)
        #expect(expected.passed)
        #expect(expected.expectedFailure?.step == 2)
        #expect(expected.command?.stoppedAfterStep == 2)
        #expect(expected.commandFailure == nil)
    }

    @Test func aSettleThatIsNotAQuietPeriodIsRefusedWhenTheFileLoads() {
        for (settle, message) in [
            (#""2m""#, #"t.json: steps[0].settle: expected a quiet period from 1ms to 1m, got "2m""#),
            (#""0s""#, #"t.json: steps[0].settle: expected a quiet period from 1ms to 1m, got "0s""#),
            ("5", #"t.json: steps[0].settle: expected a duration such as "30s", "1h5m" or "2d", got 5"#),
        ] {
            do {
                _ = try ScenarioLoader.load(Array(#"{"name": "t", "steps": [{"settle": \#(settle)}]}"#.utf8), file: "t.json",
                                            vocabulary: Sandbox.standardVocabulary)
                Issue.record("\(settle) was accepted")
            } catch {
                #expect("\(error)" == message)
            }
        }
    }
}

/// The clock waits for the app inside an advance, whatever its length (`AppTurns`): an app that
/// polls sees every status a payout takes, and one that follows up a notification a moment later,
/// on a thread of its own, does so at the notification's virtual time.
@Suite struct ClockStopsForTheAppTests {
    /// The app's own client: any `User-Agent` but the sandbox's, whose requests are a suite's steps'.
    private static func send(_ method: String, _ url: String, _ headers: HTTPHeaders = [:], _ body: String = "") -> JSON? {
        var headers = headers
        headers.add("User-Agent", "test-app")
        return (try? TestHTTP.send(method: method, url: url, headers: headers, body: Array(body.utf8))).flatMap { try? JSON.parse($0.body) }
    }

    /// Whether the suite's steps are over (`GET /sandbox/suite`).
    private static func over(_ sandbox: Sandbox) -> Bool {
        send("GET", "\(sandbox.baseURL)/sandbox/suite")?["state"] != "running"
    }

    /// A Mannco app polls its user's history (it hears of nothing else) every 300 ms, while one
    /// `advance` of a day runs a cashout through processing, completed and a late failure: each
    /// stop waits for its next poll, so it sees the completion before the failure.
    @Test func aPollingAppSeesEveryStatusOfADayLongAdvance() throws {
        let suite = try ScenarioLoader.load(Array(#"""
            {"name": "polled",
             "bank": {"rules": [{"when": {"dialect": "mannco"},
                                 "then": [{"after": "5s", "status": "DELIVERED"}, {"after": "5s", "status": "COMPLETED"},
                                {"after": "30s", "status": "REJECTED", "rejection_code": "payment_returned"}]}]},
             "steps": [{"wait_for_request": {"request": {"path": "/cashout/process"}}, "as": "c"}, {"advance": "1d"},
                       {"expect_cashout": {"ref": "c", "status": "failed"}}]}
            """#.utf8), file: "polled.json", vocabulary: Sandbox.standardVocabulary)
        let app: @Sendable (Sandbox) -> CommandOutcome? = { sandbox in
            let login = Self.send("POST", "\(sandbox.baseURL)/user/login", [:], #"{"apiKey": "sandbox_mannco_key"}"#)
            let jwt = login?["content"]?["jwt"]?.stringValue ?? ""
            let bearer: HTTPHeaders = ["Authorization": "Bearer \(jwt)"]
            _ = Self.send("POST", "\(sandbox.baseURL)/cashout/process", bearer, #"{"amount": 10000, "method": "payoneer"}"#)
            var seen: [String] = []
            while !Self.over(sandbox) {
                let history = Self.send("GET", "\(sandbox.baseURL)/user/getCashoutHistory", bearer)
                let status = history?["content"]?["cashouts"]?[0]?["status"]?.stringValue
                if let status, seen.last != status { seen.append(status) }
                Thread.sleep(forTimeInterval: 0.3)
            }
            return CommandOutcome(command: "poller", ending: .exited(0), output: seen.joined(separator: " "))
        }
        let serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(20), quietLimit: Waiting.limit, beside: app)
        let result = try ScenarioRunner.run(suite, serving: serving)
        #expect(result.passed, "\(result.failureText ?? "")")
        // Its first poll may come after the first change: the statuses the clock stopped for are what it must see.
        #expect(result.command?.output.hasSuffix("processing completed failed") == true, "\(result.command?.output ?? "")")
        #expect(result.clockStops == 3)
        #expect(result.notes.isEmpty)
    }
}

extension ClockStopsForTheAppTests {
    /// A D24 app answers each notification at once and asks `POST /v3/cashout/status` 50 ms later
    /// on a thread of its own; the suite moves the clock by an hour, a day and three days, across a
    /// completion and a reversal two days later: the report finds every notification followed up.
    @Test func anAppThatFollowsUpInTheBackgroundIsInTimeInsideDayLongAdvances() throws {
        let suite = try ScenarioLoader.load(Array(#"""
            {"name": "days",
             "bank": {"rules": [{"when": {"external_id": "late"},
                                 "then": [{"after": "5m", "status": "DELIVERED"}, {"after": "1h", "status": "COMPLETED"},
                                {"after": "2d", "status": "REJECTED", "rejection_code": 826}]}]},
             "steps": [{"wait_for_request": {"request": {"path": "/v3/cashout"}}}, {"advance": "1h"}, {"advance": "1d"}, {"advance": "3d"},
                       {"expect_report": {"no_errors": true, "exercised": ["notification_not_followed_up", "late_rejection_missed"]}}]}
            """#.utf8), file: "days.json", vocabulary: Sandbox.standardVocabulary)
        let app: @Sendable (Sandbox) -> CommandOutcome? = { sandbox in
            @Sendable func signed(_ path: String, _ fields: String) {
                let body = #"{"login":"sandbox_login","pass":"sandbox_pass",\#(fields)}"#
                _ = Self.send("POST", "\(sandbox.baseURL)\(path)", ["Payload-Signature": D24Signing.payloadSignature(body)], body)
            }
            let receiver = try? HTTPServer.start(configuration: .init(host: "127.0.0.1", port: 0, threads: 1)) { request in
                let form = FormURLEncoding.decode(request.body) ?? []
                let id = form.first { $0.name == "cashout_id" }?.value ?? ""
                Thread.detachNewThread {
                    Thread.sleep(forTimeInterval: 0.05)
                    signed("/v3/cashout/status", #""cashout_id":\#(id)"#)
                }
                return HTTPResponse(status: 200)
            }
            defer { receiver?.stop() }
            signed("/v3/cashout", #""external_id":"late","country":"BR","currency":"BRL","amount":"100.00","document_id":"01716001340","#
                + #""document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","bank_code":"001","bank_account":"3423422-7","#
                + #""bank_branch":"1234","account_type":"C","notification_url":"http://127.0.0.1:\#(receiver?.port ?? 0)/hook""#)
            while !Self.over(sandbox) { Thread.sleep(forTimeInterval: 0.05) }
            return nil
        }
        let serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(200), quietLimit: Waiting.limit, beside: app)
        let result = try ScenarioRunner.run(suite, serving: serving)
        #expect(result.passed, "\(result.failureText ?? "")")
        #expect(result.clockStops == 3)  // DELIVERED, COMPLETED, REJECTED
    }

    /// A `settle` waits its own period from the step's start, even when the app was quiet before it.
    @Test func settleWaitsItsPeriodFromTheStepsStart() throws {
        let suite = try ScenarioLoader.load(Array(#"{"name": "s", "steps": [{"settle": "300ms"}, {"settle": "300ms"}]}"#.utf8), file: "s.json",
                                            vocabulary: Sandbox.standardVocabulary)
        let started = ContinuousClock.now
        let result = try ScenarioRunner.run(suite, serving: ScenarioRunner.Serving(quietLimit: Waiting.limit))
        #expect(result.passed)
        #expect(ContinuousClock.now - started >= .milliseconds(600))
    }
}
