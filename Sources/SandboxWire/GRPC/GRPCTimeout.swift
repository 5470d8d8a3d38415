// grpc-timeout (PROTOCOL-HTTP2.md, "Requests"): Timeout → TimeoutValue TimeoutUnit, the value
// 1 to 8 ASCII digits, the unit one of H (hours), M (minutes), S (seconds), m (milliseconds),
// u (microseconds), n (nanoseconds).

/// Parses `grpc-timeout` values.
enum GRPCTimeout {
    /// The timeout in nanoseconds, or nil when `value` is not a valid grpc-timeout. Timeouts past
    /// Int64 nanoseconds (about 292 years; 8 digits of hours reach 11,000) are capped there.
    package static func nanoseconds(_ value: String) -> Int64? {
        let bytes = Array(value.utf8)
        guard (2 ... 9).contains(bytes.count), let unit = bytes.last else { return nil }
        var amount: Int64 = 0
        for digit in bytes.dropLast() {
            guard (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(digit) else { return nil }
            amount = amount * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        let scale: Int64
        switch unit {
        case UInt8(ascii: "H"): scale = 3_600_000_000_000
        case UInt8(ascii: "M"): scale = 60_000_000_000
        case UInt8(ascii: "S"): scale = 1_000_000_000
        case UInt8(ascii: "m"): scale = 1_000_000
        case UInt8(ascii: "u"): scale = 1000
        case UInt8(ascii: "n"): scale = 1
        default: return nil
        }
        let (nanoseconds, overflow) = amount.multipliedReportingOverflow(by: scale)
        return overflow ? Int64.max : nanoseconds
    }
}
