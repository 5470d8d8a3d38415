// The request line or status line and the header fields (RFC 9112 §3, §4, §5).

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
            while i < bytes.count {
                if bytes[i] == .lf {
                    guard bytes[i - 1] == .cr else { throw .badRequest("line not terminated by CRLF") }
                    if i >= index + 3, bytes[i - 2] == .lf, bytes[i - 3] == .cr { return i - 3 }
                }
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
            var lineStart = start
            var isStartLine = true
            while lineStart <= end {
                var lineEnd = lineStart
                while lineEnd < end, bytes[lineEnd] != .cr, bytes[lineEnd] != .lf { lineEnd += 1 }
                if lineEnd < end, bytes[lineEnd] != .cr || bytes[lineEnd + 1] != .lf {
                    throw .badRequest("line not terminated by CRLF")
                }
                let line = UnsafeBufferPointer(rebasing: bytes[lineStart ..< lineEnd])
                if isStartLine {
                    if mode == .request { try parseRequestLine(line, into: &head) }
                    else { try parseStatusLine(line, into: &head) }
                    isStartLine = false
                } else {
                    guard head.headers.count < limits.maxHeaderCount else { throw .headerTooLarge }
                    try parseField(line, into: &head.headers)
                }
                lineStart = lineEnd + 2
            }
            return head
        }
    }

    func parseRequestLine(_ line: UnsafeBufferPointer<UInt8>, into head: inout Head) throws(HTTPParseError) {
        let parts = line.split(separator: .space, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(\.isTokenByte) else {
            throw .badRequest("malformed request line")
        }
        guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .badRequest("malformed request target")
        }
        head.method = String(decoding: parts[0], as: UTF8.self)
        head.target = String(decoding: parts[1], as: UTF8.self)
        head.version = try parseVersion(parts[2])
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
        if text.elementsEqual("HTTP/1.1".utf8) { return .http1_1 }
        if text.elementsEqual("HTTP/1.0".utf8) { return .http1_0 }
        let t = Array(text)
        if t.count == 8, t.starts(with: "HTTP/".utf8), t[5].isDigit, t[6] == UInt8(ascii: "."), t[7].isDigit {
            throw .unsupportedVersion(String(decoding: t, as: UTF8.self))
        }
        throw .badRequest("malformed HTTP version")
    }

    func parseField(_ line: UnsafeBufferPointer<UInt8>, into headers: inout HTTPHeaders) throws(HTTPParseError) {
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
        headers.add(String(decoding: line[..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self))
    }
}
