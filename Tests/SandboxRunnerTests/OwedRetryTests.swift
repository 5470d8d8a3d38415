@testable import CashoutSandbox
import Foundation
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxRunner
@testable import SandboxContract
import Synchronization
import TestHelpers
import Testing

/// A fault the sandbox injected is its own doing (`AppTurns`, "owed"): the clock waits until the
/// app has retried and had a real answer, however long its backoff (here many times the quiet
/// period), so a careful app passes; the ledger is read after its retries; an app that refuses the
/// notification instead is retried by the bank, which needs the clock; one that never retries is
/// waited for only up to the quiet limit, and noted. Each app is D24's: one cashout, its
/// notifications followed up with `POST /v3/cashout/status`.
@Suite struct OwedRetryTests {
    /// How an app follows up a notification.
    enum FollowUp {
        /// Answers 200 at once, asks on a thread of its own, retrying a lost answer after `backoff`.
        case background(backoff: Duration)
        /// Asks first, once: a lost answer makes it refuse the notification (503), to be sent it again.
        case refusing
        /// Answers 200 and asks once, never again.
        case once
    }

    /// The app: one create (its answer lost: looked up by its `external_id` after `backoff`), each
    /// notification followed up as `followUp` says. It serves its ledger (``ledger``, a
    /// ``TestAppLedger``) and its notification URL on `CASHOUT_SANDBOX_APP_PORT`.
    static func app(_ followUp: FollowUp, createBackoff: Duration = .zero) -> @Sendable (Sandbox) -> CommandOutcome? {
        { sandbox in
            let ledger = TestAppLedger(externalID: "owed-1")
            /// A status query, begun, booked when answered: whether it was (nil: a fault answered it).
            @Sendable func ask() -> Bool {
                defer { ledger.end() }
                let answer = Self.signed(sandbox, "/v3/cashout/status", #""external_id":"owed-1""#)
                guard let answer, answer.status == 200,
                      let learnt = (try? JSON.parse(answer.body))?["cashout_status_description"]?.stringValue else { return false }
                ledger.book(learnt.uppercased())
                return true
            }
            let server = try? HTTPServer.start(configuration: .init(host: "127.0.0.1", port: sandbox.appPort, threads: 2)) { request in
                if request.path == "/ledger" { return ledger.answer() }
                ledger.begin()
                switch followUp {
                case .background(let backoff):
                    Thread.detachNewThread {
                        while !ask() {
                            Thread.sleep(forTimeInterval: Double(backoff.components.seconds) + Double(backoff.components.attoseconds) / 1e18)
                            ledger.begin()
                        }
                    }
                    return HTTPResponse(status: 200)
                case .refusing:
                    return HTTPResponse(status: ask() ? 200 : 503)
                case .once:
                    Thread.detachNewThread { _ = ask() }
                    return HTTPResponse(status: 200)
                }
            }
            guard let server else {
                Issue.record("the app could not listen on CASHOUT_SANDBOX_APP_PORT \(sandbox.appPort)")
                return nil
            }
            defer { server.stop() }
            ledger.begin()
            let created = Self.signed(sandbox, "/v3/cashout", #""external_id":"owed-1","country":"BR","currency":"BRL","amount":"100.00","#
                + #""document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","#
                + #""bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C","#
                + #""notification_url":"http://127.0.0.1:\#(sandbox.appPort)/hook""#)
            if created?.status == 200 { ledger.book("PENDING") }
            ledger.end()
            if created?.status != 200 {
                Thread.sleep(forTimeInterval: Double(createBackoff.components.seconds) + Double(createBackoff.components.attoseconds) / 1e18)
                ledger.begin()
                _ = ask()
            }
            while (try? TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/suite")).flatMap({ try? JSON.parse($0.body) })?["state"]
                == "running" {
                Thread.sleep(forTimeInterval: 0.02)
            }
            return nil
        }
    }

    /// Where ``app(_:createBackoff:)`` serves its ledger.
    static let ledger = "http://127.0.0.1:${CASHOUT_SANDBOX_APP_PORT}/ledger"

    /// A signed D24 request of the app's (its own `User-Agent`); nil when no answer came.
    static func signed(_ sandbox: Sandbox, _ path: String, _ fields: String) -> HTTPResponse? {
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass",\#(fields)}"#
        let headers: HTTPHeaders = ["Payload-Signature": D24Signing.payloadSignature(body), "User-Agent": "test-app"]
        return try? TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)\(path)", headers: headers, body: Array(body.utf8))
    }

    /// Completes 5 s and 10 s after its creation; the first `lost` status queries' answers are
    /// lost (`faults`); the clock moves a minute in a step; the ledger is read after the last step.
    static func suite(faults: String, ledger: String = Self.ledger) throws -> Scenario {
        try ScenarioLoader.load(Array(#"""
            {"name": "owed", "app": {"ledger": "\#(ledger)"},
             "bank": {"rules": [{"when": {"external_id": "owed-1"},
                                 "then": [{"after": "5s", "status": "DELIVERED"}, {"after": "5s", "status": "COMPLETED"}]}]},
             "faults": \#(faults),
             "webhooks": {"retry": ["30s"]},
             "steps": [{"wait_for_request": {"request": {"path": "/v3/cashout"}}}, {"advance": "2m"}, {"advance": "2m"},
                       {"expect_report": {"no_errors": true, "exercised": ["notification_not_followed_up"]}}]}
            """#.utf8), file: "owed.json", vocabulary: Sandbox.standardVocabulary)
    }

    static func ledgerFile() -> String {
        NSTemporaryDirectory() + "owed-ledger-\(UUID().uuidString).json"
    }

    /// The first two status queries' answers are lost; the app retries 400 ms later each time, eight
    /// times the quiet period: it followed up in time, and its ledger says COMPLETED.
    @Test func aRetryAfterABackoffLongerThanTheQuietPeriodIsWaitedFor() throws {
        let faults = #"[{"when": {"endpoint": "POST /v3/cashout/status"}, "kind": "drop_after_commit", "every": 1, "times": 2}]"#
        let serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(50), quietLimit: Waiting.limit,
                                             beside: Self.app(.background(backoff: .milliseconds(400))))
        let result = try ScenarioRunner.run(try Self.suite(faults: faults), serving: serving)
        #expect(result.passed, "\(result.failureText ?? "") \(result.ledgerFailure ?? "")")
        #expect(result.notes.isEmpty)
        #expect(result.ledgerSummary == "ledger: 1 payout reconciled")
    }

    /// Three answers in a row lost, the app retrying every 150 ms: each retry is one, though a fault
    /// answered it again, so the quiet limit (200 ms) counts from the last; 450 ms in all pass.
    @Test func aRetryAnsweredByAFaultAgainIsARetry() throws {
        let faults = #"[{"when": {"endpoint": "POST /v3/cashout/status"}, "kind": "drop_after_commit", "every": 1, "times": 3}]"#
        let serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(20), quietLimit: .milliseconds(200),
                                             beside: Self.app(.background(backoff: .milliseconds(150))))
        let result = try ScenarioRunner.run(try Self.suite(faults: faults), serving: serving)
        #expect(result.passed, "\(result.failureText ?? "") \(result.ledgerFailure ?? "")")
        #expect(result.notes.isEmpty)
    }

    /// The create's answer is lost, and the app looks it up 500 ms later: the ledger is read after
    /// that, not before (it would not name the cashout).
    @Test func theLedgerIsReadAfterTheRetryOfALostCreate() throws {
        let ledger = Self.ledger
        let faults = #"[{"when": {"endpoint": "POST /v3/cashout"}, "kind": "drop_after_commit", "every": 1, "times": 1}]"#
        let scenario = try ScenarioLoader.load(Array(#"""
            {"name": "lost create", "app": {"ledger": "\#(ledger)"}, "faults": \#(faults),
             "steps": [{"wait_for_request": {"request": {"path": "/v3/cashout"}}}]}
            """#.utf8), file: "lost.json", vocabulary: Sandbox.standardVocabulary)
        let serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(50), quietLimit: Waiting.limit,
                                             beside: Self.app(.refusing, createBackoff: .milliseconds(500)))
        let result = try ScenarioRunner.run(scenario, serving: serving)
        #expect(result.passed, "\(result.failureText ?? "") \(result.ledgerFailure ?? "")")
        #expect(result.ledgerSummary == "ledger: 1 payout reconciled")
    }

    /// Three creates at once, the middle one's answer lost: the two beside it, answered after it (a
    /// latency fault holds them), are not its retry. The clock waits for the app's own (sent again,
    /// refused 511, looked up by its external_id), and the ledger is read after it. The app retries
    /// 800 ms after the last step begins, once the two beside it are in its ledger, and writes its
    /// ledger whole (atomically, under its lock) before its last request: how long the steps before
    /// took on a busy machine, and when its threads ran, change nothing.
    @Test func theCreatesBesideALostOneDoNotPayItsRetryOff() throws {
        let ledger = Self.ledgerFile()
        let scenario = try ScenarioLoader.load(Array(#"""
            {"name": "at once", "app": {"ledger": "\#(ledger)"},
             "bank": {"rules": [{"when": {"country": "BR"}, "then": [{"after": "1h", "status": "DELIVERED"}]}]},
             "faults": [{"when": {"endpoint": "POST /v3/cashout", "body": {"amount": 102}}, "kind": "drop_after_commit", "every": 1, "times": 1},
                        {"when": {"endpoint": "POST /v3/cashout", "body": {"amount": {"in": [101, 103]}}}, "kind": "latency",
                         "latency": "300ms", "every": 1}],
             "steps": [{"wait_for_request": {"request": {"path": "/v3/cashout", "body": {"amount": 101}}}},
                       {"wait_for_request": {"request": {"path": "/v3/cashout", "body": {"amount": 102}}}},
                       {"wait_for_request": {"request": {"path": "/v3/cashout", "body": {"amount": 103}}}},
                       {"advance": "1m"}]}
            """#.utf8), file: "at-once.json", vocabulary: Sandbox.standardVocabulary)
        let app: @Sendable (Sandbox) -> CommandOutcome? = { sandbox in
            let booked = Mutex<[String: String]>([:])
            @Sendable func book(_ amount: String) {
                booked.withLock { booked in
                    booked["c-\(amount)"] = amount
                    let rows = booked.map { #"{"external_id": "\#($0.key)", "amount": "\#($0.value).00", "status": "PENDING"}"# }
                    let text = #"{"payouts": [\#(rows.joined(separator: ","))]}"#
                    try? Data(text.utf8).write(to: URL(fileURLWithPath: ledger), options: .atomic)
                }
            }
            @Sendable func step() -> Int? {
                let progress = try? TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/suite")
                return progress.flatMap { try? JSON.parse($0.body) }?["step"]?.integerValue
            }
            @Sendable func create(_ amount: String) {
                let fields = #""external_id":"c-\#(amount)","country":"BR","currency":"BRL","amount":"\#(amount).00","#
                    + #""document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","#
                    + #""bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C","#
                    + #""notification_url":"\#(sandbox.baseURL)/sandbox/sink/at-once""#
                if Self.signed(sandbox, "/v3/cashout", fields)?.status == 200 { return book(amount) }
                Waiting.until { booked.withLock(\.count) == 2 && (step() ?? 0) >= 4 }
                Thread.sleep(forTimeInterval: 0.8)
                if Self.signed(sandbox, "/v3/cashout", fields)?.status == 412 { book(amount) }  // code 511: made before
                _ = Self.signed(sandbox, "/v3/cashout/status", #""external_id":"c-\#(amount)""#)
            }
            // The lost one first, then the two beside it once it has begun.
            let threads = ["102", "101", "103"].map { amount in
                let thread = Thread { create(amount) }
                thread.start()
                if amount == "102" { Waiting.until { sandbox.activity.turn >= 1 } }
                return thread
            }
            Waiting.until { threads.allSatisfy(\.isFinished) }
            Waiting.until {
                (try? TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/suite")).flatMap { try? JSON.parse($0.body) }?["state"]
                    != "running"
            }
            return nil
        }
        var serving = ScenarioRunner.Serving(threads: 4, quietPeriod: .milliseconds(50), quietLimit: Waiting.limit, beside: app)
        serving.timeline = .always
        let result = try ScenarioRunner.run(scenario, serving: serving)
        #expect(result.passed, "\(result.failureText ?? "") \(result.ledgerFailure ?? "")")
        #expect(result.ledgerSummary == "ledger: 3 payouts reconciled")
        #expect(result.timeline?.entries.contains { $0.text.contains("then for the app's retry of POST /v3/cashout, answered by an injected fault") }
                == true)
    }

    /// An app that refuses a notification whose follow-up was lost asks for it again: the bank's
    /// retry (30 s later) is its retry, which needs the clock. It is not waited for, and passes.
    @Test func anAppThatRefusesTheNotificationIsRetriedByTheBank() throws {
        let faults = #"[{"when": {"endpoint": "POST /v3/cashout/status"}, "kind": "drop_after_commit", "every": 1, "times": 1}]"#
        let serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(50), quietLimit: Waiting.limit,
                                             beside: Self.app(.refusing))
        let started = ContinuousClock.now
        let result = try ScenarioRunner.run(try Self.suite(faults: faults), serving: serving)
        #expect(result.passed, "\(result.failureText ?? "") \(result.ledgerFailure ?? "")")
        #expect(result.notes.isEmpty)
        #expect(ContinuousClock.now - started < Waiting.limit)
    }

    /// An app that never asks again is waited for up to the quiet limit, then the clock moves on,
    /// noted; the report says it asked, and that the answers were lost.
    @Test func anAppThatNeverRetriesIsNotedAndReported() throws {
        let faults = #"[{"when": {"endpoint": "POST /v3/cashout/status"}, "kind": "drop_after_commit", "every": 1}]"#
        let serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(50), quietLimit: .milliseconds(300),
                                             beside: Self.app(.once))
        let result = try ScenarioRunner.run(try Self.suite(faults: faults), serving: serving)
        #expect(result.notes.contains { $0.hasSuffix(
            ": cashout 1000001: POST /v3/cashout/status was answered by an injected fault (drop_after_commit), and the app had no real "
                + "answer about it within --quiet-limit 300ms (no retry); the run went on anyway") }, "\(result.notes)")
        #expect(result.failure?.step == 4)
        #expect(result.failureText?.contains(
            "the DELIVERED, COMPLETED notifications of cashout 1000001 were followed up by POST /v3/cashout/status twice, and both "
                + "answers were lost to injected faults: no query answered within 1m") == true, "\(result.failureText ?? "")")
    }
}
