import SandboxContract

/// A command line's options, read against the options a command declares (and `Option.common`,
/// which every command takes).
///
/// Accepts `--name value` and `--name=value`, flags without values, `-h`, and `--` before
/// arguments that start with `-`. Anything else is a ``UsageError`` that names the offending word
/// and, when one is close, the option meant.
struct Arguments {
    /// An option a command accepts. Its help, usage line and shell completions all come from here:
    /// a value name `a|b` offers `a` and `b`, `FILE` files and `DIR` folders.
    struct Option {
        let name: String
        let short: Character?
        let valueName: String?
        let help: String
        /// Shown as `[--name VALUE]...` in the usage line: every value given counts.
        let repeatable: Bool

        /// An option taking a value, shown as `--name VALUE`.
        static func value(_ name: String, _ valueName: String, _ help: String, repeatable: Bool = false) -> Option {
            Option(name: name, short: nil, valueName: valueName, help: help, repeatable: repeatable)
        }

        /// A flag without a value.
        static func flag(_ name: String, _ help: String) -> Option {
            Option(name: name, short: nil, valueName: nil, help: help, repeatable: false)
        }

        /// The options of every command: `CLI` answers them before the command runs.
        static let common = [
            Option(name: "help", short: "h", valueName: nil, help: "Show this help", repeatable: false),
            flag("version", "Show the version"),
        ]

        /// The values a value name such as `real|manual` allows; nil for a free value.
        var choices: [String]? {
            guard let valueName, valueName.contains("|") else { return nil }
            return valueName.split(separator: "|").map(String.init)
        }

        /// `-h, --help` or `--port PORT`, as the list of options shows it.
        var label: String {
            (short.map { "-\($0), " } ?? "") + "--\(name)" + (valueName.map { " \($0)" } ?? "")
        }

        /// `[--port PORT]`, or `[--scenario FILE]...`, as the usage line shows it.
        var synopsis: String { "[--\(name)\(valueName.map { " \($0)" } ?? "")]\(repeatable ? "..." : "")" }
    }

    private(set) var values: [String: [String]] = [:]
    private(set) var positional: [String] = []

    /// Reads `words` (the command's own words, without the command name).
    init(_ words: [String], options: [Option], command: String) throws(UsageError) {
        let options = options + Option.common
        var rest = words[...]
        while let word = rest.popFirst() {
            if word == "--" {
                positional += rest
                break
            }
            guard word.hasPrefix("-"), word != "-" else {
                positional.append(word)
                continue
            }
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let named = options.first { "--\($0.name)" == parts[0] || $0.short.map { "-\($0)" } == parts[0] }
            guard let option = named else {
                throw UsageError("unknown option '\(parts[0])' for \(command)"
                    + Suggestion.didYouMean(String(parts[0]), among: options.map { "--\($0.name)" }))
            }
            let name = option.name
            if option.valueName == nil {
                guard parts.count == 1 else { throw UsageError("option '--\(name)' takes no value") }
                values[name, default: []].append("")
            } else if parts.count == 2 {
                values[name, default: []].append(String(parts[1]))
            } else if let value = rest.popFirst(), !value.hasPrefix("--") {
                values[name, default: []].append(value)
            } else {
                throw UsageError("option '--\(name)' needs a value (\(option.valueName!))")
            }
        }
    }

    /// Whether a flag was given.
    func has(_ name: String) -> Bool { values[name] != nil }

    /// The last value given for `name`.
    func value(_ name: String) -> String? { values[name]?.last }

    /// The last value of `name` converted by `parse`, or `fallback` when absent; a value `parse`
    /// refuses is a usage error saying what was expected.
    func value<T>(_ name: String, default fallback: T, expected: String, _ parse: (String) -> T?) throws(UsageError) -> T {
        guard let text = value(name) else { return fallback }
        guard let parsed = parse(text) else {
            throw UsageError("option '--\(name)' expects \(expected), got '\(text)'")
        }
        return parsed
    }

    /// `--base-url`: an http(s) URL naming a host, without trailing slashes (paths are appended to it).
    func baseURL() throws(UsageError) -> String {
        try value("base-url", default: "http://127.0.0.1:8080", expected: "an http or https URL such as http://localhost:8080",
                  Self.baseURL)
    }

    /// `text` as a base URL, an http(s) URL naming a host, without its trailing slashes; nil when
    /// it is not one.
    static func baseURL(_ text: String) -> String? {
        var url = Substring(text)
        while url.hasSuffix("/") { url = url.dropLast() }
        guard let scheme = url.firstRange(of: "://"), ["http", "https"].contains(url[..<scheme.lowerBound].lowercased()),
              let host = url[scheme.upperBound...].split(separator: "/", omittingEmptySubsequences: false).first,
              !host.isEmpty, !url.contains(where: { $0.isWhitespace }) else { return nil }
        return String(url)
    }
}

/// A command line that cannot be run as written: exit status 2.
struct UsageError: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}
