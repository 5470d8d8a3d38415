import CashoutSandbox

/// Help laid out for an 80-column terminal, as swift-argument-parser lays out its own: the usage
/// line wrapped under its command, text wrapped at word boundaries, option help in a column.
enum HelpText {
    static let width = 80
    /// Where option and command help starts, unless every label is narrower.
    static let labelColumn = 26

    /// `cashout-sandbox 0.2.0`.
    static let version = "cashout-sandbox \(Sandbox.version)"

    /// What each exit status means: the same for every command.
    static let exitStatuses = "Exit status: 0 success; 1 a failure (a test failed, a scenario file is invalid, "
        + "the server could not start, a report has an error); 2 a bad command line, a file or folder that is not there, "
        + "a --state-dir that cannot be used, or a sandbox that answers no report."

    /// The help of `cashout-sandbox` itself.
    static var root: String {
        let commands = CLI.commands.map { ($0.name, $0.summary) }
        return """
            \(version): a local sandbox for payout (cashout) APIs

            Usage: cashout-sandbox <command> [options]

            Commands:
            \(columns(commands))

            Options:
            \(columns(Arguments.Option.common.map { ($0.label, $0.help) }))

            \(wrap("Run 'cashout-sandbox help COMMAND' or 'cashout-sandbox COMMAND --help' for a command's options."))

            \(wrap(exitStatuses))
            """
    }

    /// The help of `command`.
    static func usage(of command: any Command.Type) -> String {
        let prefix = "Usage: cashout-sandbox \(command.name) "
        let words = command.options.map(\.synopsis) + (command.positional.map { [$0.synopsis] } ?? [])
        var text = prefix + wrap(words, start: prefix.count, indent: prefix.count) + "\n\n" + wrap(command.discussion)
        if let positional = command.positional {
            text += "\n\nArguments:\n" + columns([(positional.synopsis, positional.help)])
        }
        let options = command.options + Arguments.Option.common
        return text + "\n\nOptions:\n" + columns(options.map { ($0.label, $0.help) })
    }

    /// Two columns, `  label  text`, the text wrapped in its column; a label too wide for the
    /// column has its text on the next line.
    static func columns(_ rows: [(label: String, text: String)]) -> String {
        let column = min(labelColumn, (rows.map(\.label.count).max() ?? 0) + 4)
        return rows.map { label, text in
            let padded = "  " + label
            let body = wrap(text.split(separator: " ").map(String.init), start: column, indent: column)
            guard padded.count + 2 <= column else { return padded + "\n" + String(repeating: " ", count: column) + body }
            return padded + String(repeating: " ", count: column - padded.count) + body
        }.joined(separator: "\n")
    }

    /// `text` (paragraphs separated by blank lines) wrapped at `width`.
    static func wrap(_ text: String) -> String {
        text.split(separator: "\n\n", omittingEmptySubsequences: true).map { paragraph in
            wrap(paragraph.split(whereSeparator: \.isWhitespace).map(String.init), start: 0, indent: 0)
        }.joined(separator: "\n\n")
    }

    /// `words` joined by spaces, the first starting at column `start`; a word that would pass
    /// `width` starts a new line, indented by `indent`. A word wider than a line has one to itself.
    static func wrap(_ words: [String], start: Int, indent: Int) -> String {
        var text = ""
        var length = start
        for (index, word) in words.enumerated() {
            if index > 0 {
                let fits = length + 1 + word.count <= width
                text += fits ? " " : "\n" + String(repeating: " ", count: indent)
                length = fits ? length + 1 : indent
            }
            text += word
            length += word.count
        }
        return text
    }
}
