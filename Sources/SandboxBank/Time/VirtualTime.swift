import Glibc

/// A point on the virtual clock: milliseconds since 1970-01-01T00:00:00Z, UTC.
public struct VirtualTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch.
    public var milliseconds: Int64

    /// The time `milliseconds` after the Unix epoch.
    ///
    /// - Parameters:
    ///   - milliseconds: Milliseconds since 1970-01-01T00:00:00Z; negative before it.
    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// What `init?(iso8601:)` reads, as a regular expression (for JSON Schemas): a UTC time to the
    /// second or the millisecond, `2026-01-05T09:00:00Z`, on a day of the Gregorian calendar (no
    /// `2026-02-30`, a February 29 only in a leap year).
    package static let iso8601Pattern = "^([0-9]{4}-((0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])|(0[469]|11)-(0[1-9]|[12][0-9]|30)"
        + "|02-(0[1-9]|1[0-9]|2[0-8]))|([0-9]{2}(0[48]|[2468][048]|[13579][26])|([02468][048]|[13579][26])00)-02-29)"
        + #"T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{3})?Z$"#

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff]Z`; nil for anything else.
    ///
    /// - Parameters:
    ///   - text: A UTC time: `2026-01-05T09:00:00Z`, `2026-01-05T09:00:00.250Z`.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 20 || (bytes.count == 24 && bytes[19] == UInt8(ascii: ".")), bytes.last == UInt8(ascii: "Z"),
              bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            bytes[range].allSatisfy { $0 >= 0x30 && $0 <= 0x39 } ? Int(String(decoding: bytes[range], as: UTF8.self)) : nil
        }
        guard let year = number(0 ..< 4), let month = number(5 ..< 7), let day = number(8 ..< 10),
              let hour = number(11 ..< 13), let minute = number(14 ..< 16), let second = number(17 ..< 19),
              (1 ... 12).contains(month), (1 ... 31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        let fraction = bytes.count == 24 ? number(20 ..< 23) : 0
        guard let fraction else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        guard parts.tm_mday == Int32(day) else { return nil }  // 2026-02-30 rolls over: refuse it
        milliseconds = Int64(seconds) * 1000 + Int64(fraction)
    }

    /// `2026-01-05T09:00:00Z` (milliseconds shown only when not zero).
    public var iso8601: String {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        write(iso8601Into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends ``iso8601``'s bytes to `out`: for answers written as bytes (health), no string made.
    ///
    /// - Parameters:
    ///   - out: The bytes to append the time to.
    public func write(iso8601Into out: inout [UInt8]) {
        let p = parts
        // Made in place on the stack, then appended at once (health writes one per answer).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
            var at = 0
            func put(_ byte: UInt8) {
                text[at] = byte
                at += 1
            }
            func digits(_ value: Int, _ count: Int) {
                var rest = value
                for place in stride(from: at + count - 1, through: at, by: -1) {
                    text[place] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
                at += count
            }
            digits(p.year, 4); put(UInt8(ascii: "-")); digits(p.month, 2); put(UInt8(ascii: "-"))
            digits(p.day, 2); put(UInt8(ascii: "T")); digits(p.hour, 2); put(UInt8(ascii: ":"))
            digits(p.minute, 2); put(UInt8(ascii: ":")); digits(p.second, 2)
            if p.millisecond != 0 {
                put(UInt8(ascii: "."))
                digits(p.millisecond, 3)
            }
            put(UInt8(ascii: "Z"))
            out.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<at]))
        }
    }

    /// The calendar fields in UTC (proleptic Gregorian; days-from-civil inverse by H. Hinnant).
    var parts: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        let ms = Int(milliseconds)
        let dayCount = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
        let inDay = ms - dayCount * 86_400_000
        let z = dayCount + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, inDay / 3_600_000, inDay / 60000 % 60, inDay / 1000 % 60, inDay % 1000)
    }

    /// The time in ISO 8601, as ``iso8601`` gives it.
    public var description: String { iso8601 }

    /// This time plus `duration` (whole milliseconds), stopping at the clock's end.
    ///
    /// - Parameters:
    ///   - duration: How much later: `.seconds(15)`; a part of a millisecond is dropped.
    /// - Returns: The later time; the clock's end (9999-12-31T23:59:59.999Z) when it would be past it.
    public func adding(_ duration: Duration) -> VirtualTime {
        let (seconds, attoseconds) = duration.components
        let limit = VirtualClock.end.milliseconds
        let delta = seconds > limit / 1000 ? limit : seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return VirtualTime(milliseconds: min(milliseconds, limit - delta) + delta)
    }

    /// This time `count` weekdays later (Saturday and Sunday do not count), same time of day.
    ///
    /// - Parameters:
    ///   - count: How many weekdays; 0 or fewer: this time.
    /// - Returns: The time on the `count`th weekday after this one's day.
    public func addingBusinessDays(_ count: Int) -> VirtualTime {
        var time = self
        var left = count
        while left > 0 {
            time = time.adding(.seconds(86400))
            if !time.isWeekend { left -= 1 }
        }
        return time
    }

    /// Saturday or Sunday, UTC.
    public var isWeekend: Bool {
        let day = Int((milliseconds >= 0 ? milliseconds : milliseconds - 86_399_999) / 86_400_000)
        let weekday = ((day % 7) + 7 + 4) % 7  // 1970-01-01 was a Thursday (4); 0 is Sunday
        return weekday == 0 || weekday == 6
    }

    /// Days since 1970-01-01 (UTC): the day limits count in.
    public var dayNumber: Int {
        Int(milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000)
    }

    /// Months since year 0 (UTC): the month limits count in.
    public var monthNumber: Int {
        let p = parts
        return p.year * 12 + p.month - 1
    }

    /// The UTC calendar day, `2026-01-05`.
    public var day: String { String(iso8601.prefix(10)) }

    /// The UTC calendar month, `2026-01`.
    public var month: String { String(iso8601.prefix(7)) }

    /// Whether `lhs` comes first.
    ///
    /// - Parameters:
    ///   - lhs: A time.
    ///   - rhs: Another time.
    /// - Returns: True when `lhs` is earlier than `rhs`, to the millisecond.
    public static func < (lhs: VirtualTime, rhs: VirtualTime) -> Bool { lhs.milliseconds < rhs.milliseconds }
}
