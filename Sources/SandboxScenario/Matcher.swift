import SandboxBank
import SandboxJSON

/// A test on one field: an exact value, or an object of `eq`, `in`, `prefix`, `suffix`, `regex`,
/// `gt`, `gte`, `lt`, `lte` (all must hold). Values compare as text; numbers compare exactly as
/// decimals (`"100"` equals `100.00`).
public struct Matcher: Sendable {
    public enum Test: Sendable {
        case eq(String)
        case oneOf([String])
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

    private static func same(_ value: String, _ expected: String) -> Bool {
        if value == expected { return true }
        guard let a = Money(value), let b = Money(expected) else { return false }
        return a == b
    }
}

extension Regex {
    /// Whether the pattern matches the whole of `text`.
    fileprivate func wholeMatchPrefix(_ text: String) -> Bool {
        (try? wholeMatch(in: text)) != nil
    }
}
