/// How a command run beside a scenario's steps ended (`cashout-sandbox test --serve --exec CMD`:
/// the user's own app, or its tests, against the sandbox), and the end of what it printed. A
/// command that did not exit with status 0 fails the scenario, whatever its steps did.
package struct CommandOutcome: Sendable, Equatable {
    /// How it ended.
    package enum Ending: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal killed it.
        case signalled(Int32)
        /// It could not be started, for this reason.
        case notStarted(String)
    }

    /// The command line, as given to `/bin/sh -c`.
    package var command: String
    package var ending: Ending
    /// The last `outputLimit` bytes of its standard output and standard error, interleaved as
    /// they were read (two pipes: of two writes close together, one to each, either may come first).
    package var output: String
    /// The first failed step (from 1) of the run that stopped it once its steps were over (`test
    /// --serve --exec`: an app waiting for a payout that never came would wait for ever); nil when
    /// it ended by itself.
    package var stoppedAfterStep: Int?
    /// Whether it was stopped for running longer than it may (`explore --timeout`).
    package var timedOut = false

    /// How much of its output is kept: the end, where a failure is told.
    package static let outputLimit = 64 * 1024

    package init(command: String, ending: Ending, output: String) {
        self.command = command
        self.ending = ending
        self.output = output
    }

    package var passed: Bool { ending == .exited(0) }

    /// `command exited with status 3`, `command was killed by signal 15 (SIGTERM)`, with
    /// `: stopped once the steps were over, step 5 having failed` when the run stopped it; nil when it exited with 0.
    package var failure: String? {
        ending.failure.map { text in stoppedAfterStep.map { "\(text): stopped once the steps were over, step \($0) having failed" } ?? text }
    }
}

extension CommandOutcome.Ending {
    /// How it ended, as a failure; nil for status 0.
    var failure: String? {
        switch self {
        case .exited(0): nil
        case .exited(let status): "command exited with status \(status)"
        case .signalled(let signal): "command was killed by signal \(signal)\(Self.signalNames[signal].map { " (SIG\($0))" } ?? "")"
        case .notStarted(let reason): "command could not be started: \(reason)"
        }
    }

    /// The signals that commonly end a command, by number (Linux's numbering).
    static let signalNames: [Int32: String] = [1: "HUP", 2: "INT", 3: "QUIT", 6: "ABRT", 9: "KILL", 11: "SEGV", 13: "PIPE", 15: "TERM"]
}
