import Foundation

/// The guides (the articles of the DocC catalog `Sources/CashoutSandbox/CashoutSandbox.docc`), for
/// the tests that check their tables against the sandbox.
package enum Guide {
    /// The text of the article `name` (`"D24"` for `D24.md`); empty when there is none.
    package static func text(_ name: String) -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = root.appendingPathComponent("Sources/CashoutSandbox/CashoutSandbox.docc/\(name).md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    /// The cells of the table rows of article `name` under the heading `heading` (`##` or `###`),
    /// up to the next heading; header and separator rows left out.
    package static func rows(in name: String, under heading: String) -> [[String]] {
        let text = text(name)
        let section = ["\n## \(heading)\n", "\n### \(heading)\n"].lazy.compactMap { marker in
            text.components(separatedBy: marker).dropFirst().first
        }.first?.components(separatedBy: "\n#").first ?? ""
        let lines = section.split(separator: "\n")
        return lines.indices.filter { index in
            lines[index].hasPrefix("| ") && !(index + 1 < lines.count && lines[index + 1].hasPrefix("|---"))
        }.map { lines[$0].dropFirst(2).dropLast(2).components(separatedBy: " | ") }
    }

    /// The code spans of a cell: `` `bank_code` `` gives "bank_code".
    package static func code(_ cell: String) -> [String] {
        cell.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }
}
