import CashoutSandbox
import Foundation
import Synchronization

extension ScenarioRunner {
    /// Where a run's sandbox listens, and what runs beside its steps: by default a free port and
    /// one event-loop thread (the steps send one request at a time); `test --serve` gives a port
    /// the user's app calls, more threads for the app's concurrent calls, and the app's command.
    public struct Serving: Sendable {
        /// The port; 0 picks a free one.
        public var port: Int
        /// Event-loop threads.
        public var threads: Int
        /// Runs on a thread of its own once the sandbox listens, while the steps run; the run ends
        /// when both have ended, and what it answers is the result's `command`. The sandbox's clock
        /// is still the steps' to move.
        public var beside: (@Sendable (Sandbox) -> CommandOutcome?)?

        public init(port: Int = 0, threads: Int = 1, beside: (@Sendable (Sandbox) -> CommandOutcome?)? = nil) {
            self.port = port
            self.threads = threads
            self.beside = beside
        }
    }
}

/// `Serving.beside` running on its thread, until `wait()` has its answer.
final class BesideRun: Sendable {
    private let outcome = Mutex<CommandOutcome?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable (Sandbox) -> CommandOutcome?, sandbox: Sandbox) {
        Thread.detachNewThread { [self] in
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
