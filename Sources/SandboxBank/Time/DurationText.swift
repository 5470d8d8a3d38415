/// Durations written as in scenario files and the admin API: a sequence of number-unit pairs,
/// units `ms`, `s`, `m`, `h`, `d` (e.g. `500ms`, `30s`, `1h5m`, `2d`).
package enum DurationText {
    /// What `parse` reads, as a regular expression (for JSON Schemas): one or more counts of up to
    /// 12 digits, each with its unit. `parse` also refuses a total over 100 years.
    package static let pattern = "^([0-9]{1,12}(ms|s|m|h|d))+$"

    /// The duration, or nil when the text is not such a sequence (or longer than 100 years).
    package static func parse(_ text: String) -> Duration? {
        // Over the UTF-8 bytes: digits and units are ASCII, and anything else is refused (a start
        // reads sixty of these in the built-in scenarios: Character's properties cost 5k each).
        let limit: Int64 = 100 * 366 * 86_400_000
        let bytes = text.utf8
        var index = bytes.startIndex, total: Int64 = 0
        guard index != bytes.endIndex else { return nil }
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        while index != bytes.endIndex {
            var value: Int64 = 0, digits = 0
            while index != bytes.endIndex, case let byte = bytes[index], byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                digits += 1
                guard digits <= 12 else { return nil }
                bytes.formIndex(after: &index)
            }
            guard digits > 0 else { return nil }
            let unitStart = index
            while index != bytes.endIndex, isLetter(bytes[index]) { bytes.formIndex(after: &index) }
            let length = bytes.distance(from: unitStart, to: index)
            let unit = (length == 1 || length == 2 ? bytes[unitStart] : 0, length == 2 ? bytes[bytes.index(after: unitStart)] : 0)
            let milliseconds: Int64
            switch unit {
            case (UInt8(ascii: "m"), UInt8(ascii: "s")): milliseconds = 1
            case (UInt8(ascii: "s"), 0): milliseconds = 1000
            case (UInt8(ascii: "m"), 0): milliseconds = 60_000
            case (UInt8(ascii: "h"), 0): milliseconds = 3_600_000
            case (UInt8(ascii: "d"), 0): milliseconds = 86_400_000
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
