// The request line or status line and the header fields (RFC 9112 §3, §4, §5).

import Glibc

extension HTTPParser {
    mutating func skipEmptyLines() {
        while index < buffer.count, buffer[index] == .cr || buffer[index] == .lf { index += 1 }
        scanned = max(scanned, index)
    }

    /// The offset of the `\r\n\r\n` ending the head, or nil if it has not arrived. A bare LF is
    /// refused as soon as it arrives rather than when the head is complete, which it never would be.
    mutating func findHeadEnd() throws(HTTPParseError) -> Int? {
        let found: Int? = try buffer.withUnsafeBufferPointer { (bytes) throws(HTTPParseError) -> Int? in
            var i = max(scanned, index + 1)
            while i < bytes.count, let lf = memchr(bytes.baseAddress! + i, Int32(UInt8.lf), bytes.count - i) {
                i = bytes.baseAddress!.distance(to: lf.assumingMemoryBound(to: UInt8.self))
                guard bytes[i - 1] == .cr else { throw .badRequest("line not terminated by CRLF") }
                if i >= index + 3, bytes[i - 2] == .lf, bytes[i - 3] == .cr { return i - 3 }
                i += 1
            }
            return nil
        }
        guard let found else {
            scanned = buffer.count
            if buffer.count - index > limits.maxHeaderBytes { throw .headerTooLarge }
            return nil
        }
        if found + 4 - index > limits.maxHeaderBytes { throw .headerTooLarge }
        return found
    }

    func parseHead(from start: Int, to end: Int) throws(HTTPParseError) -> Head {
        try buffer.withUnsafeBufferPointer { (bytes) throws(HTTPParseError) -> Head in
            var head = Head()
            // Room for as many fields as the last head had (a client sends the same ones again),
            // or a handful: growing from none copied the list four times for a curl request.
            head.headers.reserveCapacity(max(8, self.head.headers.count))
            var lineStart = start
            var isStartLine = true
            while lineStart <= end {
                // A line ends at its CR: every LF of the head follows a CR (findHeadEnd made sure).
                let lineEnd = memchr(bytes.baseAddress! + lineStart, Int32(UInt8.cr), end - lineStart)
                    .map { bytes.baseAddress!.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? end
                if lineEnd < end, bytes[lineEnd + 1] != .lf {
                    throw .badRequest("line not terminated by CRLF")
                }
                let line = UnsafeBufferPointer(rebasing: bytes[lineStart ..< lineEnd])
                if isStartLine {
                    if mode == .request { try parseRequestLine(line, into: &head) }
                    else { try parseStatusLine(line, into: &head) }
                    isStartLine = false
                } else {
                    guard head.headers.count < limits.maxHeaderCount else { throw .headerTooLarge }
                    try parseField(line, into: &head.headers, reusing: self.head.headers)
                }
                lineStart = lineEnd + 2
            }
            return head
        }
    }

    func parseRequestLine(_ line: UnsafeBufferPointer<UInt8>, into head: inout Head) throws(HTTPParseError) {
        // Method, target and version around the first two spaces (no array of the parts per request).
        guard let first = line.firstIndex(of: .space), let second = line[(first + 1)...].firstIndex(of: .space) else {
            throw .badRequest("malformed request line")
        }
        let (method, target) = (line[..<first], line[(first + 1) ..< second])
        guard !method.isEmpty, method.allSatisfy(\.isTokenByte) else {
            throw .badRequest("malformed request line")
        }
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .badRequest("malformed request target")
        }
        head.method = Self.string(method, reusing: self.head.method)
        head.target = Self.string(target, reusing: self.head.target)
        head.version = try parseVersion(line[(second + 1)...])
    }

    func parseStatusLine(_ line: UnsafeBufferPointer<UInt8>, into head: inout Head) throws(HTTPParseError) {
        let parts = line.split(separator: .space, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[1].count == 3, parts[1].allSatisfy(\.isDigit) else {
            throw .badRequest("malformed status line")
        }
        head.version = try parseVersion(parts[0])
        head.status = parts[1].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    func parseVersion(_ text: Slice<UnsafeBufferPointer<UInt8>>) throws(HTTPParseError) -> HTTPVersion {
        if text.elementsEqual(Self.http11) { return .http1_1 }
        if text.elementsEqual(Self.http10) { return .http1_0 }
        let t = Array(text)
        if t.count == 8, t.starts(with: "HTTP/".utf8), t[5].isDigit, t[6] == UInt8(ascii: "."), t[7].isDigit {
            throw .unsupportedVersion(String(decoding: t, as: UTF8.self))
        }
        throw .badRequest("malformed HTTP version")
    }

    /// The two versions' bytes, compared as bytes (a string's view is compared byte by byte, slowly).
    private static let (http11, http10) = (Array("HTTP/1.1".utf8), Array("HTTP/1.0".utf8))

    /// `bytes` as a string: `previous` itself when it has the same bytes (the same part of the
    /// last head: a keep-alive client sends much the same head each time), not a new one made and checked.
    static func string(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, reusing previous: String?) -> String {
        let part = UnsafeBufferPointer(rebasing: bytes)
        if let previous, previous.utf8.inPlace({
            $0.count == part.count && (part.isEmpty || memcmp($0.baseAddress!, part.baseAddress!, part.count) == 0)
        }) {
            return previous
        }
        return String(decoding: part, as: UTF8.self)
    }

    /// Adds a field line's field to `headers`; `previous`: the last head's fields, whose strings
    /// a field alike at the same place reuses.
    func parseField(_ line: UnsafeBufferPointer<UInt8>, into headers: inout HTTPHeaders,
                    reusing previous: HTTPHeaders? = nil) throws(HTTPParseError) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              line[..<colon].allSatisfy(\.isTokenByte) else {
            // Covers obs-fold (a line starting with whitespace) and whitespace before the colon.
            throw .badRequest("malformed header field")
        }
        var valueStart = colon + 1
        var valueEnd = line.count
        while valueStart < valueEnd, line[valueStart].isWhitespace { valueStart += 1 }
        while valueEnd > valueStart, line[valueEnd - 1].isWhitespace { valueEnd -= 1 }
        let value = line[valueStart ..< valueEnd]
        guard value.allSatisfy({ $0 == .tab || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw .badRequest("control character in header value")
        }
        let before = previous.flatMap { $0.fields.indices.contains(headers.count) ? $0.fields[headers.count] : nil }
        headers.add(Self.string(line[..<colon], reusing: before?.name), Self.string(value, reusing: before?.value))
    }
}
