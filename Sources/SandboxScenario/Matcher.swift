import SandboxBank
import SandboxJSON

/// A test on one field: an exact value, or an object of `eq`, `in`, `prefix`, `suffix`, `regex`,
/// `gt`, `gte`, `lt`, `lte` (all must hold). A string operand compares as text (`"0801"` is not
/// `"801"`); a number operand, and the order operators, compare exactly as decimals (`100`
/// equals `"100.00"`).
public struct Matcher: Sendable {
    /// A value to compare with: text, or a number written as a JSON number.
    public enum Operand: Sendable, Equatable {
        case text(String)
        case number(Money)

        /// The operand as written, for messages.
        public var text: String {
            switch self {
            case .text(let text): text
            case .number(let number): number.description
            }
        }
    }

    public enum Test: Sendable {
        case eq(Operand)
        case oneOf([Operand])
        case prefix(String)
        case suffix(String)
        case regex(String)
        case greater(Money, orEqual: Bool)
        case less(Money, orEqual: Bool)
    }

    public var tests: [Test]

    /// Whether `value` (the field's text; nil when absent) passes every test.
    public func matches(_ value: String?) -> Bool {
        guard let value else { return false }
        return tests.allSatisfy { test in
            switch test {
            case .eq(let expected): Self.same(value, expected)
            case .oneOf(let options): options.contains { Self.same(value, $0) }
            case .prefix(let prefix): value.hasPrefix(prefix)
            case .suffix(let suffix): value.hasSuffix(suffix)
            case .regex(let pattern): (try? Regex(pattern))?.wholeMatchPrefix(value) ?? false
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

extension Regex {
    /// Whether the pattern matches the whole of `text`.
    fileprivate func wholeMatchPrefix(_ text: String) -> Bool {
        (try? wholeMatch(in: text)) != nil
    }
}
