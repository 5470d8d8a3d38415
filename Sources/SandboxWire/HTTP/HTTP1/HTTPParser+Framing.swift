// How long a body is and how it is delimited (RFC 9112 §6, §7): Content-Length, chunked, or
// (responses only) until the connection closes.

extension HTTPParser {
    /// Chooses how the body is delimited; returns an event when there is one to report right away.
    mutating func startBody() throws(HTTPParseError) -> Event? {
        bodyLimit = limits.maxBodyBytes
        if mode == .response {
            if head.status < 200 {
                state = .head  // interim response: the real one follows
                return nil
            }
            if requestMethod == "HEAD" || head.status == 204 || head.status == 304 { return complete() }
        }
        // The framing fields, in one pass (most requests have one Content-Length or none).
        var (codings, lengths): ([String], [String]) = ([], [])
        for field in head.headers {
            if field.name.equalsIgnoringASCIICase("Content-Length") {
                lengths.append(field.value)
            } else if field.name.equalsIgnoringASCIICase("Transfer-Encoding") {
                codings.append(field.value)
            }
        }
        // A request's route may have rules of its own, looked up only when it declares a body
        // (not for the GETs that declare none).
        var spools = false
        if mode == .request, !codings.isEmpty || !lengths.isEmpty {
            (bodyLimit, spools) = limits.body(method: head.method, target: head.target)
        }
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
            guard length <= bodyLimit else { throw .bodyTooLarge }
            if length == 0 { return complete() }
            state = .fixedBody(remaining: length)
        } else if mode == .response {
            state = .untilClose
            return nil
        } else {
            return complete()
        }
        if spools {
            spool = try SpoolFile(in: limits.spoolDirectory)
            spooled = 0
        }
        if mode == .request, let expect = head.headers["Expect"] {
            guard expect.equalsIgnoringASCIICase("100-continue") else { throw .expectationFailed(expect) }
            if head.version == .http1_1, index == buffer.count { return .expectContinue }
        }
        return nil
    }

    func parseContentLength(_ values: [String]) throws(HTTPParseError) -> Int {
        // Nearly always one value of digits alone, read as it is.
        if values.count == 1, let length = values[0].utf8.inPlace(Self.plainLength) { return length }
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

    /// The value of 1 to 18 digits alone, else nil (for the general reading).
    private static func plainLength(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
        guard (1 ... 18).contains(digits.count) else { return nil }
        var value = 0
        for digit in digits {
            guard digit.isDigit else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }

    func parseChunkSize(from start: Int, to end: Int) throws(HTTPParseError) -> Int {
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
    ///
    /// The limit is the same however the bytes arrived: a line over `maxLength` is refused whether
    /// its CRLF came with it or not (found by fuzzing: a complete long line used to pass).
    func findCRLF(maxLength: Int, tooLong: HTTPParseError) throws(HTTPParseError) -> Int? {
        var i = index
        while i + 1 < buffer.count {
            if buffer[i] == .cr, buffer[i + 1] == .lf {
                if i - index > maxLength { throw tooLong }
                return i
            }
            i += 1
        }
        // Bytes of the line so far; a last CR may yet start its CRLF.
        let pending = buffer.count - index - (buffer.last == .cr ? 1 : 0)
        if pending > maxLength { throw tooLong }
        return nil
    }
}
