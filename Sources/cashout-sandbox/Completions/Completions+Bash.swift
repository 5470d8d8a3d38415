extension Completions {
    /// bash: a function for `complete -F`, which `compgen` fills from word lists.
    static func bash(_ commands: [any Command.Type]) -> String {
        let rootWords = commands.map { $0.name } + Arguments.Option.common.flatMap(spellings)
        let cases = commands.map { command in
            let options = options(of: command)
            var valueCases = options.filter { $0.valueName != nil }.map { option in
                "        \(spellings(option).joined(separator: "|"))) \(bash(option.completion)); return ;;"
            }
            if !valueCases.isEmpty { valueCases = ["        case \"$prev\" in"] + valueCases.map { "    " + $0 } + ["        esac"] }
            let optionWords = bash(.words(options.flatMap(spellings)))
            // Where an argument has nothing to offer, the options are offered without a '-' typed.
            let argument = command.positional?.completion ?? .nothing
            let rest = argument == .nothing ? optionWords : "if [[ \"$cur\" == -* ]]; then \(optionWords); else \(bash(argument)); fi"
            return (["    \(command.name))"] + valueCases + ["        \(rest)", "        ;;"]).joined(separator: "\n")
        }
        return """
            # bash completion for cashout-sandbox, made by 'cashout-sandbox completions bash'.
            # This session: source <(cashout-sandbox completions bash)
            _cashout_sandbox_files() { local IFS=$'\\n'; COMPREPLY=($(compgen -f -- "$1")); compopt -o filenames 2>/dev/null; }
            _cashout_sandbox_folders() { local IFS=$'\\n'; COMPREPLY=($(compgen -d -- "$1")); compopt -o filenames 2>/dev/null; }
            _cashout_sandbox() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
                # --name=value: bash splits the word at '=' (COMP_WORDBREAKS).
                if [[ "$cur" == "=" ]]; then cur=""; elif [[ "$prev" == "=" && $COMP_CWORD -ge 3 ]]; then prev="${COMP_WORDS[COMP_CWORD-2]}"; fi
                COMPREPLY=()
                if [[ $COMP_CWORD -eq 1 ]]; then
                    COMPREPLY=($(compgen -W "\(rootWords.joined(separator: " "))" -- "$cur"))
                    return
                fi
                case "${COMP_WORDS[1]}" in
            \(cases.joined(separator: "\n"))
                esac
            }
            complete -F _cashout_sandbox cashout-sandbox
            """
    }

    /// What fills `COMPREPLY` for a value of this kind (`$cur` is the word so far).
    private static func bash(_ completion: Completion) -> String {
        switch completion {
        case .nothing: "COMPREPLY=()"
        case .files: "_cashout_sandbox_files \"$cur\""
        case .folders: "_cashout_sandbox_folders \"$cur\""
        case .words(let words): "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))"
        }
    }
}
