import Foundation

/// The repository's README.md, for the tests that check its tables against the sandbox.
enum Readme {
    static let text: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }()

    /// The cells of the table rows under `### heading`, up to the next heading; header and
    /// separator rows left out.
    static func rows(under heading: String) -> [[String]] {
        let section = text.components(separatedBy: "\n### \(heading)\n").dropFirst().first?.components(separatedBy: "\n#").first ?? ""
        let lines = section.split(separator: "\n")
        return lines.indices.filter { index in
            lines[index].hasPrefix("| ") && !(index + 1 < lines.count && lines[index + 1].hasPrefix("|---"))
        }.map { lines[$0].dropFirst(2).dropLast(2).components(separatedBy: " | ") }
    }

    /// The code spans of a cell: `` `bank_code` `` gives "bank_code".
    static func code(_ cell: String) -> [String] {
        cell.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }
}
