import CashoutSandbox
import SandboxHTTP
import SandboxScenario

/// `cashout-sandbox validate FILE...`: checks scenario files without running them. Prints
/// `ok FILE` or the error (file, JSON path, what was expected) for each; exit 1 if any is invalid.
enum ValidateCommand: Command {
    static let name = "validate"
    static let options: [Arguments.Option] = [.flag("help", "Show this help")]

    static let usage = """
        Usage: cashout-sandbox validate FILE...

        Checks scenario files without running them: prints "ok FILE" for each valid one, and for
        the others the file, the JSON path and what was expected there. Exits 1 if any is invalid.
        """

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        guard !arguments.positional.isEmpty else { throw UsageError("validate needs at least one FILE") }
        var invalid = 0
        for file in arguments.positional {
            if file == "schema.json" || file.hasSuffix("/schema.json") {
                StandardOutput.writeLine("skipped \(file) (the JSON Schema of scenario files, not a scenario)")
                continue
            }
            do {
                _ = try ScenarioLoader.load(file: file, vocabulary: Sandbox.standardVocabulary)
                StandardOutput.writeLine("ok \(file)")
            } catch {
                StandardOutput.writeLine("error: \(error)")
                invalid += 1
            }
        }
        return invalid == 0 ? 0 : 1
    }
}
