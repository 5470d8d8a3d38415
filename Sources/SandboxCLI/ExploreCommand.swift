import CashoutSandbox
import Foundation
import SandboxBank
import SandboxHTTP
import SandboxJSON
import SandboxRunner
import SandboxScenario
import Synchronization

/// `cashout-sandbox explore SUITE --exec CMD [--runs N] [--seed S] [--out DIR] [--junit FILE]`:
/// the suite run N times beside a fresh CMD each, each run drawing the bank's behaviour from the
/// suite's `explore` space (`Explorer`). A line per run, the first failing run of each kind shrunk
/// to a scenario file in DIR, then a summary; exit 1 when any run failed.
enum ExploreCommand: Command {
    static let name = "explore"
    static let summary = "Run a suite many times beside your app, drawing the bank's behaviour; shrink each failure to a scenario file"
    static let discussion = """
        Runs SUITE (a scenario file with steps) --runs times, each against a fresh sandbox on a free port \
        beside a fresh CMD (/bin/sh -c, with the environment of test --serve --exec). Each run draws the \
        bank's behaviour from the suite's "explore" section (or the standard space): payouts' outcomes \
        and delays, late reversals, webhook chaos and HTTP faults, by its own seed (run i has seed S+i-1, \
        so --seed S --runs 1 runs the first again: a draw depends on what it is for, never on the \
        order requests arrive in). As under test --serve, each step that moves the clock first waits \
        for the app to go quiet, the clock stops for the app inside each advance, and a failed step \
        stops CMD's process group. A run fails when a step fails, CMD exits other than 0, the app's \
        ledger (the suite's "app") disagrees with the bank, or the integration report has a finding of \
        severity error. The first failing run of each kind is written to DIR as a scenario file with \
        what it drew pinned as fixed rules (by what the app asks for, never an id it makes), shrunk to \
        those it needs to fail the same way (the same finding on the same payout, in 3 tries of 3): \
        cashout-sandbox test FILE --serve --exec CMD runs it again. Prints a line per run, then runs, \
        failures, the distinct failures and the files written; exits 1 if any run failed.
        """

    static let options: [Arguments.Option] = [
        .value("exec", "CMD", "Your app, or its driver: run with /bin/sh -c beside each run (required)"),
        .value("runs", "N", "How many runs (default 20)"),
        .value("seed", "S", "The first run's seed (default: drawn, and printed)"),
        .value("out", "DIR", "Where failing runs are written, shrunk (default explored)"),
        .value("junit", "FILE", "Also write the runs as JUnit XML, one testcase each"),
        .value("timeout", "DURATION", "The longest CMD may run in one run; then it is stopped (SIGTERM, SIGKILL after --grace) "
               + "and the run fails (default 5m)"),
    ] + TestCommand.waitingOptions(serve: "", exec: "")

    static let positional: Positional? = Positional(synopsis: "SUITE", help: "A scenario file with steps", completion: .files)

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        guard arguments.positional.count == 1 else {
            throw UsageError("explore takes one scenario file with steps, "
                             + (arguments.positional.isEmpty
                                 ? "got none" : "got \(arguments.positional.count): \(arguments.positional.joined(separator: " "))"))
        }
        guard let command = arguments.value("exec") else {
            throw UsageError("option '--exec CMD' is required: explore runs your app beside each run")
        }
        let runs = try arguments.value("runs", default: 20, expected: "a whole number from 1 to 10000") {
            Int($0).flatMap { (1 ... 10000).contains($0) ? $0 : nil }
        }
        let seed = try arguments.value("seed", default: UInt64.random(in: 1 ... 999_999), expected: "a whole number ≥ 0") { UInt64($0) }
        let directory = arguments.value("out") ?? "explored"
        let file = try ScenarioFiles.file(arguments.positional[0])

        let (quietPeriod, quietLimit, grace) = try TestCommand.waiting(arguments)
        let timeout = try TestCommand.duration(arguments, "timeout", default: .seconds(300), upTo: .seconds(86400))

