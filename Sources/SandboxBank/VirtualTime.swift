import Glibc

/// A point on the virtual clock: milliseconds since 1970-01-01T00:00:00Z, UTC.
public struct VirtualTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch.
    public var milliseconds: Int64

    /// The time `milliseconds` after the Unix epoch.
    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff]Z`; nil for anything else.
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
        let p = parts
        let base = "\(p.year)-\(pad(p.month))-\(pad(p.day))T\(pad(p.hour)):\(pad(p.minute)):\(pad(p.second))"
        let millis = Int(((milliseconds % 1000) + 1000) % 1000)
        return millis == 0 ? base + "Z" : base + "." + String(String(millis + 1000).dropFirst()) + "Z"
    }

    public var description: String { iso8601 }

    public static func < (lhs: VirtualTime, rhs: VirtualTime) -> Bool { lhs.milliseconds < rhs.milliseconds }

    private var parts: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        var seconds = time_t(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
        var t = tm()
        gmtime_r(&seconds, &t)
        return (Int(t.tm_year) + 1900, Int(t.tm_mon) + 1, Int(t.tm_mday), Int(t.tm_hour), Int(t.tm_min), Int(t.tm_sec))
    }

    private func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
