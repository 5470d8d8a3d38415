import CashoutSandbox
import Glibc
import SandboxHTTP

/// The `cashout-sandbox` command line.
///
/// Exit status: 0 success, 1 the command failed (e.g. the port is taken), 2 the command line is
/// wrong (unknown command or option, bad value).
public enum CLI {
    static let usage = """
        cashout-sandbox \(Sandbox.version): a local sandbox for payout (cashout) APIs

        Usage: cashout-sandbox <command> [options]

        Commands:
          serve      Run the sandbox's HTTP server until interrupted
          sign       Print the Payload-Signature of a request body (or a notification control)
          validate   Check scenario files without running them
          test       Run scenario files with steps as a test suite (JUnit XML with --junit)
          openapi    Print the OpenAPI 3.1 document
          postman    Print the Postman collection (or, with --environment, its environment)
          help       Show this help, or a command's: cashout-sandbox help serve

        Options:
          --help     Show help
          --version  Show the version
        """

    static let commands: [any Command.Type] = [
        ServeCommand.self, SignCommand.self, ValidateCommand.self, TestCommand.self, OpenAPICommand.self, PostmanCommand.self,
    ]

    /// Runs the command line `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        do {
            return try dispatch(arguments)
        } catch {
            printError("error: \(error.message)")
            printError("Run 'cashout-sandbox --help' for usage.")
            return 2
        }
    }

    private static func dispatch(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard let command = arguments.first else {
            printError(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "--help", "-h":
            StandardOutput.writeLine(usage)
            return 0
        case "help":
            StandardOutput.writeLine(commands.first { $0.name == rest.first }?.usage ?? usage)
            return 0
        case "--version":
            StandardOutput.writeLine("cashout-sandbox \(Sandbox.version)")
            return 0
        case let name:
            guard let command = commands.first(where: { $0.name == name }) else { throw UsageError("unknown command '\(name)'") }
            let arguments = try Arguments(rest, options: command.options, command: name)
            if arguments.has("help") {
                StandardOutput.writeLine(command.usage)
                return 0
            }
            return try command.run(arguments)
        }
    }

    /// Writes a line to standard error.
    static func printError(_ text: String) {
        let line = Array((text + "\n").utf8)
        line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }
}

