import SandboxWire

/// The rejection codes one API's answers can carry, which a scenario's timeline may give
/// (`"rejection_code"`): a code no API its rule can reach answers is refused when the file is
/// loaded, so that a typo never becomes a code that does not exist on the wire.
///
/// ```swift
/// let d24 = RejectionCodes(listed: [("801", "ERROR_ACCOUNT_CLOSED"), ("826", "WITHDRAWAL_REVERSED")])
/// let words = RejectionCodes(words: true)   // payee_rejected, R01...
/// d24.knows("801")         // true
/// words.knows("eight-oh-one")   // false: a word code has no "-"
/// ```
package struct RejectionCodes: Sendable {
    /// Codes answered as they are written, each with its name (D24's `801`, `ERROR_ACCOUNT_CLOSED`).
    package var listed: [(code: String, name: String)]
    /// Whether word codes are answered as written: a letter, then letters, digits or `_`
    /// (`payee_rejected`, `R01`), as a processor's error codes are.
    var words: Bool
    /// The code a reversal after completion carries (D24's 826, `WITHDRAWAL_REVERSED`), which an
    /// explored late reversal gives; nil: none of its own.
    package var lateRejection: String?

    package init(listed: [(code: String, name: String)] = [], words: Bool = false, lateRejection: String? = nil) {
        self.listed = listed
        self.words = words
        self.lateRejection = lateRejection
    }

    func knows(_ code: String) -> Bool {
        listed.contains { $0.code == code } || (words && Self.isWord(code))
    }

    /// A word code as a JSON Schema `pattern`: a letter, then letters, digits or `_`.
    static let wordPattern = "^[A-Za-z][A-Za-z0-9_]*$"

    /// A letter, then letters, digits or `_`.
    static func isWord(_ code: String) -> Bool {
        guard let first = code.utf8.first, first.isLetter else { return false }
        return code.utf8.allSatisfy { $0.isLetter || (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_") }
    }

    /// What it answers, for a message: `one of the 25 codes of its list, 800 to 826`, or a word code.
    var summary: String {
        var parts: [String] = []
        if let first = listed.first, let last = listed.last {
            parts.append(listed.count == 1 ? first.code : "one of the \(listed.count) codes of its list, \(first.code) to \(last.code)")
        }
        if words { parts.append("a word code such as payee_rejected or R01: a letter, then letters, digits or _") }
        return parts.isEmpty ? "no rejection code" : parts.joined(separator: " or ")
    }

    /// Up to three listed codes nearest `code`: by number for a number, else those whose name is
    /// closest (`ERROR_ACCOUNT_CLOSED` or `account_closed` finds 801).
    func nearest(to code: String) -> [(code: String, name: String)] {
        if let number = Int(code) {
            let numbered = listed.compactMap { entry in Int(entry.code).map { (entry, abs($0 - number)) } }
            return numbered.sorted { $0.1 < $1.1 }.prefix(3).map(\.0)
        }
        let word = Array(code.uppercased())
        let scored = listed.map { entry in (entry, EditDistance.between(word, Array(entry.name), limit: 12)) }
        return scored.filter { $0.1 <= max(3, word.count / 2) }.sorted { $0.1 < $1.1 }.prefix(3).map(\.0)
    }
}

private extension UInt8 {
    var isLetter: Bool { (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A") ... UInt8(ascii: "Z")).contains(self) }
}
