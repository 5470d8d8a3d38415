// Incremental HTTP/1.1 message parser, RFC 9112.
//
// Bytes arrive in any split (one at a time, or several pipelined requests per read); `append` them,
// then call `next()` until it returns nil. Messages come out whole, in order, body included.
// Framing follows RFC 9112 §6: a request with both Content-Length and Transfer-Encoding is refused
// (request smuggling); `chunked` is the only transfer coding understood; a response without either
// is read until the connection closes (`finish()`). Empty lines before a request line are ignored
// (§2.2). Limits are checked as bytes arrive: the parser never buffers more than the header limit
// while looking for the end of a head, and refuses a declared body over the limit before reading it.

/// Parses requests (server side) or responses (client side) from a byte stream.
///
/// ```swift
/// var parser = HTTPParser(mode: .request)
/// parser.append(bytes)
/// while let event = try parser.next() { ... }
/// ```
public struct HTTPParser: Sendable {
    /// Which kind of message the stream carries.
    public enum Mode: Sendable { case request, response }

    /// What the parser found.
    public enum Event: Sendable {
        /// A request's head asked for `Expect: 100-continue` and its body has not arrived yet.
        case expectContinue
        /// A complete request.
        case request(HTTPRequest)
        /// A complete response (interim 1xx responses are skipped).
        case response(HTTPResponse)
    }

    private enum State: Sendable {
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(bytes: Int)
        case untilClose
    }

    private struct Head: Sendable {
        var method = ""
        var target = ""
        var status = 0
        var version = HTTPVersion.http1_1
        var headers = HTTPHeaders()
    }

    private let mode: Mode
    private let limits: HTTPLimits
    private var buffer: [UInt8] = []
    private var index = 0
    /// Where the search for the blank line ending the current head resumes.
    private var scanned = 0
    private var state = State.head
    private var head = Head()
    private var body: [UInt8] = []

    /// The method of the request a response answers, which decides whether it has a body (HEAD
    /// responses do not). Client side only.
    public var requestMethod = "GET"

    /// Creates a parser for one connection.
    public init(mode: Mode, limits: HTTPLimits = HTTPLimits()) {
        self.mode = mode
        self.limits = limits
    }

    /// Adds received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Whether no part of a message is buffered: between messages, nothing pending.
    public var isIdle: Bool {
        if case .head = state { return index == buffer.count }
        return false
    }

    /// Whether the parser is waiting for a head (as opposed to a body).
    public var isReadingHead: Bool {
        if case .head = state { return true }
        return false
    }

    /// The next complete message or interim event, or nil when more bytes are needed.
    public mutating func next() throws(HTTPParseError) -> Event? {
        while true {
            switch state {
            case .head:
                if mode == .request { skipEmptyLines() }
                guard let end = try findHeadEnd() else { return nil }
                head = try parseHead(from: index, to: end)
                if mode == .request, head.version == .http1_1, head.headers.values(for: "Host").count != 1 {
                    throw .badRequest("an HTTP/1.1 request needs exactly one Host header")
                }
                index = end + 4
                scanned = index
                body = []
                if let event = try startBody() { return event }

            case .fixedBody(let remaining):
                let n = min(remaining, buffer.count - index)
                body.append(contentsOf: buffer[index ..< index + n])
                index += n
                if n < remaining {
                    state = .fixedBody(remaining: remaining - n)
                    return nil
                }
                return complete()

            case .chunkSize:
                guard let lineEnd = try findCRLF(maxLength: 1024, tooLong: .badRequest("chunk size line too long")) else {
                    return nil
                }
                let size = try parseChunkSize(from: index, to: lineEnd)
                index = lineEnd + 2
                if size == 0 {
                    state = .trailers(bytes: 0)
                } else {
                    guard body.count + size <= limits.maxBodyBytes else { throw .bodyTooLarge }
                    state = .chunkData(remaining: size)
                }

            case .chunkData(let remaining):
                let n = min(remaining, buffer.count - index)
                body.append(contentsOf: buffer[index ..< index + n])
                index += n
                guard n == remaining else {
                    state = .chunkData(remaining: remaining - n)
                    return nil
                }
                state = .chunkDataEnd

            case .chunkDataEnd:
                guard buffer.count - index >= 2 else { return nil }
                guard buffer[index] == .cr, buffer[index + 1] == .lf else {
                    throw .badRequest("chunk data not followed by CRLF")
                }
                index += 2
                state = .chunkSize

            case .trailers(let seen):
                guard let lineEnd = try findCRLF(maxLength: limits.maxHeaderBytes - seen, tooLong: .headerTooLarge) else {
                    return nil
                }
                let length = lineEnd - index
                if length > 0 {
                    // Trailer fields are validated like header fields, then dropped.
                    var ignored = HTTPHeaders()
                    try buffer.withUnsafeBufferPointer { (bytes) throws(HTTPParseError) in
                        try parseField(UnsafeBufferPointer(rebasing: bytes[index ..< lineEnd]), into: &ignored)
                    }
                }
                index = lineEnd + 2
                if length == 0 { return complete() }
                state = .trailers(bytes: seen + length + 2)

            case .untilClose:
                guard body.count + buffer.count - index <= limits.maxBodyBytes else { throw .bodyTooLarge }
                body.append(contentsOf: buffer[index...])
                index = buffer.count
                return nil
            }
        }
    }

