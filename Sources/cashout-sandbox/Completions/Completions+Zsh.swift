
extension Completions {
    /// zsh: an `_arguments` spec per command. Works installed in `$fpath` as `_cashout-sandbox`
    /// (autoloaded by compinit) and sourced after compinit.
    static func zsh(_ commands: [any Command.Type]) -> String {
        let list = commands.map { "        " + quoted("\(zshEscaped($0.name, colons: true)):\(zshEscaped($0.summary, colons: true))") }
        let cases = commands.map { command in
            var specs = options(of: command).map(zsh)
            if let positional = command.positional {
                let repeated = positional.synopsis.hasSuffix("...]")
                let optional = positional.synopsis.hasPrefix("[")
                let name = zshEscaped(String(trimmed(positional.synopsis)), colons: true)
                // Not " " (no completion) for an argument: zsh then offers no option before it either.
                let action = positional.completion == .nothing ? "_message \(name)" : zsh(positional.completion)
                specs.append(quoted((repeated ? "*" : optional ? ":" : "") + ":\(name):\(action)"))
            }
            return "        \(command.name))\n            _arguments -s \\\n                "
                + specs.joined(separator: " \\\n                ") + "\n            ;;"
        }
        return """
            #compdef cashout-sandbox
            # zsh completion for cashout-sandbox, made by 'cashout-sandbox completions zsh'.
            # This session (after compinit): source <(cashout-sandbox completions zsh)

            _cashout-sandbox() {
                local context state state_descr line
                typeset -A opt_args
                local -a commands
                commands=(
            \(list.joined(separator: "\n"))
                )
                _arguments -C \\
                    \(Arguments.Option.common.map(zsh).joined(separator: " \\\n        ")) \\
                    '1: :->command' \\
                    '*:: :->argument'
                case $state in
                command) _describe -t commands 'cashout-sandbox command' commands ;;
                argument)
                    case $words[1] in
            \(cases.joined(separator: "\n"))
                    esac
                    ;;
                esac
            }

            # Autoloaded from $fpath, the file is the function's body: run it. Sourced, register it.
            if [ "$funcstack[1]" = "_cashout-sandbox" ]; then
                _cashout-sandbox "$@"
            else
                compdef _cashout-sandbox cashout-sandbox
            fi
            """
    }

    /// `'--port=[Port to listen on]:PORT: '`; `*` before a repeatable option, `(- *)` before
    /// `--help` and `--version` (nothing else goes with them).
    private static func zsh(_ option: Arguments.Option) -> String {
        let alone = Arguments.Option.common.contains { $0.name == option.name } ? "(- *)" : ""
        let value = option.valueName.map { ":\(zshEscaped($0, colons: true)):\(zsh(option.completion))" } ?? ""
        let spec = { (spelling: String) in
            alone + (option.repeatable ? "*" : "") + spelling + (option.valueName == nil ? "" : "=")
                + "[\(zshEscaped(option.help, colons: false))]" + value
        }
        return spellings(option).map { quoted(spec($0)) }.joined(separator: " ")
    }

    /// `synopsis` without the brackets and dots around its name: `[FILE...]` is `FILE`.
    private static func trimmed(_ synopsis: String) -> Substring {
        let around: Set<Character> = ["[", "]", "."]
        var name = Substring(synopsis)
        while let first = name.first, around.contains(first) { name.removeFirst() }
        while let last = name.last, around.contains(last) { name.removeLast() }
        return name
    }

    /// `text` inside single quotes for zsh: `'` becomes `'\''`.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// An `_arguments` action.
    private static func zsh(_ completion: Completion) -> String {
        switch completion {
        case .nothing: " "
        case .files: "_files"
        case .folders: "_files -/"
        case .words(let words): "(\(words.joined(separator: " ")))"
        }
    }

    /// Text inside an `_arguments` spec: brackets (and colons outside a description) escaped.
    private static func zshEscaped(_ text: String, colons: Bool) -> String {
        var out = ""
        for character in text {
            if "[]\\".contains(character) || (colons && character == ":") { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
