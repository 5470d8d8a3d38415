import CashoutSandbox
import FoundationEssentials
import Glibc
import SandboxBank
import SandboxWire
import SandboxSupport
import SandboxRunner
import SandboxContract
import Synchronization

/// `cashout-sandbox test FILE --serve [--port P] [--exec CMD]`: the user's own app (a shop, a
/// wallet) against the sandbox. One scenario file's steps run against a sandbox on `--port`,
/// on the manual clock as `test` runs them; meanwhile the app calls it, started by other means or
/// by `--exec` (`ExternalCommand`), whose environment says where the sandbox is and the accounts'
/// credentials (`Sandbox.environment`). The run ends when the steps and the command have both
/// ended; it fails when a step fails, or when the command exits other than 0 (or is killed).
extension TestCommand {
    static func serve(_ arguments: Arguments) throws(UsageError) -> Int32 {
        guard arguments.positional.count == 1 else {
            throw UsageError("option '--serve' takes one scenario file with steps, "
                             + (arguments.positional.isEmpty
                                 ? "got none" : "got \(arguments.positional.count): \(arguments.positional.joined(separator: " "))"))
        }
        if arguments.has("filter") { throw UsageError("option '--filter' cannot be used with '--serve' (it runs the one file given)") }
        let file = try ScenarioFiles.file(arguments.positional[0])
        let timelinePage = arguments.value("timeline")
        let port = try ServeCommand.port(arguments)
        let allowedHosts = try ServeCommand.allowedHosts(arguments)
        let (quietPeriod, quietLimit, grace) = try waiting(arguments)
        if arguments.has("grace"), !arguments.has("exec") {
            throw UsageError("option '--grace' needs '--exec' (it is how long a stopped command may take)")
        }
        let scenario: Scenario
        do {
            scenario = try ScenarioLoader.load(file: file, vocabulary: Sandbox.standardVocabulary)
        } catch {
            return report([ScenarioResult(unloadable: error)], junit: arguments.value("junit"))
        }
        guard !scenario.steps.isEmpty else {
            throw UsageError("\(file) has no steps: '--serve' runs the steps of one scenario file (a file needs \"steps\" to be a test)")
        }

        // As `serve` does: the signals are taken by sigwait (`stopOnSignal`), so every thread
        // started from here on must have them blocked.
        SignalWaiter.blockTerminationSignals()
        let command = arguments.value("exec").map { ExternalCommand($0) }
        let directory = command == nil ? nil : RunDirectory()
        defer { directory?.remove() }
        stopOnSignal(stopping: command == nil ? "" : " the command") {
            command?.stop()
            directory?.remove()
        }
        // As many event-loop threads as `serve` has: the app may call concurrently.
        var serving = ScenarioRunner.Serving(
            port: port, host: arguments.value("host") ?? "127.0.0.1", allowedHosts: allowedHosts, threads: Sandbox.Configuration().server.threads,
            quietPeriod: quietPeriod, quietLimit: quietLimit,
            beside: { sandbox in
                StandardOutput.writeLine("serving \(scenario.name) on \(sandbox.baseURL.absoluteString)")
                return command?.run(environment: commandEnvironment(sandbox, runDirectory: directory))
            },
            // A driver waiting for a payout that never came would wait for ever: a failed run stops it once its steps are over.
            stepFailed: stopper(command, grace: grace),
            // Nothing the command started outlives the run, nor what it kept in its folder.
            ended: {
                command?.stop(grace: grace)
                directory?.remove()
            })
        // A failure names its cashouts' timelines; --timeline asks for the page of any run.
        serving.timeline = timelinePage == nil ? .onFailure : .always
        let junit = arguments.value("junit")
        // With --timeline, the run's record beside its page (`show`), written as the run ends.
        let examine = timelinePage.map { recording(file, beside: $0) }
        @Sendable func finish(_ result: ScenarioResult) -> Int32 {
            var status = report([result], junit: junit)
            if let timelinePage, let timeline = result.timeline, !TimelineFiles.write(timeline, page: timelinePage) { status = 1 }
            return recordLost.load(ordering: .acquiring) ? 1 : status
        }
        if arguments.has("keep") {
            // Reported as the run ended, then its sandbox goes on serving its end state (the dashboard) until a signal,
            // which ends the command with the run's status.
            serving.kept = { sandbox, result in
                keptStatus.store(finish(result), ordering: .releasing)
                StandardOutput.writeLine("kept: the run's sandbox, as it ended, at \(sandbox.baseURL.absoluteString)/ (the dashboard); "
                                         + "Ctrl-C ends it")
                while true { OSThread.sleep(nanoseconds: 3_600_000_000_000) }
            }
        }
        let result: ScenarioResult
        do {
            result = try ScenarioRunner.run(scenario, serving: serving, examine: examine)
        } catch {
            ServeCommand.printStartFailure(error)
            return 1
        }
        let status = finish(result)
        return interrupted.load(ordering: .acquiring) ? 1 : status
    }

