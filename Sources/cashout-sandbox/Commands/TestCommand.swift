import CashoutSandbox
import FoundationEssentials
import Glibc
import SandboxWire
import SandboxRunner
import SandboxContract

/// `cashout-sandbox test [PATH...] [--junit FILE] [--filter TEXT]`: runs every scenario file with
/// `steps`, each in its own sandbox, side by side. A line per scenario and one per case of it (the
/// Testing your app guide, "Cases"), then `N passed, N failed`;
/// exit 1 on any failure (a file that cannot be loaded is one), 2 when the paths and the filter
/// select no scenario with steps (as pytest has a status for "no tests collected"). With `--serve`,
/// one file's steps run against a sandbox the user's own app calls (`TestCommand+Serve`).
enum TestCommand: Command {
    static let name = "test"
    static let summary = "Run scenario files with steps as a test suite (JUnit XML with --junit)"
    static let discussion = """
        Runs every scenario file with "steps" found in PATHs, each in its own in-process sandbox on a \
        manual clock. Every step runs: one that uses what a failed step was to give is skipped, saying \
        why. Prints a line per scenario, a PASS, FAIL or SKIP line per case under it (each payout a step \
        names with "as" or a step's "case", each report check asked about, the other steps, the app) and \
        "N of M cases passed", every failure in step order, and "N passed, N failed"; --junit writes a \
        testsuite per scenario and a testcase per case. Exits 1 if any failed (a file that cannot be \
        loaded fails), 2 if no scenario with steps is selected. A file with "needs_app": true waits for \
        your app: it is skipped (SKIP) unless run with --serve.

        With --serve, one scenario file's sandbox listens on --port for your own app while its \
        steps run. --exec runs CMD with /bin/sh -c once it listens, beside the steps, with \
        $\(Sandbox.urlVariable), $\(Sandbox.appPortVariable) (a free port for your app to listen on) and \
        the accounts' credentials ($CASHOUT_SANDBOX_D24_LOGIN, ...) in its environment, its output \
        passed through, and $\(suiteVariable): GET it to learn whether the steps are running, passed or \
        failed. The run ends when both have ended; it fails if a step fails or CMD exits other than 0. \
        A failure is followed by the timeline of each cashout it names: the app's requests and their \
        answers (or the injected fault that replaced one), the bank's changes, the notifications, the \
        clock's stops, the ledger read, with virtual and real times; --timeline writes it as a page. \
        Once the steps of a failed run are over, CMD is stopped (SIGTERM, then SIGKILL after --grace). \
        SIGINT or SIGTERM stops CMD \
        (SIGTERM) and exits 1. A file's "app": {"ledger": URL} is your app's ledger, compared with the \
        bank after the last step (a mismatch fails the run).

        Before each step that moves the clock or reads the report, the run waits until the app has \
        been quiet for --quiet-period of real time (no request to a payout API, no notification \
        being delivered to it), at most --quiet-limit; a {"settle": "500ms"} step waits so \
        explicitly. Inside an advance the clock stops after each instant that notified the app (until \
        it is quiet again, or has read the payout) and after each change of a payout it polls (until \
        it has read it again), each at most --quiet-limit. After a request of the app's that a \
        scenario's fault answered (a lost answer, an error), nothing moves the clock or reads what \
        the app did or the bank holds until that request's retry came (the same operation about the \
        same, or a lookup by the app's reference), at most --quiet-limit after the last such fault. \
        An app that serves the file's "app": {"settled": URL} ({"pending": N}) is asked instead: each \
        wait ends when it says 0. --host 0.0.0.0 serves an app in another container.
        """

    /// The environment variable naming `GET /sandbox/suite` for the command `--exec` runs.
    static let suiteVariable = "CASHOUT_SANDBOX_SUITE_URL"

