/// What is wrong in a scenario file: where (file and JSON path, e.g. `bank.rules[2].then[1].after`)
/// and what was expected there. A file with several errors is refused with the first, which
/// carries the others in `more`, in the order of the file.
package struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    package let file: String
    package let path: String
    package let expected: String
    /// The file's further errors (up to `ScenarioErrors.cap` in all), each on its own.
    var more: [ScenarioError] = []
    /// The file may have more errors than these: reading stopped at the cap.
    var truncated = false

    package init(file: String, path: String, expected: String) {
        self.file = file
        self.path = path
        self.expected = expected
    }

    /// This error and its `more`, each alone.
    package var all: [ScenarioError] {
        [ScenarioError(file: file, path: path, expected: expected)] + more
    }

    /// Where in the file and what was expected there, without the file's name; one line per
    /// error when there are several.
    package var message: String {
        lines { $0.located }
    }

    /// `message`, each line beginning with the file's name.
    package var description: String {
        lines { "\($0.file): \($0.located)" }
    }

    private var located: String { "\(path.isEmpty ? "(top level)" : path): \(expected)" }

    private func lines(_ line: (ScenarioError) -> String) -> String {
        var lines = all.map(line)
        if truncated { lines.append("(stopped after \(ScenarioErrors.cap) errors)") }
        return lines.joined(separator: "\n")
    }
}