    /// What writes the record of a run of the scenario `file` beside the timeline's `page` (`show`'s NAME.run), as the run
    /// ends (`ScenarioRunner.run`'s `examine`).
    private static func recording(_ file: String, beside page: String) -> @Sendable (Sandbox, Bool) -> [Timeline.Finding] {
        { sandbox, _ in
            var scenario = JSON.null
            if let data = FileManager.default.contents(atPath: file), let json = try? JSON.parse(Array(data)) { scenario = json }
            let record = sandbox.runRecord(scenario: scenario).serializedString() + "\n"
            if !CLI.write(record, to: ShowCommand.record(beside: page)) { recordLost.store(true, ordering: .releasing) }
            return []
        }
    }

    /// With `--timeline`, whether the run's record could not be written.
    private static let recordLost = Atomic(false)

    /// With `--keep`, the run's status once it was reported: a signal while the sandbox is kept ends with it.
    private static let keptStatus = Atomic<Int32>(-1)

    /// What stops `command` when a step fails; nil without one.
    private static func stopper(_ command: ExternalCommand?, grace: Duration) -> (@Sendable (Int) -> Void)? {
        guard let command else { return nil }
        return { _ in command.stop(grace: grace) }
    }

    /// `--quiet-period` (nil for 0: no wait), `--quiet-limit` and `--grace`, or their defaults.
    static func waiting(_ arguments: Arguments) throws(UsageError) -> (quietPeriod: Duration?, quietLimit: Duration, grace: Duration) {
        let quietPeriod = try duration(arguments, "quiet-period", default: ScenarioRunner.Serving.defaultQuietPeriod, upTo: .seconds(60))
        return (quietPeriod == .zero ? nil : quietPeriod,
                try duration(arguments, "quiet-limit", default: ScenarioRunner.Serving.defaultQuietLimit, upTo: .seconds(3600)),
                try duration(arguments, "grace", default: .seconds(10), upTo: .seconds(3600)))
    }

    /// What `--exec`'s command gets besides our own environment: the sandbox's
    /// (`Sandbox.environment`), where to ask whether the steps are over, and the run's own folder.
    static func commandEnvironment(_ sandbox: Sandbox, runDirectory: RunDirectory?) -> [(name: String, value: String)] {
        sandbox.environment + [(suiteVariable, "\(sandbox.baseURL.absoluteString)/sandbox/suite")]
            + (runDirectory?.path.map { [(RunDirectory.variable, $0)] } ?? [])
    }

    /// `--NAME DURATION` (`500ms`, `10s`), from 0 to `maximum`; `fallback` when not given.
    static func duration(_ arguments: Arguments, _ name: String, default fallback: Duration, upTo maximum: Duration)
        throws(UsageError) -> Duration {
        try arguments.value(name, default: fallback, expected: "a duration such as 500ms or 10s, at most \(DurationText.format(maximum))") {
            ($0 == "0" ? .zero : DurationText.parse($0)).flatMap { $0 <= maximum ? $0 : nil }
        }
    }

    /// Set once SIGINT or SIGTERM came: the run fails, whatever the command and the steps did.
    private static let interrupted = Atomic(false)

    /// On the first SIGINT or SIGTERM: `stop`s the command (SIGTERM to its process group, then
    /// SIGKILL 5 s later) and exits 1, without a report unless the run ended meanwhile, since a
    /// step may be waiting for a request that will never come. `what` ends "stopping".
    static func stopOnSignal(stopping what: String, _ stop: @escaping @Sendable () -> Void) {
        OSThread.detach {
            let signal = SignalWaiter.wait()
            // The run was over, its sandbox kept (--keep): the signal ends it, as the run ended.
            let kept = keptStatus.load(ordering: .acquiring)
            if kept >= 0 {
                stop()
                _exit(kept)
            }
            interrupted.store(true, ordering: .releasing)
            CLI.printError("received \(signal == SIGINT ? "SIGINT" : "SIGTERM"), stopping\(what)")
            stop()
            // Not exit(): the other threads are still running, and nothing is left to flush.
            _exit(1)
        }
    }
}