    static let options: [Arguments.Option] = [
        .value("junit", "FILE", "Also write the results as JUnit XML"),
        .value("filter", "TEXT", "Only scenarios whose name or file contains TEXT"),
        .flag("serve", "Run one scenario file's steps against a sandbox on --port that your own app calls meanwhile"),
        .value("port", "PORT", "With --serve: the port to listen on; 0 picks a free one (default 8080)"),
        .value("exec", "CMD", "With --serve: run CMD (/bin/sh -c) beside the steps once the sandbox listens; "
               + "it fails the run unless it exits 0"),
        .value("timeline", "FILE", "With --serve: also write the run's timeline as a page that opens in any browser (FILE.html), "
               + "and its JSON beside it (FILE.timeline.json)"),
        .flag("keep", "With --serve: once the run is over and reported, keep its sandbox serving as it ended (the dashboard, "
              + "the admin API) until Ctrl-C or SIGTERM, which ends the command with the run's status"),
        ServeCommand.hostOption("With --serve: ", default: "127.0.0.1"),
        ServeCommand.allowedHostOption,
    ] + waitingOptions(serve: "With --serve: ", exec: "With --exec: ")

    /// `--quiet-period`, `--quiet-limit` and `--grace`, which `explore` takes too; `serve` and
    /// `exec` begin their help (what they need).
    static func waitingOptions(serve: String, exec: String) -> [Arguments.Option] {
        // "With --serve: before...", or "Before..." without a prefix.
        func help(_ prefix: String, _ text: String) -> String { prefix.isEmpty ? text.prefix(1).uppercased() + text.dropFirst() : prefix + text }
        return [.value("quiet-period", "DURATION", help(serve, "before each advance, advance_to_next_event and expect_report step, "
                + "and after each instant an advance notifies the app of, wait until the app has made no request and been sent no "
                + "notification for DURATION of real time (default 200ms; 0: no wait)")),
         .value("quiet-limit", "DURATION", help(serve, "wait at most DURATION for the app to go quiet (or say it is settled), to read "
                + "a payout it polls once it changed, or to retry a request a fault answered (a settle step: its own period and DURATION "
                + "more), then go on and note it (default 10s)")),
         .value("grace", "DURATION", help(exec, "when a step fails, CMD gets SIGTERM, and SIGKILL DURATION later if still running (default 10s)"))]
    }

    /// The options that only `--serve` takes.
    static let serveOptions = ["port", "exec", "timeline", "keep", "host", "allowed-host", "quiet-period", "quiet-limit", "grace"]

