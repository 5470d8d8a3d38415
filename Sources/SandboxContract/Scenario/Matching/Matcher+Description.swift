import SandboxBank
/// A matcher as a verification's difference shows what it expected: `"BR"`, `>= 100`,
/// `one of "BR", "MX"`, `prefix "order-"`, `matching /[0-9]+/`; several tests joined by `and`.
extension Matcher: CustomStringConvertible {
    package var description: String {
        tests.map { test in
            switch test {
            case .eq(let value): Self.quoted(value)
            case .oneOf(let values): "one of " + values.map(Self.quoted).joined(separator: ", ")
            case .prefix(let prefix): "prefix \"\(prefix)\""
            case .suffix(let suffix): "suffix \"\(suffix)\""
            case .regex(let pattern): "matching /\(pattern)/"
            case .greater(let bound, let orEqual): "\(orEqual ? ">=" : ">") \(bound)"
            case .less(let bound, let orEqual): "\(orEqual ? "<=" : "<") \(bound)"
            }
        }.joined(separator: " and ")
    }

    private static func quoted(_ operand: Operand) -> String {
        switch operand {
        case .text(let text): "\"\(text)\""
        case .number(let number): number.description
        }
    }
}
