import CashoutSandbox
import FoundationEssentials
import SandboxBank
import SandboxWire
import SandboxSupport
import SandboxRunner
import SandboxContract
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
        for the app to go quiet (or to say it is settled), the clock stops for the app inside each advance, every step runs, \
        and a failed run stops CMD's process group once its steps are over. A run fails when a step fails, CMD exits other than 0, the app's \
        ledger (the suite's "app") disagrees with the bank, or the integration report has a finding of \
        severity error. The first failing run of each kind is written to DIR as a scenario file with \
        what it drew pinned as fixed rules (by what the app asks for, never an id it makes), shrunk to \
        those it needs to fail the same way (the same finding on the same payout, in 3 tries of 3): \
        cashout-sandbox test FILE --serve --exec CMD runs it again. Prints a line per run, then runs, \
        failures, the distinct failures and the files written; exits 1 if any run failed. --jobs N runs \
        N at once, each with its own sandbox, CMD and CASHOUT_SANDBOX_RUN_DIR, and prints what one job \
        prints. --shard K/N runs job K of a CI matrix's share; explore --merge DIR... merges the shards.
        """

    static let options: [Arguments.Option] = [
        .value("exec", "CMD", "Your app, or its driver: run with /bin/sh -c beside each run (required)"),
        .value("runs", "N", "How many runs (default 20)"),
        .value("seed", "S", "The first run's seed (default: drawn, and printed)"),
        .value("jobs", "N", "How many runs at once, each with its own sandbox, CMD and CASHOUT_SANDBOX_RUN_DIR; the output is the "
               + "same as with 1 (default: four times the cores it may use, as its cgroup's CPU quota allows, fewer where the memory "
               + "available is under 256 MB a job, at most 16)"),
        .value("shard", "K/N", "Run job K of N's share of the runs (K, K+N, K+2N...; needs --seed), for a CI matrix, and write "
               + "DIR/explore-shard-K-of-N.json for --merge"),
        .flag("merge", "Instead of running: merge the shards' DIRs given as arguments, print one summary and copy one file per "
              + "distinct failure to --out"),
        .value("out", "DIR", "Where failing runs are written, shrunk (default explored)"),
        .value("junit", "FILE", "Also write the runs as JUnit XML, a testsuite each and a testcase per case"),
        .value("timeout", "DURATION", "The longest CMD may run in one run; then it is stopped (SIGTERM, SIGKILL after --grace) "
               + "and the run fails (default 5m)"),
    ] + TestCommand.waitingOptions(serve: "", exec: "")

    static let positional: Positional? = Positional(synopsis: "SUITE", help: "A scenario file with steps (with --merge: the shards' DIRs)",
                                                    completion: .files)

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        if arguments.has("merge") { return try merge(arguments) }
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
        let shard = try Shard(arguments)
        let seed = try arguments.value("seed", default: UInt64.random(in: 1 ... 999_999), expected: "a whole number ≥ 0") { UInt64($0) }
        let jobs = try arguments.value("jobs", default: ExploreJob.defaultCount(), expected: "a whole number from 1 to 64") {
            Int($0).flatMap { (1 ... 64).contains($0) ? $0 : nil }
        }
        let directory = arguments.value("out") ?? "explored"
        let file = try ScenarioFiles.file(arguments.positional[0])

        let (quietPeriod, quietLimit, grace) = try TestCommand.waiting(arguments)
        let timeout = try TestCommand.duration(arguments, "timeout", default: .seconds(300), upTo: .seconds(86400))

        // As `test --serve`: the signals are taken by sigwait, so every thread started from here
        // on must have them blocked. Each run starts CMD afresh; a failed run's end, or a signal, stops
        // the run's own.
        SignalWaiter.blockTerminationSignals()
        let numbers = shard?.numbers(of: runs) ?? Array(1 ... runs)
        let slots = (0 ..< jobs).map { _ in ExploreJob(command: command, timeout: timeout, grace: grace) }
        TestCommand.stopOnSignal(stopping: " the command") { ExploreJob.stopAll(slots) }
        let explorer: Explorer
        do {
            let pool = ServingPool(slots.map { $0.serving(quietPeriod: quietPeriod, quietLimit: quietLimit) })
            explorer = try Explorer(file: file, vocabulary: Sandbox.standardVocabulary, pool: pool)
        } catch {
            return TestCommand.report([ScenarioResult(unloadable: error)], junit: arguments.value("junit"))
        }
        StandardOutput.writeLine("exploring \(explorer.name) (\(file)): \(runs) run\(runs == 1 ? "" : "s") from seed \(seed)"
                                 + (shard.map { ", shard \($0): runs \(Self.list(numbers))" } ?? ""))
        var results: [Explorer.Run] = []
        var written: [String: String] = [:]  // failure shrunk for → file
        var failedWriting = false
        explorer.runs(numbers, seed: seed) { run in
            // Kept for the summary and JUnit: its timeline without the bodies, which only its page shows, and no record.
            var kept = run
            kept.result.timeline = run.result.timeline?.withoutDetails
            kept.record = nil
            results.append(kept)
            guard let target = report(run, timeout: timeout), written[target] == nil else { return true }
            // Each try of a shrink would wait out the timeout again: a run CMD outlived is written as
            // it drew; so is one whose ledger could not be read, which no draw of the bank's brings about.
            let outlived = run.result.command?.timedOut == true
            let reproduction = outlived || target == "ledger" ? explorer.unshrunk(run) : explorer.reproduce(run)
            let path = "\(directory)/\(stem(file))-seed\(run.seed).json"
            guard CLI.write(explorer.text(reproduction.json), to: path) else {
                failedWriting = true
                return false
            }
            // The run as it went, beside the file that makes it again: its timeline's page, and its record (`show`).
            if let timeline = run.result.timeline, !TimelineFiles.write(timeline, page: TimelineFiles.page(beside: path), record: run.record) {
                failedWriting = true
                return false
            }
            written[target] = path
            StandardOutput.writeLine(reproduction.reproduced
                ? "  shrunk \(reproduction.drawn) drawn rule\(reproduction.drawn == 1 ? "" : "s") to \(reproduction.kept), "
                    + "still failing with \(target): \(path)"
                : "  written unshrunk, all \(reproduction.drawn) drawn rules: \(path)"
                    + (outlived ? "" : target == "ledger" ? " (the app's ledger could not be read: fix that first, whatever the bank drew)"
                        : " (with them fixed, \(target) did not show again: it may depend on timing)"))
            return true
        }
        if failedWriting { return 1 }
        let summary = Summary(results: results, written: written)
        summary.print()
        if let junit = arguments.value("junit"),
           !CLI.write(JUnitReport.xml(results.map(\.result), suite: "cashout-sandbox explore"), to: junit) { return 1 }
        if let shard, !CLI.write(shard.record(of: summary, suite: file, seed: seed, runs: runs), to: "\(directory)/\(shard.fileName)") { return 1 }
        return summary.failed == 0 ? 0 : 1
    }

    /// Prints `run`'s line, and what failed; the failure a file is written for (nil: it passed).
    private static func report(_ run: Explorer.Run, timeout: Duration) -> String? {
        let verdict = run.passed ? "PASS" + (run.result.ledgerSummary.map { " (\($0))" } ?? "") : "FAIL \(run.failures.joined(separator: ", "))"
        StandardOutput.writeLine("run \(run.number) (seed \(run.seed)): \(verdict)")
        guard let target = run.failures.first else { return nil }
        for line in run.lines { StandardOutput.writeLine("  " + line) }
        if run.result.command?.timedOut == true {
            StandardOutput.writeLine("  CMD was still running \(DurationText.format(timeout)) after it started (--timeout): stopped")
        }
        if let command = run.result.command, !command.passed, command.stoppedAfterStep == nil {
            let tail = command.output.split(separator: "\n").suffix(10).map { "  | \($0)" }
            if !tail.isEmpty { StandardOutput.writeLine(tail.joined(separator: "\n")) }
        }
        return target
    }

    /// The runs' last lines: how many failed, the distinct failures and the files written for them.
    struct Summary {
        /// Each run's number and failures (none: it passed), in run order.
        var runs: [(number: Int, failures: [String])]
        /// The file written for each distinct failure (the first failing run's of each).
        var written: [String: String]

        init(runs: [(number: Int, failures: [String])], written: [String: String]) {
            self.runs = runs
            self.written = written
        }

        init(results: [Explorer.Run], written: [String: String]) {
            self.init(runs: results.map { ($0.number, $0.failures) }, written: written)
        }

        var failed: Int { runs.count { !$0.failures.isEmpty } }
        var distinct: [String] { Set(runs.compactMap(\.failures.first)).sorted() }

        func print() {
            let distinct = distinct
            StandardOutput.writeLine("\(runs.count) run\(runs.count == 1 ? "" : "s"), \(failed) failed"
                                     + (distinct.isEmpty ? "" : ", \(distinct.count) distinct: \(distinct.joined(separator: ", "))"))
            for target in distinct { if let path = written[target] { StandardOutput.writeLine("wrote \(path) (\(target))") } }
        }
    }

    /// `2, 6, 10`, or `2, 6, 10 ... 98` past 8 numbers; `none`.
    private static func list(_ numbers: [Int]) -> String {
        numbers.isEmpty ? "none" : numbers.count <= 8 ? numbers.map(String.init).joined(separator: ", ")
            : numbers.prefix(3).map(String.init).joined(separator: ", ") + " ... \(numbers.last!)"
    }

    /// The file's name without its folder and `.json`.
    private static func stem(_ file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        return base.hasSuffix(".json") ? String(base.dropLast(5)) : base
    }
}