    static let positional: Positional? = Positional(
        synopsis: "[PATH...]", help: "Scenario files, or folders of them (*.json but schema.json); default scenarios/",
        completion: .files)

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        if arguments.has("serve") { return try serve(arguments) }
        for option in serveOptions where arguments.has(option) { throw UsageError("option '--\(option)' needs '--serve'") }
        let paths = arguments.positional.isEmpty ? ["scenarios"] : arguments.positional
        var scenarios: [Scenario] = []
        var results: [ScenarioResult] = []
        for file in try ScenarioFiles.find(paths) {
            do {
                let scenario = try ScenarioLoader.load(file: file, vocabulary: Sandbox.standardVocabulary)
                if !scenario.steps.isEmpty { scenarios.append(scenario) }
            } catch {
                results.append(ScenarioResult(unloadable: error))
            }
        }
        let found = scenarios.count + results.count
        guard found > 0 else {
            throw UsageError("no scenario with steps in \(paths.joined(separator: ", ")) (a file needs \"steps\" to be a test)")
        }
        if let filter = arguments.value("filter") {
            scenarios = scenarios.filter { $0.name.contains(filter) || $0.file.contains(filter) }
            results = results.filter { $0.file.contains(filter) }
            guard !scenarios.isEmpty || !results.isEmpty else {
                throw UsageError("--filter '\(filter)' matches none of the \(found) scenarios with steps (it is looked for in their names and files)")
            }
        }
        // A suite that waits for an app runs beside one (--serve), not here.
        results += scenarios.filter(\.needsApp).map { scenario in
            ScenarioResult(skipped: scenario, because: "needs your app: cashout-sandbox test \(scenario.file) --serve --exec CMD")
        }
        results += ScenarioRunner.runAll(scenarios.filter { !$0.needsApp })
        return report(results, junit: arguments.value("junit"))
    }

    /// Prints each result's lines and `N passed, N failed`, and writes the JUnit report to
    /// `junit` if given; the exit status: 1 if any failed, or the report could not be written.
    static func report(_ results: [ScenarioResult], junit: String?) -> Int32 {
        for result in results {
            StandardOutput.writeLine(line(result))
            // Its cases, a line each, when it has more than one (the Testing your app guide, "Cases").
            let cases = result.cases
            if cases.count > 1 {
                for suiteCase in cases { StandardOutput.writeLine("  " + suiteCase.line.indentingLines(by: "    ")) }
                StandardOutput.writeLine("  " + result.caseTally)
            }
            // Every failure after the first, in step order (the first is the suite's line).
            for failure in result.failureTexts.dropFirst() {
                StandardOutput.writeLine("FAIL \(title(result)): \(failure.indentingLines(by: "  "))")
            }
            for line in result.foundAfterLines { StandardOutput.writeLine("  " + line) }
            // What happened to the payouts the failure names (the Testing your app guide, "Why a run failed").
            for line in result.timelineLines(realTime: true) { StandardOutput.writeLine("  " + line) }
            for note in result.notes { StandardOutput.writeLine("NOTE \(title(result)): \(note)") }
            if let command = commandLine(result) { StandardOutput.writeLine(command) }
            // Stopped once the steps of a failed run were over, it failed by them; but one that ignored SIGTERM is worth knowing of.
            if let command = result.command, command.stoppedAfterStep != nil, command.ending == .signalled(SIGKILL),
               let failure = command.failure {
                StandardOutput.writeLine("NOTE \(title(result)): \(failure) (it ignored SIGTERM for --grace): \(command.command)")
            }
        }
        let failed = results.filter { !$0.passed }.count
        let skipped = results.filter { $0.skipped != nil }.count
        if let junit, !CLI.write(JUnitReport.xml(results), to: junit) { return 1 }
        StandardOutput.writeLine("\(results.count - failed - skipped) passed, \(failed) failed" + (skipped == 0 ? "" : ", \(skipped) skipped"))
        return failed == 0 ? 0 : 1
    }

    /// `PASS name (file, N steps)`, `FAIL name (file): step N: ...`, or for a file that could not
    /// be loaded `FAIL file: path: what was expected`, the file named once, and its further errors
    /// on lines of their own, indented.
    static func line(_ result: ScenarioResult) -> String {
        if let reason = result.skipped { return "SKIP \(title(result)): \(reason)" }
        if let expected = result.expectedFailure {
            return "XFAIL \(result.name) (\(result.file)): failed as expected (\(expected.reason)): step \(expected.step): \(expected.message)"
        }
        guard let failure = result.failureText else {
            return "PASS \(result.name) (\(result.file), \(result.steps) steps\(result.ledgerSummary.map { ", \($0)" } ?? ""))"
        }
        let text = failure.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  ")
        return "FAIL \(title(result)): \(text)"
    }

    /// `FAIL name (file): command exited with status 3: CMD` for a command run beside the steps
    /// (`--exec`) that failed, whatever the steps did; nil for none, or one that exited with 0.
    static func commandLine(_ result: ScenarioResult) -> String? {
        guard let command = result.command, let failure = result.commandFailure else { return nil }
        return "FAIL \(title(result)): \(failure): \(command.command)"
    }

    /// `name (file)`, or the file alone when it is the name (a file that could not be loaded).
    private static func title(_ result: ScenarioResult) -> String {
        result.name == result.file ? result.file : "\(result.name) (\(result.file))"
    }
}
