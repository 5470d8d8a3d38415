import CashoutSandbox
import SandboxWire
import SandboxContract

/// `cashout-sandbox schema`: prints the JSON Schema of scenario files (scenarios/schema.json),
/// from the scenario format's declarations (`ScenarioFormat`) in the standard APIs.
enum SchemaCommand: Command {
    static let name = "schema"
    static let summary = "Print the JSON Schema of scenario files"
    static let discussion = """
        Prints the JSON Schema (draft 2020-12) of scenario files, as scenarios/schema.json has it: \
        every key the loader takes, in every payout API.
        """

    static let options: [Arguments.Option] = []

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        guard arguments.positional.isEmpty else { throw UsageError("schema takes no arguments") }
        StandardOutput.writeLine(ScenarioFormat.schema(Sandbox.standardVocabulary).schemaText)
        return 0
    }
}
