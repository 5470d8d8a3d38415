
extension Completions {
    /// fish: one `complete` line per command, option and argument, each under a condition on the
    /// command line's second word.
    static func fish(_ commands: [any Command.Type]) -> String {
        var lines = [
            "# fish completion for cashout-sandbox, made by 'cashout-sandbox completions fish'.",
            "# This session: cashout-sandbox completions fish | source",
            "function __cashout_sandbox_command --description 'Whether the command line has this command (none yet: no argument)'",
            "    set -l words (commandline -opc)",
            "    if test (count $argv) -eq 0",
            "        test (count $words) -eq 1",
            "    else",
            "        test (count $words) -ge 2; and test \"$words[2]\" = \"$argv[1]\"",
            "    end",
            "end",
            "complete -c cashout-sandbox -f",
        ]
        let none = "-n __cashout_sandbox_command"
        lines += commands.map { "complete -c cashout-sandbox \(none) -a \($0.name) -d \(fishQuoted($0.summary))" }
        lines += Arguments.Option.common.map { fish($0, condition: none) }
        for command in commands {
            let condition = "-n " + fishQuoted("__cashout_sandbox_command \(command.name)")
            lines += options(of: command).map { fish($0, condition: condition) }
            if let positional = command.positional, positional.completion != .nothing {
                lines.append("complete -c cashout-sandbox \(condition) \(fish(positional.completion)) -d \(fishQuoted(positional.help))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `complete -c cashout-sandbox -n ... -l port -r -f -d '...'`.
    private static func fish(_ option: Arguments.Option, condition: String) -> String {
        let short = option.short.map { " -s \($0)" } ?? ""
        let value = option.valueName == nil ? "" : " -r " + fish(option.completion)
        return "complete -c cashout-sandbox \(condition)\(short) -l \(option.name)\(value) -d \(fishQuoted(option.help))"
    }

    /// What fish offers for a value or an argument.
    private static func fish(_ completion: Completion) -> String {
        switch completion {
        case .nothing: "-f"
        case .files: "-F"
        case .folders: "-f -a '(__fish_complete_directories)'"
        case .words(let words): "-f -a " + fishQuoted(words.joined(separator: " "))
        }
    }

    /// `text` in fish's single quotes, where `\` and `'` are escaped with `\`.
    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
