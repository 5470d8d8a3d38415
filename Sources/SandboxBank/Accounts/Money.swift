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
    ///
    /// - Parameters:
    ///   - hundredths: The amount in hundredths (cents): `10050` is `100.50`.
    public init(hundredths: Int64) {
        self.hundredths = hundredths
    }

    /// Zero.
    public static let zero = Money(hundredths: 0)

    /// Parses `123`, `123.4`, `123.45` (and `123.450`: zeros past the cents change nothing) and a
    /// leading `-`; nil for non-zero digits past the cents, exponents, other characters, or more
    /// than 15 integer digits.
    ///
    /// - Parameters:
    ///   - text: The amount as an API writes it: `"100.50"`, `"-3"`.
    public init?(_ text: some StringProtocol) {
        // One pass over the bytes (every create parses its amount): only ASCII digits, one `.`
        // after a digit and one leading `-` count; any other byte refuses.
        var units: Int64 = 0, cents: Int64 = 0
        var (wholeDigits, fractionDigits) = (0, 0)
        var (negative, inFraction) = (false, false)
        let text = Substring(text)  // concrete: the loop would not be specialized in the modules that call it
        for (offset, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where offset == 0:
                negative = true
            case UInt8(ascii: ".") where !inFraction && wholeDigits > 0:
                inFraction = true
            case UInt8(ascii: "0") ... UInt8(ascii: "9"):
                let digit = Int64(byte - UInt8(ascii: "0"))
                if !inFraction {
                    guard wholeDigits < 15 else { return nil }
                    units = units * 10 + digit
                    wholeDigits += 1
                } else {
                    if fractionDigits < 2 { cents += fractionDigits == 0 ? digit * 10 : digit } else if digit != 0 { return nil }
                    fractionDigits += 1
                }
            default:
                return nil
            }
        }
        guard wholeDigits > 0, !inFraction || fractionDigits > 0 else { return nil }
        hundredths = (units * 100 + cents) * (negative ? -1 : 1)
    }

    /// `1234.50`: always two decimals.
    public var description: String {
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = hundredths.magnitude
        let cents = magnitude % 100
        return "\(sign)\(magnitude / 100).\(cents < 10 ? "0" : "")\(cents)"
    }

    /// Whether `lhs` is the smaller amount.
    ///
    /// - Parameters:
    ///   - lhs: An amount.
    ///   - rhs: Another amount.
    /// - Returns: True when `lhs` is less than `rhs`, to the hundredth.
    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.hundredths < rhs.hundredths }
    // Sums saturate at ±Int64.max hundredths (92 quadrillion units), far beyond any amount the API
    // takes (15 digits): balances and limit totals that pile up that far stop there, never trap.
    /// The sum of two amounts, exact to the hundredth.
    ///
    /// - Parameters:
    ///   - lhs: An amount.
    ///   - rhs: The amount to add.
    /// - Returns: `lhs` plus `rhs`; at ±`Int64.max` hundredths when the sum is beyond them.
    public static func + (lhs: Money, rhs: Money) -> Money {
        let (sum, overflow) = lhs.hundredths.addingReportingOverflow(rhs.hundredths)
        return Money(hundredths: overflow ? (rhs.hundredths > 0 ? .max : -.max) : max(sum, -.max))
    }
    /// The difference of two amounts, exact to the hundredth.
    ///
    /// - Parameters:
    ///   - lhs: An amount.
    ///   - rhs: The amount to take away.
    /// - Returns: `lhs` minus `rhs`; at ±`Int64.max` hundredths when the difference is beyond them.
    public static func - (lhs: Money, rhs: Money) -> Money { lhs + -rhs }
    /// The amount with its sign changed.
    ///
    /// - Parameters:
    ///   - value: An amount.
    /// - Returns: `-value`: a debit's amount from a refund's, and back.
    public static prefix func - (value: Money) -> Money { Money(hundredths: value.hundredths == .min ? .max : -value.hundredths) }
    /// Adds `rhs` to `lhs`, as ``+(_:_:)`` does.
    ///
    /// - Parameters:
    ///   - lhs: The amount to add to.
    ///   - rhs: The amount to add.
    public static func += (lhs: inout Money, rhs: Money) { lhs = lhs + rhs }
    /// Takes `rhs` from `lhs`, as ``-(_:_:)`` does.
    ///
    /// - Parameters:
    ///   - lhs: The amount to take from.
    ///   - rhs: The amount to take away.
    public static func -= (lhs: inout Money, rhs: Money) { lhs = lhs - rhs }
}