    /// Call when the peer closed its side: completes a response that is delimited by the close, and
    /// reports a message cut short. Nil when nothing was pending.
    public mutating func finish() throws(HTTPParseError) -> Event? {
        switch state {
        case .untilClose:
            return complete()
        case .head where index == buffer.count:
            return nil
        default:
            throw .badRequest("connection closed in the middle of a message")
        }
    }

    // MARK: - Head

    private mutating func skipEmptyLines() {
        while index < buffer.count, buffer[index] == .cr || buffer[index] == .lf { index += 1 }
        scanned = max(scanned, index)
    }

    /// The offset of the `\r\n\r\n` ending the head, or nil if it has not arrived. A bare LF is
    /// refused as soon as it arrives rather than when the head is complete, which it never would be.
    private mutating func findHeadEnd() throws(HTTPParseError) -> Int? {
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

    private func parseHead(from start: Int, to end: Int) throws(HTTPParseError) -> Head {
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

    private func parseRequestLine(_ line: UnsafeBufferPointer<UInt8>, into head: inout Head) throws(HTTPParseError) {
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

    private func parseStatusLine(_ line: UnsafeBufferPointer<UInt8>, into head: inout Head) throws(HTTPParseError) {
        let parts = line.split(separator: .space, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[1].count == 3, parts[1].allSatisfy(\.isDigit) else {
            throw .badRequest("malformed status line")
        }
        head.version = try parseVersion(parts[0])
        head.status = parts[1].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private func parseVersion(_ text: Slice<UnsafeBufferPointer<UInt8>>) throws(HTTPParseError) -> HTTPVersion {
        if text.elementsEqual("HTTP/1.1".utf8) { return .http1_1 }
        if text.elementsEqual("HTTP/1.0".utf8) { return .http1_0 }
        let t = Array(text)
        if t.count == 8, t.starts(with: "HTTP/".utf8), t[5].isDigit, t[6] == UInt8(ascii: "."), t[7].isDigit {
            throw .unsupportedVersion(String(decoding: t, as: UTF8.self))
        }
        throw .badRequest("malformed HTTP version")
    }

    private func parseField(_ line: UnsafeBufferPointer<UInt8>, into headers: inout HTTPHeaders) throws(HTTPParseError) {
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

    // MARK: - Body framing (RFC 9112 §6.3)

    /// Chooses how the body is delimited; returns an event when there is one to report right away.
    private mutating func startBody() throws(HTTPParseError) -> Event? {
        if mode == .response {
            if head.status < 200 {
                state = .head  // interim response: the real one follows
                return nil
            }
            if requestMethod == "HEAD" || head.status == 204 || head.status == 304 { return complete() }
        }
        let codings = head.headers.contains("Transfer-Encoding") ? head.headers.values(for: "Transfer-Encoding") : []
        let lengths = head.headers.contains("Content-Length") ? head.headers.values(for: "Content-Length") : []
        if !codings.isEmpty {
            guard lengths.isEmpty else { throw .badRequest("both Content-Length and Transfer-Encoding") }
            let list = codings.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces().lowercased() }
            if list == ["chunked"] {
                state = .chunkSize
            } else if list.last == "chunked" {
                throw .unsupportedTransferEncoding(list.joined(separator: ", "))
            } else if mode == .request {
                throw .badRequest("Transfer-Encoding must end with chunked")
            } else {
                state = .untilClose
                return nil
            }
        } else if !lengths.isEmpty {
            let length = try parseContentLength(lengths)
            guard length <= limits.maxBodyBytes else { throw .bodyTooLarge }
            if length == 0 { return complete() }
            state = .fixedBody(remaining: length)
        } else if mode == .response {
            state = .untilClose
            return nil
        } else {
            return complete()
        }
        if mode == .request, let expect = head.headers["Expect"] {
            guard expect.equalsIgnoringASCIICase("100-continue") else { throw .expectationFailed(expect) }
            if head.version == .http1_1, index == buffer.count { return .expectContinue }
        }
        return nil
    }

    private func parseContentLength(_ values: [String]) throws(HTTPParseError) -> Int {
        var length: Int?
        for item in values.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let digits = item.trimmingSpaces()
            guard !digits.isEmpty, digits.utf8.count <= 18, digits.utf8.allSatisfy(\.isDigit),
                  let value = Int(digits), length == nil || length == value else {
                throw .badRequest("invalid Content-Length")
            }
            length = value
        }
        return length ?? 0
    }

    private func parseChunkSize(from start: Int, to end: Int) throws(HTTPParseError) -> Int {
        var size = 0
        var i = start
        while i < end, let digit = buffer[i].hexValue {
            guard i - start < 15 else { throw .badRequest("chunk size too long") }
            size = size << 4 | Int(digit)
            i += 1
        }
        guard i > start else { throw .badRequest("malformed chunk size") }
        while i < end, buffer[i].isWhitespace { i += 1 }
        guard i == end || buffer[i] == UInt8(ascii: ";") else { throw .badRequest("malformed chunk size") }
        // Extensions are ignored, but only visible characters and blanks may make them up: a CR,
        // LF or NUL inside is how differently-lenient parsers get smuggled past each other.
        guard buffer[i ..< end].allSatisfy({ $0 == .tab || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw .badRequest("malformed chunk extension")
        }
        return size
    }

    /// The offset of the next CRLF, nil while it has not arrived, or `tooLong` once `maxLength`
    /// bytes have come without one.
    private func findCRLF(maxLength: Int, tooLong: HTTPParseError) throws(HTTPParseError) -> Int? {
        var i = index
        while i + 1 < buffer.count {
            if buffer[i] == .cr, buffer[i + 1] == .lf { return i }
            i += 1
        }
        if buffer.count - index > maxLength { throw tooLong }
        return nil
    }

    // MARK: - Output

    private mutating func complete() -> Event {
        state = .head
        let body = self.body
        self.body = []
        switch mode {
        case .request:
            return .request(HTTPRequest(method: head.method, target: head.target, version: head.version,
                                        headers: head.headers, body: body))
        case .response:
            return .response(HTTPResponse(status: head.status, headers: head.headers, body: body))
        }
    }

    /// Drops consumed bytes so the buffer does not grow across a long keep-alive connection.
    private mutating func compact() {
        guard index > 0 else { return }
        if index == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else if index >= 4096 {
            buffer.removeSubrange(0 ..< index)
        } else {
            return
        }
        scanned -= index
        index = 0
    }
}

extension UInt8 {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    var isDigit: Bool { self >= 0x30 && self <= 0x39 }
    var isWhitespace: Bool { self == .space || self == .tab }

    var hexValue: UInt8? {
        switch self {
        case 0x30...0x39: self - 0x30
        case 0x41...0x46: self - 0x41 + 10
        case 0x61...0x66: self - 0x61 + 10
        default: nil
        }
    }

    /// `tchar` of RFC 9110 §5.6.2: the characters of methods and header names.
    var isTokenByte: Bool {
        switch self {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
