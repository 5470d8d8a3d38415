/// Durations written as in scenario files and the admin API: a sequence of number-unit pairs,
/// units `ms`, `s`, `m`, `h`, `d` (e.g. `500ms`, `30s`, `1h5m`, `2d`).
package enum DurationText {
    /// What `parse` reads, as a regular expression (for JSON Schemas): one or more counts of up to
    /// 12 digits, each with its unit. `parse` also refuses a total over 100 years.
    package static let pattern = "^([0-9]{1,12}(ms|s|m|h|d))+$"

    /// The duration, or nil when the text is not such a sequence (or longer than 100 years).
    package static func parse(_ text: String) -> Duration? {
        let limit: Int64 = 100 * 366 * 86_400_000
        var total: Int64 = 0
        var rest = Substring(text)
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 12, let value = Int64(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            let unit = rest.prefix { $0.isASCII && $0.isLetter }
            rest = rest.dropFirst(unit.count)
            let milliseconds: Int64
            switch unit {
            case "ms": milliseconds = 1
            case "s": milliseconds = 1000
            case "m": milliseconds = 60_000
            case "h": milliseconds = 3_600_000
            case "d": milliseconds = 86_400_000
            default: return nil
            }
            let (product, overflow) = value.multipliedReportingOverflow(by: milliseconds)
            guard !overflow, product <= limit - total else { return nil }
            total += product
        }
        return .milliseconds(total)
    }

    /// `duration` as `parse` reads it, largest units first: `1h5m`, `30s`, `500ms`, `0s`.
    package static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        var rest = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        guard rest > 0 else { return "0s" }
        var text = ""
        for (unit, size) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60000), ("s", 1000), ("ms", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return text
    }
}
