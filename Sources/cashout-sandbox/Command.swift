/// A `cashout-sandbox` subcommand. `CLI` reads its options, answers `-h`/`--help` with its usage
/// and `--version`, and hands it the parsed arguments. Its help, its usage line and the shell
/// completions are all made from what it declares here.
protocol Command: Sendable {
    /// The word that selects it, e.g. `serve`.
    static var name: String { get }
    /// One line for the list of commands.
    static var summary: String { get }
    /// What it does, for its help (wrapped at 80 columns there).
    static var discussion: String { get }
    /// Its options, besides `Arguments.Option.common`.
    static var options: [Arguments.Option] { get }
    /// What it takes besides options, if anything.
    static var positional: Positional? { get }
    static func run(_ arguments: Arguments) throws(UsageError) -> Int32
}

extension Command {
    static var positional: Positional? { nil }

    /// Its help: usage line, discussion, arguments and options.
    static var usage: String { HelpText.usage(of: self) }
}

/// A command's arguments besides options.
struct Positional {
    /// As the usage line shows them: `[PATH...]`.
    let synopsis: String
    /// What they are, for the help.
    let help: String
    /// What a shell completes them with.
    let completion: Completion
}

/// What a shell offers for a value.
enum Completion: Equatable {
    case nothing
    /// Files (and the folders on the way to them).
    case files
    case folders
    case words([String])
}

extension Arguments.Option {
    /// What a shell offers for its value (nothing for a flag): see `Option`.
    var completion: Completion {
        if let choices { return .words(choices) }
        return switch valueName { case "FILE": .files; case "DIR": .folders; default: .nothing }
    }
}
