/// A command line's options, read against the options a command declares.
///
/// Accepts `--name value` and `--name=value`, and flags without values. Anything else is a
/// ``UsageError`` that names the offending word.
struct Arguments {
    /// An option a command accepts.
    struct Option {
        let name: String
        let valueName: String?
        let help: String

        /// An option taking a value, shown as `--name VALUE`.
        static func value(_ name: String, _ valueName: String, _ help: String) -> Option {
            Option(name: name, valueName: valueName, help: help)
        }

        /// A flag without a value.
        static func flag(_ name: String, _ help: String) -> Option {
            Option(name: name, valueName: nil, help: help)
        }
    }

    private(set) var values: [String: [String]] = [:]
    private(set) var positional: [String] = []

    /// Reads `words` (the command's own words, without the command name).
    init(_ words: [String], options: [Option], command: String) throws(UsageError) {
        var rest = words[...]
        while let word = rest.popFirst() {
            guard word.hasPrefix("--"), word != "--" else {
                if word.hasPrefix("-") && word != "-" { throw UsageError("unknown option '\(word)' for \(command)") }
                positional.append(word)
                continue
            }
            let parts = word.dropFirst(2).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard let option = options.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '--\(name)' for \(command)")
            }
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
        try value("base-url", default: "http://127.0.0.1:8080", expected: "an http or https URL such as http://localhost:8080") { text in
            var url = Substring(text)
            while url.hasSuffix("/") { url = url.dropLast() }
            guard let scheme = url.range(of: "://"), ["http", "https"].contains(url[..<scheme.lowerBound].lowercased()),
                  let host = url[scheme.upperBound...].split(separator: "/", omittingEmptySubsequences: false).first,
                  !host.isEmpty, !url.contains(where: { $0.isWhitespace }) else { return nil }
            return String(url)
        }
    }

    /// Usage lines for `options`, aligned.
    static func help(_ options: [Option]) -> String {
        let left = options.map { "  --\($0.name)" + ($0.valueName.map { " \($0)" } ?? "") }
        let width = (left.map(\.count).max() ?? 0) + 2
        return zip(left, options).map { $0 + String(repeating: " ", count: width - $0.count) + $1.help }
            .joined(separator: "\n")
    }
}

/// A command line that cannot be run as written: exit status 2.
struct UsageError: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}
