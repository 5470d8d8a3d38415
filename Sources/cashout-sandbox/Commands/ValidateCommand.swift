import CashoutSandbox
import SandboxWire
import SandboxContract

/// `cashout-sandbox validate [PATH...]`: checks scenario files without running them, the files
/// and folders `test` takes. Prints `ok FILE`, or each of its errors (file, JSON path, what was
/// expected) as compilers do; exit 1 if any is invalid.
enum ValidateCommand: Command {
    static let name = "validate"
    static let summary = "Check scenario files without running them"
    static let discussion = """
        Checks scenario files without running them, as 'test' and 'serve' load them (steps that name \
        a cashout no earlier step named with "as" included): prints "ok FILE" for each valid one, and \
        for the others the file, the JSON path and what was expected there. Exits 1 if any is invalid.
        """
    static let options: [Arguments.Option] = []
    static let positional: Positional? = TestCommand.positional

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        let paths = arguments.positional.isEmpty ? ["scenarios"] : arguments.positional
        var invalid = 0
        for file in try ScenarioFiles.find(paths) {
            if file == "schema.json" || file.hasSuffix("/schema.json") {
                StandardOutput.writeLine("skipped \(file) (the JSON Schema of scenario files, not a scenario)")
                continue
            }
            do {
                _ = try ScenarioLoader.load(file: file, vocabulary: Sandbox.standardVocabulary)
                StandardOutput.writeLine("ok \(file)")
            } catch {
                for line in error.description.split(separator: "\n") { StandardOutput.writeLine("error: \(line)") }  // each error of the file
                invalid += 1
            }
        }
        return invalid == 0 ? 0 : 1
    }
}
