@testable import CashoutSandbox
@testable import SandboxContract
@testable import SandboxRunner
@testable import SandboxSupport
import Synchronization
import Testing

/// The app's own answers (``AppAnswers``) given by the test, no socket opened: how the clock's waits read `app.settled`
/// (``AppSettled``), and how a run reads the app's ledger.
@Suite struct AppAnswersTests {
    /// Answers `settled` from a script, the last answer for ever, counting the asks; and a ledger that says `status`.
    final class Scripted: AppAnswers {
        private let state: Mutex<(answers: [SettledAnswer], asked: Int)>
        let status: String

        init(_ answers: [SettledAnswer], ledger status: String = "PENDING") {
            state = Mutex((answers, 0))
            self.status = status
        }

        var asked: Int { state.withLock(\.asked) }

        func settled(at url: String) -> SettledAnswer {
            state.withLock { state in
                state.asked += 1
                return state.answers.count > 1 ? state.answers.removeFirst() : state.answers[0]
            }
        }

        func ledger(at location: String) -> Result<JSON, Reconciliation.Problem> {
            .success(["payouts": [["external_id": "a-1", "amount": "100.00", "status": .string(status)]]])
        }
    }

    /// Asked while nothing of the app's is in flight; asked again only once the gap has passed (5 ms, doubling) or the app
    /// did something; its 0 is settled.
    @Test func theAppIsAskedAfterEachGapAndItsZeroIsSettled() {
        let answers = Scripted([.pending(2), .pending(1), .pending(0)])
        var settled = AppSettled(url: "http://app/settled", answers: answers)
        let activity = AppActivity()
        settled.beginWait()
        #expect(settled.word(activity, now: 0) == .pending(2))
        #expect(settled.word(activity, now: 4_000_000) == .pending(2))  // within the first gap: as it said
        #expect(answers.asked == 1)
        #expect(settled.word(activity, now: 5_000_000) == .pending(1))
        #expect(settled.word(activity, now: 14_000_000) == .pending(1))  // the gap doubled to 10 ms
        #expect(settled.word(activity, now: 15_000_000) == .pending(0))
        #expect(answers.asked == 3)
        // Something of the app's in flight: not asked.
        _ = activity.begin()
        #expect(settled.word(activity, now: 100_000_000) == .busy)
        #expect(answers.asked == 3)
    }

    /// An answer not in its form is noted once, and the app is not asked again in the same wait: the clock guesses.
    @Test func anAnswerNotInItsFormIsNotedOnceAndNotAskedAgain() {
        let answers = Scripted([.unreadable(#"{"payouts": []}"#)])
        var settled = AppSettled(url: "http://app/settled", answers: answers)
        let activity = AppActivity()
        settled.beginWait()
        #expect(settled.word(activity, now: 0) == .notOffered)
        #expect(settled.word(activity, now: 1_000_000_000) == .notOffered)
        #expect(answers.asked == 1)
        #expect(settled.takeUnreadable() == #"app.settled http://app/settled answered "{\"payouts\": []}", expected {"pending": N} (N a whole "#
                + "number, 0 when the app has no work pending); the clock guessed from real-time quiet instead")
        #expect(settled.takeUnreadable() == nil)
        // A new wait asks afresh.
        settled.beginWait()
        _ = settled.word(activity, now: 2_000_000_000)
        #expect(answers.asked == 2)
    }

    /// A run reads the ledger the answers give, not the URL its file names (nothing listens there): it reconciles with the
    /// bank (the payout just created, pending), or fails naming the mismatch.
    @Test func aRunReconcilesTheLedgerItsAnswersGive() throws {
        let scenario = try ScenarioLoader.load(Array(#"""
            {"name": "answers", "app": {"ledger": "http://127.0.0.1:1/ledger"},
             "steps": [{"create_cashout": {"external_id": "a-1", "amount": "100.00"}}]}
            """#.utf8), file: "answers.json", vocabulary: Sandbox.standardVocabulary)
        for (status, summary) in [("PENDING", "ledger: 1 payout reconciled"), ("COMPLETED", nil)] {
            var serving = ScenarioRunner.Serving()
            serving.answers = Scripted([.notServed], ledger: status)
            let result = try ScenarioRunner.run(scenario, serving: serving)
            #expect(result.ledgerSummary == summary, "\(result.failureText ?? "")")
            #expect(result.passed == (summary != nil))
            if summary == nil {
                #expect(result.failureText == #"step 1: app.ledger, after the last step: ledger_mismatch: the app believes cashout 1000001 "#
                        + #"(external_id "a-1") is COMPLETED; the bank's is PENDING"#, "\(result.failureText ?? "")")
            }
        }
    }
}
