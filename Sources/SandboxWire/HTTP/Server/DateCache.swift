import Glibc

/// The `Date` header (RFC 9110 §5.6.7, IMF-fixdate) and a log timestamp, formatted once a second.
/// One per event loop, so reading it needs no lock.
struct DateCache {
    /// `Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n`, ready to copy into a response head.
    private(set) var headerLine: [UInt8] = []
    /// `Sun, 06 Nov 1994 08:49:37 GMT`, the field's value (HTTP/2 sends it through HPACK).
    private(set) var value = ""
    /// `1994-11-06T08:49:37Z`, for access-log lines.
    private(set) var timestamp = ""
    private var second: time_t = -1

    /// Reformats when the wall-clock second has changed.
    mutating func update() {
        let now = time(nil)
        guard now != second else { return }
        second = now
        var t = now
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let year = Int(parts.tm_year) + 1900
        let (mon, day, h, m, s) = (Int(parts.tm_mon), Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        let date = "\(days[Int(parts.tm_wday)]), \(pad(day)) \(months[mon]) \(year) \(pad(h)):\(pad(m)):\(pad(s)) GMT"
        value = date
        headerLine = Array("Date: \(date)\r\n".utf8)
        timestamp = "\(year)-\(pad(mon + 1))-\(pad(day))T\(pad(h)):\(pad(m)):\(pad(s))Z"
    }

    private func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
