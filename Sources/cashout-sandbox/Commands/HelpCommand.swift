import SandboxWire

/// `cashout-sandbox help [COMMAND]`: the help of the program, or of one command (the same as
/// `cashout-sandbox COMMAND --help`).
enum HelpCommand: Command {
    static let name = "help"
    static let summary = "Show this help, or a command's: cashout-sandbox help serve"
    static let discussion = "Shows the help of cashout-sandbox, or of COMMAND (the same as 'cashout-sandbox COMMAND --help')."
    static let options: [Arguments.Option] = []
    static var positional: Positional? {
        Positional(synopsis: "[COMMAND]", help: "A command: " + CLI.names.joined(separator: ", "),
                   completion: .words(CLI.names))
    }

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        guard arguments.positional.count <= 1 else { throw UsageError("help takes one COMMAND") }
        guard let name = arguments.positional.first else {
            StandardOutput.writeLine(HelpText.root)
            return 0
        }
        guard let command = CLI.command(named: name) else { throw UsageError(CLI.unknownCommand(name)) }
        StandardOutput.writeLine(command.usage)
        return 0
    }
}
