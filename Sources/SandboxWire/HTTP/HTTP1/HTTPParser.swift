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
struct HTTPParser: Sendable {
    /// Which kind of message the stream carries.
    package enum Mode: Sendable { case request, response }

    /// What the parser found.
    enum Event: Sendable {
        /// A request's head asked for `Expect: 100-continue` and its body has not arrived yet.
        case expectContinue
        /// A complete request.
        case request(HTTPRequest)
        /// A complete response (interim 1xx responses are skipped).
        case response(HTTPResponse)
    }

    enum State: Sendable {
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(bytes: Int)
        case untilClose
    }

    struct Head: Sendable {
        var method = ""
        var target = ""
        var status = 0
        var version = HTTPVersion.http1_1
        var headers = HTTPHeaders()
    }

    let mode: Mode
    let limits: HTTPLimits
    var buffer: [UInt8] = []
    var index = 0
    /// Where the search for the blank line ending the current head resumes.
    var scanned = 0
    var state = State.head
    var head = Head()
    var body: [UInt8] = []
    /// The file the body being read goes to instead of `body`, when its route spools bodies, and
    /// how many bytes are in it.
    var spool: SpoolFile?
    var spooled = 0
    /// The body limit of the message being read (its path's, for a request).
    var bodyLimit = 0

    /// The method of the request a response answers, which decides whether it has a body (HEAD
    /// responses do not). Client side only.
    var requestMethod = "GET"

    /// Creates a parser for one connection.
    init(mode: Mode, limits: HTTPLimits = HTTPLimits()) {
        self.mode = mode
        self.limits = limits
    }

    /// Adds received bytes.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes.
    package mutating func append(_ bytes: some Sequence<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Whether no part of a message is buffered: between messages, nothing pending.
    var isIdle: Bool {
        if case .head = state { return index == buffer.count }
        return false
    }

    /// Whether the parser is waiting for a head (as opposed to a body).
    var isReadingHead: Bool {
        if case .head = state { return true }
        return false
    }

    /// The next complete message or interim event, or nil when more bytes are needed.
    package mutating func next() throws(HTTPParseError) -> Event? {
        while true {
            switch state {
            case .head:
                if mode == .request { skipEmptyLines() }
                guard let end = try findHeadEnd() else { return nil }
                head = try parseHead(from: index, to: end)
                if mode == .request, head.version == .http1_1, head.headers.fields.count(where: { $0.name.equalsIgnoringASCIICase("Host") }) != 1 {
                    throw .badRequest("an HTTP/1.1 request needs exactly one Host header")
                }
                index = end + 4
                scanned = index
                body = []
                if let event = try startBody() { return event }

            case .fixedBody(let remaining):
                let n = min(remaining, buffer.count - index)
                try keep(index ..< index + n)
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
                    guard bodyBytes + size <= bodyLimit else { throw .bodyTooLarge }
                    state = .chunkData(remaining: size)
                }

            case .chunkData(let remaining):
                let n = min(remaining, buffer.count - index)
                try keep(index ..< index + n)
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
                guard body.count + buffer.count - index <= bodyLimit else { throw .bodyTooLarge }
                body.append(contentsOf: buffer[index...])
                index = buffer.count
                return nil
            }
        }
    }

    /// Call when the peer closed its side: completes a response that is delimited by the close, and
    /// reports a message cut short. Nil when nothing was pending.
    package mutating func finish() throws(HTTPParseError) -> Event? {
        switch state {
        case .untilClose:
            return complete()
        case .head where index == buffer.count:
            return nil
        default:
            throw .badRequest("connection closed in the middle of a message")
        }
    }

    // MARK: - Output

    mutating func complete() -> Event {
        state = .head
        let body = self.body
        self.body = []
        switch mode {
        case .request:
            var request = HTTPRequest(method: head.method, target: head.target, version: head.version, headers: head.headers, body: body)
            request.spooledBody = spool.map { SpooledBody(file: $0, count: spooled) }
            spool = nil
            return .request(request)
        case .response:
            return .response(HTTPResponse(status: head.status, headers: head.headers, body: body))
        }
    }

    /// The body's bytes read so far.
    var bodyBytes: Int { spool == nil ? body.count : spooled }

    /// Adds the buffer's bytes in `range` to the body: to its file, if it is spooled.
    private mutating func keep(_ range: Range<Int>) throws(HTTPParseError) {
        guard let spool else { return body.append(contentsOf: buffer[range]) }
        try buffer.withUnsafeBufferPointer { (bytes) throws(HTTPParseError) in
            try spool.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])), at: spooled)
        }
        spooled += range.count
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
