import SandboxWire
import SandboxContract

/// `cashout-sandbox completions bash|zsh|fish`: a completion script for that shell, made from the
/// commands' option tables (the ones the parser reads), so it offers what the parser takes.
enum CompletionsCommand: Command {
    static let name = "completions"
    static let summary = "Print a completion script for bash, zsh or fish"
    static let discussion = """
        Prints a script that completes cashout-sandbox's commands, options and their values in that shell. \
        Load it for this session with 'source <(cashout-sandbox completions bash)' (zsh the same, fish: \
        'cashout-sandbox completions fish | source'), or install it: see the Running it guide.
        """
    static let options: [Arguments.Option] = []

    /// Each shell's script, by name.
    static let shells: [(name: String, script: @Sendable ([any Command.Type]) -> String)] = [
        ("bash", Completions.bash), ("zsh", Completions.zsh), ("fish", Completions.fish),
    ]

    static var positional: Positional? {
        Positional(synopsis: shells.map(\.name).joined(separator: "|"), help: "The shell", completion: .words(shells.map(\.name)))
    }

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        let names = shells.map(\.name)
        guard arguments.positional.count == 1, let shell = arguments.positional.first else {
            throw UsageError("completions takes one shell: \(names.joined(separator: ", "))")
        }
        guard let script = shells.first(where: { $0.name == shell })?.script else {
            throw UsageError("unknown shell '\(shell)' (expected bash, zsh or fish)" + Suggestion.didYouMean(shell, among: names))
        }
        StandardOutput.writeLine(script(CLI.commands))
        return 0
    }
}

/// The completion scripts. Each lists, per command, its options (with `Option.common`), what each
/// option's value completes with (`Option.completion`) and what its arguments complete with.
enum Completions {
    /// A command's options, `-h, --help` and `--version` included.
    static func options(of command: any Command.Type) -> [Arguments.Option] {
        command.options + Arguments.Option.common
    }

    /// `--name` and `-h`, each option's spellings.
    static func spellings(_ option: Arguments.Option) -> [String] {
        (option.short.map { ["-\($0)"] } ?? []) + ["--\(option.name)"]
    }
}
