package import CashoutSandbox
import Dispatch
import SandboxWire
import SandboxSupport
import Synchronization

extension ScenarioRunner {
    /// Where a run's sandbox listens, and what runs beside its steps: by default a free port and
    /// one event-loop thread (the steps send one request at a time); `test --serve` gives a port
    /// the user's app calls, more threads for the app's concurrent calls, and the app's command.
    package struct Serving: Sendable {
        /// The port; 0 picks a free one.
        package var port: Int
        /// The address to bind (`Sandbox.Configuration.server.host`): loopback unless an app on
        /// another machine or container calls (`0.0.0.0`).
        var host: String
        /// The host names answered besides the machine's own while bound to loopback only
        /// (`Sandbox.Configuration.allowedHosts`).
        var allowedHosts: [String]
        /// Event-loop threads.
        package var threads: Int
        /// Runs on a thread of its own once the sandbox listens, while the steps run; the run ends
        /// when both have ended, and what it answers is the result's `command`. The sandbox's clock
        /// is still the steps' to move.
        package var beside: (@Sendable (Sandbox) -> CommandOutcome?)?
        /// Before each step that moves the clock (`advance`, `advance_to_next_event`) or reads the
        /// report (`expect_report`), the run waits until the app has been quiet for this long in
        /// real time (`Sandbox.activity`); nil: it does not wait (no app calls). A `settle` step
        /// waits for its own period whatever this is.
        package var quietPeriod: Duration?
        /// The longest a step waits for the app to go quiet; then it goes on, and the result notes it.
        package var quietLimit: Duration
        /// Called on the steps' thread once the steps of a run that failed are over (with its first
        /// failed step, from 1), or once the last step of a run that ends early has run (`lastStep`),
        /// before the run waits for `beside` to end: `test --serve --exec` stops the command there,
        /// since a driver waiting for a payout that never came would otherwise wait for ever.
        package var stepFailed: (@Sendable (Int) -> Void)?
        /// The step (from 1) after which the run ends, the later ones not run: a shrink's try, which
        /// its target step decides (`Explorer`); nil: every step runs.
        var lastStep: Int?
        /// Called once the steps and `beside` have both ended, before the sandbox stops: `test
        /// --serve --exec` stops there what the command left running.
        package var ended: (@Sendable () -> Void)?
        /// Which runs get a timeline (``ScenarioResult/timeline``).
        package var timeline: TimelineWanted = .none
        /// Whether the integration report's errors fail the run, each judged in the case of the payout it concerns, else of its
        /// check, when no `expect_report` step asked for no errors (`explore`, which judges every run's report).
        var judgesReportErrors = false
        /// Whether a failed run is followed by the integration report's findings (``ScenarioResult/foundAfter``); `explore`
        /// judges the report of every run itself.
        var judgesAfterFailure = true
        /// Called with the sandbox and the result once the run is judged, before the sandbox stops:
        /// `test --serve --keep` reports there and serves the run's end state until it is stopped.
        package var kept: (@Sendable (Sandbox, ScenarioResult) -> Void)?
        /// Who answers what the run asks the app itself (`app.settled`, its ledger); nil: the app, over HTTP or its file
        /// (``AppOverHTTP``).
        package var answers: (any AppAnswers)?

        /// Which runs get a timeline: none (`test`), a failed one, of the payouts its failures name
        /// (`test --serve`, `explore`), or every one, of every payout when none failed (`--timeline`).
        package enum TimelineWanted: Sendable {
            case none, onFailure, always
        }

        /// The quiet period `test --serve` waits for by default: longer than an app takes to
        /// follow up a notification it has just answered, short beside a suite's run.
        package static let defaultQuietPeriod: Duration = .milliseconds(200)
        /// How long a step waits for the app to go quiet by default.
        package static let defaultQuietLimit: Duration = .seconds(10)

        package init(port: Int = 0, host: String = "127.0.0.1", allowedHosts: [String] = [], threads: Int = 1,
                    quietPeriod: Duration? = nil, quietLimit: Duration = defaultQuietLimit,
                    beside: (@Sendable (Sandbox) -> CommandOutcome?)? = nil, stepFailed: (@Sendable (Int) -> Void)? = nil,
                    ended: (@Sendable () -> Void)? = nil) {
            self.port = port
            self.host = host
            self.allowedHosts = allowedHosts
            self.threads = threads
            self.quietPeriod = quietPeriod
            self.quietLimit = quietLimit
            self.beside = beside
            self.stepFailed = stepFailed
            self.ended = ended
        }
    }
}

/// `Serving.beside` running on its thread, until `wait()` has its answer.
final class BesideRun: Sendable {
    private let outcome = Mutex<CommandOutcome?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable (Sandbox) -> CommandOutcome?, sandbox: Sandbox) {
        OSThread.detach { [self] in
            let answer = body(sandbox)
            outcome.withLock { $0 = answer }
            done.signal()
        }
    }

    /// Waits for it to end; its answer.
    func wait() -> CommandOutcome? {
        done.wait()
        return outcome.withLock { $0 }
    }
}
