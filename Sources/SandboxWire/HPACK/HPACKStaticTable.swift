// The static table, RFC 7541 Appendix A (and §2.3.1: indexes 1 to 61).

/// The 61 predefined header fields, and dictionaries to find them without a scan.
enum HPACKStaticTable {
    /// The entries in order: index `i` (1-based) is `entries[i - 1]`.
    static let entries: [HPACKHeader] = [
        HPACKHeader(":authority", ""),
        HPACKHeader(":method", "GET"),
        HPACKHeader(":method", "POST"),
        HPACKHeader(":path", "/"),
        HPACKHeader(":path", "/index.html"),
        HPACKHeader(":scheme", "http"),
        HPACKHeader(":scheme", "https"),
        HPACKHeader(":status", "200"),
        HPACKHeader(":status", "204"),
        HPACKHeader(":status", "206"),
        HPACKHeader(":status", "304"),
        HPACKHeader(":status", "400"),
        HPACKHeader(":status", "404"),
        HPACKHeader(":status", "500"),
        HPACKHeader("accept-charset", ""),
        HPACKHeader("accept-encoding", "gzip, deflate"),
        HPACKHeader("accept-language", ""),
        HPACKHeader("accept-ranges", ""),
        HPACKHeader("accept", ""),
        HPACKHeader("access-control-allow-origin", ""),
        HPACKHeader("age", ""),
        HPACKHeader("allow", ""),
        HPACKHeader("authorization", ""),
        HPACKHeader("cache-control", ""),
        HPACKHeader("content-disposition", ""),
        HPACKHeader("content-encoding", ""),
        HPACKHeader("content-language", ""),
        HPACKHeader("content-length", ""),
        HPACKHeader("content-location", ""),
        HPACKHeader("content-range", ""),
        HPACKHeader("content-type", ""),
        HPACKHeader("cookie", ""),
        HPACKHeader("date", ""),
        HPACKHeader("etag", ""),
        HPACKHeader("expect", ""),
        HPACKHeader("expires", ""),
        HPACKHeader("from", ""),
        HPACKHeader("host", ""),
        HPACKHeader("if-match", ""),
        HPACKHeader("if-modified-since", ""),
        HPACKHeader("if-none-match", ""),
        HPACKHeader("if-range", ""),
        HPACKHeader("if-unmodified-since", ""),
        HPACKHeader("last-modified", ""),
        HPACKHeader("link", ""),
        HPACKHeader("location", ""),
        HPACKHeader("max-forwards", ""),
        HPACKHeader("proxy-authenticate", ""),
        HPACKHeader("proxy-authorization", ""),
        HPACKHeader("range", ""),
        HPACKHeader("referer", ""),
        HPACKHeader("refresh", ""),
        HPACKHeader("retry-after", ""),
        HPACKHeader("server", ""),
        HPACKHeader("set-cookie", ""),
        HPACKHeader("strict-transport-security", ""),
        HPACKHeader("transfer-encoding", ""),
        HPACKHeader("user-agent", ""),
        HPACKHeader("vary", ""),
        HPACKHeader("via", ""),
        HPACKHeader("www-authenticate", ""),
    ]

    /// The number of entries; dynamic table indexes start after it.
    static let count = 61

    /// The index of each (name, value) pair.
    static let exact: [HPACKHeader: Int] = {
        var exact: [HPACKHeader: Int] = [:]
        for (offset, entry) in entries.enumerated() { exact[entry] = offset + 1 }
        return exact
    }()

    /// The lowest index of each name.
    static let names: [String: Int] = {
        var names: [String: Int] = [:]
        for (offset, entry) in entries.enumerated() where names[entry.name] == nil { names[entry.name] = offset + 1 }
        return names
    }()
}
