@testable import CashoutSandbox
import Foundation
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxRunner
@testable import SandboxContract
import Synchronization
import TestHelpers
import Testing

/// An app that says whether it has work pending (`app.settled`, the Testing your app guide, "Saying
/// when your app is settled"): the clock's stops end when it says 0, with no real-time guess, and
/// hold while it says more, up to the quiet limit (noted). An app that says nothing, or not in the
/// form, is waited for as before (noted once). Each app is D24's: one cashout, each notification
/// answered at once and followed up on a thread of its own with `POST /v3/cashout/status`.
@Suite struct AppSettledTests {
    /// What the app's `/settled` answers.
    enum Word: Sendable {
        /// Its count of pending work, kept honestly.
        case honest
        /// Always this body.
        case fixed(String)
    }

    /// The app: serves `/settled` on the sandbox's `CASHOUT_SANDBOX_APP_PORT` as `word` says; its
    /// follow-ups are retried after `backoff` while a fault answers them, `retries` times at most.
    static func app(_ word: Word, backoff: Duration, retries: Int) -> @Sendable (Sandbox) -> CommandOutcome? {
        { sandbox in
            let ledger = TestAppLedger(externalID: "settled-1")
            let settled = try? HTTPServer.start(configuration: .init(host: "127.0.0.1", port: sandbox.appPort, threads: 2)) { request in
                // Answered once no work is pending, whatever `/settled` says.
                if request.path == "/ledger" { return ledger.answer() }
                guard request.path == "/settled" else { return HTTPResponse(status: 404) }
                switch word {
                case .honest: return HTTPResponse(status: 200, body: Array(#"{"pending": \#(ledger.pending)}"#.utf8))
                case .fixed(let body): return HTTPResponse(status: 200, body: Array(body.utf8))
                }
            }
            guard let settled else {
                Issue.record("the app could not listen on CASHOUT_SANDBOX_APP_PORT \(sandbox.appPort)")
                return nil
            }
            defer { settled.stop() }
            let receiver = try? HTTPServer.start(configuration: .init(host: "127.0.0.1", port: 0, threads: 2)) { _ in
                ledger.begin()  // the follow-up is owed from before the answer goes
                Thread.detachNewThread {
                    defer { ledger.end() }
                    for attempt in 0 ... retries {
                        if attempt > 0 {
                            Thread.sleep(forTimeInterval: Double(backoff.components.seconds) + Double(backoff.components.attoseconds) / 1e18)
                        }
                        let answer = OwedRetryTests.signed(sandbox, "/v3/cashout/status", #""external_id":"settled-1""#)
                        if let answer, answer.status == 200, let status = (try? JSON.parse(answer.body))?["cashout_status_description"]?.stringValue {
                            return ledger.book(status.uppercased())
                        }
                    }
                }
                return HTTPResponse(status: 200)
            }
            defer { receiver?.stop() }
            ledger.begin()
            let created = OwedRetryTests.signed(sandbox, "/v3/cashout", #""external_id":"settled-1","country":"BR","currency":"BRL","#
                + #""amount":"100.00","document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","#
                + #""bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C","#
                + #""notification_url":"http://127.0.0.1:\#(receiver?.port ?? 0)/hook""#)
            if created?.status == 200 { ledger.book("PENDING") }
            ledger.end()
            Waiting.until {
                (try? TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/suite")).flatMap { try? JSON.parse($0.body) }?["state"]
                    != "running"
            }
            return nil
        }
    }

    /// The first `times` status queries' answers lost (none for 0).
    static func faults(_ times: Int) -> String {
        times == 0 ? "[]" : #"[{"when": {"endpoint": "POST /v3/cashout/status"}, "kind": "drop_after_commit", "every": 1, "times": \#(times)}]"#
    }

    /// `OwedRetryTests.suite`, with `app.settled` beside the ledger: the first `times` status queries' answers are lost.
    static func suite(times: Int) throws -> Scenario {
        try ScenarioLoader.load(Array(#"""
            {"name": "settled", "app": {"ledger": "http://127.0.0.1:${CASHOUT_SANDBOX_APP_PORT}/ledger",
                                        "settled": "http://127.0.0.1:${CASHOUT_SANDBOX_APP_PORT}/settled"},
             "bank": {"rules": [{"when": {"external_id": "settled-1"},
                                 "then": [{"after": "5s", "status": "DELIVERED"}, {"after": "5s", "status": "COMPLETED"}]}]},
             "faults": \#(Self.faults(times)),
             "steps": [{"wait_for_request": {"request": {"path": "/v3/cashout"}}}, {"advance": "2m"}, {"advance": "2m"},
                       {"expect_report": {"no_errors": true, "exercised": ["notification_not_followed_up"]}}]}
            """#.utf8), file: "settled.json", vocabulary: Sandbox.standardVocabulary)
    }

    /// A retry after 1 s, twenty times the quiet period, with a quiet limit no run reaches: the
    /// app says it has the follow-up pending until it has its answer, so the clock waits for it,
    /// and every stop ended on its word.
    @Test func theClockHoldsWhileTheAppSaysItHasWorkPending() throws {
        var serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(50), quietLimit: Waiting.limit,
                                             beside: Self.app(.honest, backoff: .seconds(1), retries: 3))
        serving.timeline = .always
        let result = try ScenarioRunner.run(try Self.suite(times: 2), serving: serving)
        #expect(result.passed, "\(result.failureText ?? "") \(result.ledgerFailure ?? "")")
        #expect(result.notes.isEmpty, "\(result.notes)")
        #expect(result.ledgerSummary == "ledger: 1 payout reconciled")
        let stops = result.timeline?.entries.filter { $0.kind == .clockStop }.map(\.text) ?? []
        #expect(!stops.isEmpty && stops.allSatisfy { $0.hasSuffix("ended when the app said it was settled (app.settled)") }, "\(stops)")
    }

    /// An app that swallows its lost follow-up (never asks again) and says so: no stop waits out the
    /// quiet limit (here one no run reaches) for a retry that will not come; the report says it did
    /// not follow up.
    @Test func anAppThatSaysItIsSettledIsNotWaitedForTillTheLimit() throws {
        let serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(50), quietLimit: Waiting.limit,
                                             beside: Self.app(.honest, backoff: .zero, retries: 0))
        let started = ContinuousClock.now
        let result = try ScenarioRunner.run(try Self.suite(times: 9), serving: serving)
        #expect(ContinuousClock.now - started < Waiting.limit)
        #expect(result.failure?.step == 4, "\(result.failureText ?? "")")
        #expect(result.failureText?.contains("notification_not_followed_up") == true, "\(result.failureText ?? "")")
        #expect(result.notes.isEmpty, "\(result.notes)")
    }

    /// An app that says it has work pending for ever: each wait ends at the quiet limit, noted with its word.
    @Test func anAppThatStaysPendingIsNotedAtTheQuietLimit() throws {
        let serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(50), quietLimit: .milliseconds(300),
                                             beside: Self.app(.fixed(#"{"pending": 1}"#), backoff: .zero, retries: 0))
        let result = try ScenarioRunner.run(try Self.suite(times: 0), serving: serving)
        #expect(result.notes.contains("step 2: the app still said it had 1 pending (app.settled) after --quiet-limit 300ms; the clock moved anyway"),
                "\(result.notes)")
    }

    /// An answer not in the form is noted once, and the clock guesses as without it.
    @Test func anAnswerNotInTheFormIsNotedOnceAndGuessedAround() throws {
        let serving = ScenarioRunner.Serving(threads: 2, quietPeriod: .milliseconds(50), quietLimit: Waiting.limit,
                                             beside: Self.app(.fixed(#"{"payouts": []}"#), backoff: .milliseconds(100), retries: 3))
        let result = try ScenarioRunner.run(try Self.suite(times: 1), serving: serving)
        #expect(result.passed, "\(result.failureText ?? "") \(result.ledgerFailure ?? "")")
        let unreadable = result.notes.filter { $0.contains("answered \"{\\\"payouts\\\": []}\", expected {\"pending\": N}") }
        #expect(unreadable.count == 1, "\(result.notes)")
    }
}
