import CashoutSandbox
import Foundation
import SandboxHTTP
import SandboxRunner
import SandboxScenario

/// `cashout-sandbox test [PATH...] [--junit FILE] [--filter TEXT]`: runs every scenario file with
/// `steps`, each in its own sandbox, side by side. One line per scenario, then `N passed, N failed`;
/// exit 1 on any failure (an invalid file is a failure).
enum TestCommand: Command {
    static let name = "test"

    static let options: [Arguments.Option] = [
        .value("junit", "FILE", "Also write the results as JUnit XML"),
        .value("filter", "TEXT", "Only scenarios whose name or file contains TEXT"),
        .flag("help", "Show this help"),
    ]

    static let usage = """
        Usage: cashout-sandbox test [PATH...] [--junit FILE] [--filter TEXT]

        Runs every scenario file with "steps" found in PATHs (files, or folders of *.json; default
        scenarios/), each in its own in-process sandbox on a manual clock. Prints one line per
        scenario and "N passed, N failed"; exits 1 if any failed.

        Options:
        \(Arguments.help(options))
        """

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        let files = try scenarioFiles(arguments.positional.isEmpty ? ["scenarios"] : arguments.positional)
        var scenarios: [Scenario] = []
        var results: [ScenarioResult] = []
        for file in files {
            do {
                let scenario = try ScenarioLoader.load(file: file, vocabulary: Sandbox.standardVocabulary)
                if !scenario.steps.isEmpty { scenarios.append(scenario) }
            } catch {
                results.append(ScenarioResult(name: file, file: file, failure: (0, "\(error)"), steps: 0, seconds: 0))
            }
        }
        if let filter = arguments.value("filter") {
            scenarios = scenarios.filter { $0.name.contains(filter) || $0.file.contains(filter) }
            results = results.filter { $0.file.contains(filter) }
        }
        results += ScenarioRunner.runAll(scenarios)
        for result in results {
            if let failure = result.failure {
                StandardOutput.writeLine("FAIL \(result.name) (\(result.file)): step \(failure.step): \(failure.message)")
            } else if let expected = result.expectedFailure {
                StandardOutput.writeLine("XFAIL \(result.name) (\(result.file)): failed as expected (\(expected.reason)): step \(expected.step): \(expected.message)")
            } else {
                StandardOutput.writeLine("PASS \(result.name) (\(result.file), \(result.steps) steps)")
            }
        }
        let failed = results.filter { !$0.passed }.count
        if let junit = arguments.value("junit") {
            do {
                try JUnitReport.xml(results).write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                CLI.printError("error: cannot write \(junit): \(error.localizedDescription)")
                return 1
            }
        }
        StandardOutput.writeLine("\(results.count - failed) passed, \(failed) failed")
        if results.isEmpty {
            CLI.printError("error: no scenario with steps to run (a file needs \"steps\" to be a test)")
            return 1
        }
        return failed == 0 ? 0 : 1
    }

    /// The `.json` files named or found in folders (not `schema.json`), sorted.
    private static func scenarioFiles(_ paths: [String]) throws(UsageError) -> [String] {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw UsageError("no such file or folder: \(path)")
            }
            if isFolder.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
                files += names.filter { $0.hasSuffix(".json") && $0 != "schema.json" }.sorted().map { "\(folder)/\($0)" }
            } else {
                files.append(path)
            }
        }
        return files
    }
}
