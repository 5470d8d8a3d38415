/// An exact amount with two decimals, stored in hundredths. Never a floating-point number. Sums
/// saturate at ±92 quadrillion rather than overflow.
///
/// ```swift
/// let amount = Money("100.50")!   // 10050 hundredths
/// amount.description              // "100.50"
/// ```
public struct Money: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The amount in hundredths (cents).
    public var hundredths: Int64

    /// The amount `hundredths` / 100.
    public init(hundredths: Int64) {
        self.hundredths = hundredths
    }

    /// Zero.
    public static let zero = Money(hundredths: 0)

    /// Parses `123`, `123.4`, `123.45` (and `123.450`: zeros past the cents change nothing) and a
    /// leading `-`; nil for non-zero digits past the cents, exponents, other characters, or more
    /// than 15 integer digits.
    public init?(_ text: some StringProtocol) {
        var digits = Substring(text)
        let negative = digits.hasPrefix("-")
        if negative { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 15, whole.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        var fraction = parts.count == 2 ? parts[1] : ""
        while fraction.count > 2, fraction.hasSuffix("0") { fraction.removeLast() }
        guard fraction.count <= 2, parts.count == 1 || !fraction.isEmpty,
              fraction.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        while fraction.count < 2 { fraction += "0" }
        guard let units = Int64(whole), let cents = Int64(fraction) else { return nil }
        hundredths = (units * 100 + cents) * (negative ? -1 : 1)
    }

    /// `1234.50`: always two decimals.
    public var description: String {
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = hundredths.magnitude
        let cents = magnitude % 100
        return "\(sign)\(magnitude / 100).\(cents < 10 ? "0" : "")\(cents)"
    }

    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.hundredths < rhs.hundredths }
    // Sums saturate at ±Int64.max hundredths (92 quadrillion units), far beyond any amount the API
    // takes (15 digits): balances and limit totals that pile up that far stop there, never trap.
    public static func + (lhs: Money, rhs: Money) -> Money {
        let (sum, overflow) = lhs.hundredths.addingReportingOverflow(rhs.hundredths)
        return Money(hundredths: overflow ? (rhs.hundredths > 0 ? .max : -.max) : max(sum, -.max))
    }
    public static func - (lhs: Money, rhs: Money) -> Money { lhs + -rhs }
    public static prefix func - (value: Money) -> Money { Money(hundredths: value.hundredths == .min ? .max : -value.hundredths) }
    public static func += (lhs: inout Money, rhs: Money) { lhs = lhs + rhs }
    public static func -= (lhs: inout Money, rhs: Money) { lhs = lhs - rhs }
}
