package import SandboxBank
import SandboxSupport
import Synchronization

/// A test on one field: an exact value, or an object of `eq`, `in`, `prefix`, `suffix`, `regex`,
/// `gt`, `gte`, `lt`, `lte` (all must hold). A string operand compares as text (`"0801"` is not
/// `"801"`); a number operand, and the order operators, compare exactly as decimals (`100`
/// equals `"100.00"`).
package struct Matcher: Sendable {
    /// A value to compare with: text, or a number written as a JSON number.
    package enum Operand: Sendable, Equatable {
        case text(String)
        case number(Money)

        /// The operand as written, for messages.
        package var text: String {
            switch self {
            case .text(let text): text
            case .number(let number): number.description
            }
        }
    }

    package enum Test: Sendable {
        case eq(Operand)
        case oneOf([Operand])
        case prefix(String)
        case suffix(String)
        case regex(String)
        case greater(Money, orEqual: Bool)
        case less(Money, orEqual: Bool)
    }

    package let tests: [Test]
    /// Its `regex` patterns, compiled on first use and kept as long as the matcher (and its copies).
    let patterns = PatternCache()
    /// The text it matches when it is a plain `eq` of text (a magic value, a dialect): a value is
    /// compared with it as it is, without walking the tests (a create meets some forty of them in
    /// the built-in rules). Not for a number, which compares as a decimal.
    private let plainText: String?

    init(tests: [Test]) {
        self.tests = tests
        if tests.count == 1, case .eq(.text(let text)) = tests[0] { plainText = text } else { plainText = nil }
    }

    /// The one value it matches, when it is a plain `eq` (a rule pinned to one dialect).
    package var exactText: String? {
        guard tests.count == 1, case .eq(let operand) = tests[0] else { return nil }
        return operand.text
    }

    /// Whether `value` (the field's text; nil when absent) passes every test. Inlined, so that a
    /// plain text is compared where the matcher lies: a call retains and releases each of the
    /// matcher's parts first, and a create meets some forty matchers twice.
    @inline(__always) package func matches(_ value: String?) -> Bool {
        guard let value else { return false }
        if let plainText { return value == plainText }
        return passesTests(value)
    }

    private func passesTests(_ value: String) -> Bool {
        tests.allSatisfy { test in
            switch test {
            case .eq(let expected): Self.same(value, expected)
            case .oneOf(let options): options.contains { Self.same(value, $0) }
            case .prefix(let prefix): value.hasPrefix(prefix)
            case .suffix(let suffix): value.hasSuffix(suffix)
            case .regex(let pattern): patterns.wholeMatch(pattern, value)
            case .greater(let bound, let orEqual): Money(value).map { orEqual ? $0 >= bound : $0 > bound } ?? false
            case .less(let bound, let orEqual): Money(value).map { orEqual ? $0 <= bound : $0 < bound } ?? false
            }
        }
    }

    private static func same(_ value: String, _ expected: Operand) -> Bool {
        switch expected {
        case .text(let text): value == text
        case .number(let number): Money(value) == number
        }
    }
}

/// Compiled `regex` patterns: compiling one takes about 40 µs, matching about 1 µs. `Regex` is not
/// `Sendable`, so a match runs under the lock that guards the table.
final class PatternCache: Sendable {
    private let compiled = Mutex<[String: Regex<AnyRegexOutput>?]>([:])

    /// Whether `pattern` matches the whole of `text` (false for a pattern that does not compile).
    func wholeMatch(_ pattern: String, _ text: String) -> Bool {
        compiled.withLock { table in
            if table[pattern] == nil { table[pattern] = .some(try? Regex(pattern)) }
            guard let regex = table[pattern] ?? nil else { return false }
            return (try? regex.wholeMatch(in: text)) != nil
        }
    }
}