        // As `test --serve`: the signals are taken by sigwait, so every thread started from here
        // on must have them blocked. Each run starts CMD afresh; a failed step, or a signal, stops
        // the run's own.
        SignalWaiter.blockTerminationSignals()
        let current = Mutex<ExternalCommand?>(nil)
        let timedOut = Mutex(false)  // the current run's CMD outlived --timeout
        TestCommand.stopOnSignal(stopping: " the command") { current.withLock { $0 }?.stop() }
        let serving = ScenarioRunner.Serving(
            port: 0, threads: Sandbox.Configuration().server.threads, quietPeriod: quietPeriod, quietLimit: quietLimit,
            beside: { sandbox in
                let run = ExternalCommand(command, echo: false)
                current.withLock { $0 = run }
                timedOut.withLock { $0 = false }
                let watchdog = DispatchWorkItem {
                    guard run.isRunning else { return }
                    timedOut.withLock { $0 = true }
                    run.stop(grace: grace)
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(clamping: timeout.wholeMilliseconds)), execute: watchdog)
                defer { watchdog.cancel() }
                return run.run(environment: TestCommand.commandEnvironment(sandbox))
            },
            stepFailed: { _ in current.withLock { $0 }?.stop(grace: grace) },
            // Nothing a run's CMD started outlives the run.
            ended: { current.withLock { $0 }?.stop(grace: grace) })
        let explorer: Explorer
        do {
            explorer = try Explorer(file: file, vocabulary: Sandbox.standardVocabulary, serving: serving)
        } catch {
            return TestCommand.report([ScenarioResult(unloadable: error)], junit: arguments.value("junit"))
        }
        StandardOutput.writeLine("exploring \(explorer.name) (\(file)): \(runs) run\(runs == 1 ? "" : "s") from seed \(seed)")
        var results: [Explorer.Run] = []
        var written: [String: String] = [:]  // failure shrunk for → file
        for number in 1 ... runs {
            let run = explorer.run(number: number, seed: seed &+ UInt64(number - 1))
            results.append(run)
            let verdict = run.passed ? "PASS" + (run.result.ledgerSummary.map { " (\($0))" } ?? "") : "FAIL \(run.failures.joined(separator: ", "))"
            StandardOutput.writeLine("run \(number) (seed \(run.seed)): \(verdict)")
            guard let target = run.failures.first else { continue }
            for message in [run.result.failureText, run.result.ledgerFailure].compactMap({ $0 }) {
                StandardOutput.writeLine("  " + message.replacingOccurrences(of: "\n", with: "\n  "))
            }
            let outlived = timedOut.withLock { $0 }
            if outlived {
                StandardOutput.writeLine("  CMD was still running \(DurationText.format(timeout)) after it started (--timeout): stopped")
            }
            if let command = run.result.command, !command.passed, command.stoppedAfterStep == nil {
                let output = command.output
                let tail = output.split(separator: "\n").suffix(10).map { "  | \($0)" }
                if !tail.isEmpty { StandardOutput.writeLine(tail.joined(separator: "\n")) }
            }
            guard written[target] == nil else { continue }
            // Each try of a shrink would wait out the timeout again: a run CMD outlived is written as
            // it drew; so is one whose ledger could not be read, which no draw of the bank's brings about.
            let reproduction = outlived || target == "ledger" ? explorer.unshrunk(run) : explorer.reproduce(run)
            let path = "\(directory)/\(stem(file))-seed\(run.seed).json"
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try explorer.text(reproduction.json).write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                CLI.printError("error: cannot write \(path): \(error.localizedDescription)")
                return 1
            }
            written[target] = path
            StandardOutput.writeLine(reproduction.reproduced
                ? "  shrunk \(reproduction.drawn) drawn rule\(reproduction.drawn == 1 ? "" : "s") to \(reproduction.kept), "
                    + "still failing with \(target): \(path)"
                : "  written unshrunk, all \(reproduction.drawn) drawn rules: \(path)"
                    + (outlived ? "" : target == "ledger" ? " (the app's ledger could not be read: fix that first, whatever the bank drew)"
                        : " (with them fixed, \(target) did not show again: it may depend on timing)"))
            for note in reproduction.notes { StandardOutput.writeLine("  note: \(note)") }
        }
        let failed = results.filter { !$0.passed }
        let distinct = Array(Set(failed.compactMap(\.failures.first))).sorted()
        StandardOutput.writeLine("\(runs) run\(runs == 1 ? "" : "s"), \(failed.count) failed"
                                 + (distinct.isEmpty ? "" : ", \(distinct.count) distinct: \(distinct.joined(separator: ", "))"))
        for target in distinct { if let path = written[target] { StandardOutput.writeLine("wrote \(path) (\(target))") } }
        if let junit = arguments.value("junit") {
            do {
                try JUnitReport.xml(results.map(\.result), suite: "cashout-sandbox explore").write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                CLI.printError("error: cannot write \(junit): \(error.localizedDescription)")
                return 1
            }
        }
        return failed.isEmpty ? 0 : 1
    }

    /// The file's name without its folder and `.json`.
    private static func stem(_ file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        return base.hasSuffix(".json") ? String(base.dropLast(5)) : base
    }
}
