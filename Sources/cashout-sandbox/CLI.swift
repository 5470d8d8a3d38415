import Glibc
import SandboxWire
import SandboxContract

/// The `cashout-sandbox` command line.
///
/// Exit status (`HelpText.exitStatuses`): 0 success; 1 a failure (a test failed, a scenario file
/// is invalid, the server could not start, a report has an error finding); 2 the command line
/// cannot be run as written (unknown command or option, bad value, a file or folder that is not
/// there, a `--state-dir` that cannot be used, a sandbox URL that answers no report).
enum CLI {
    /// Every subcommand, in the order the help lists them.
    static let commands: [any Command.Type] = [
        ServeCommand.self, SignCommand.self, ValidateCommand.self, TestCommand.self, ExploreCommand.self, ShowCommand.self, ReportCommand.self,
        OpenAPICommand.self,
        SchemaCommand.self,
        PostmanCommand.self, CompletionsCommand.self, HelpCommand.self,
    ]

    /// The commands' names.
    static var names: [String] { commands.map { $0.name } }

    /// The subcommand `name` selects.
    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    /// Runs the command line `arguments` (without the program name) and returns the exit status.
    ///
    /// - Parameters:
    ///   - arguments: The command line without the program name: `["serve", "--port", "8080"]`.
    /// - Returns: The exit status: 0 success, 1 a failure, 2 a command line that cannot be run as written (see ``CLI``).
    static func run(_ arguments: [String]) -> Int32 {
        let command = arguments.first.flatMap(command(named:))
        do {
            return try dispatch(arguments, command)
        } catch {
            printError("error: \(error.message)")
            printError("See 'cashout-sandbox\(command.map { " \($0.name)" } ?? "") --help'.")
            return 2
        }
    }

    private static func dispatch(_ words: [String], _ command: (any Command.Type)?) throws(UsageError) -> Int32 {
        guard let first = words.first else {
            printError(HelpText.root)
            return 2
        }
        guard let command else {
            switch first {
            case "-h", "--help": StandardOutput.writeLine(HelpText.root)
            case "--version": StandardOutput.writeLine(HelpText.version)
            default: throw UsageError(unknownCommand(first))
            }
            return 0
        }
        let arguments = try Arguments(Array(words.dropFirst()), options: command.options, command: command.name)
        if arguments.has("help") {
            StandardOutput.writeLine(command.usage)
            return 0
        }
        if arguments.has("version") {
            StandardOutput.writeLine(HelpText.version)
            return 0
        }
        return try command.run(arguments)
    }

    /// Says that `word` is no command, and which one was meant: the closest command's name, or for
    /// an option the commands that take it (`--port` is `serve`'s).
    static func unknownCommand(_ word: String) -> String {
        guard word.hasPrefix("-") else {
            return "unknown command '\(word)'" + Suggestion.didYouMean(word, among: names)
        }
        let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
        let owners = commands.filter { command in command.options.map { "--\($0.name)" }.contains(name) }
        guard !owners.isEmpty else {
            return "unknown option '\(name)'" + Suggestion.didYouMean(name, among: Arguments.Option.common.map { "--\($0.name)" })
        }
        return "unknown option '\(name)'; did you mean " + owners.map { "'cashout-sandbox \($0.name) \(name)'" }.joined(separator: " or ") + "?"
    }

    /// Writes a line to standard error.
    static func printError(_ text: String) {
        writeError(Array((text + "\n").utf8))
    }

    /// Writes all of `bytes` to standard error (as much as it takes).
    static func writeError(_ bytes: [UInt8]) {
        StandardOutput.writeError(bytes)
    }
}
