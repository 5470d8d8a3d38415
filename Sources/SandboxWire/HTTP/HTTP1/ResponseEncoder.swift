/// Serializes a response head and body into one buffer, so it leaves in a single send.
/// The server owns framing: `Content-Length`, `Date` and `Connection` come from here, never from
/// the handler's headers (RFC 9112 §6; 204 and 304 carry neither length nor body, RFC 9110 §8.6).
enum ResponseEncoder {
    static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
    private static let ownedHeaders = ["content-length", "date", "connection", "transfer-encoding"]
    /// Status lines by status (100-599), made once: an index, not a hash, per response. Only the
    /// statuses the sandbox sends have one (empty for the others, made per response): all 500 took
    /// a twentieth of a start's instructions.
    private static let statusLines: [[UInt8]] = (100 ..< 600).map { status in
        HTTPStatus.knownReasonPhrase(status).map { Array("HTTP/1.1 \(status) \($0)\r\n".utf8) } ?? []
    }

    /// The head after the `Date` line of the last response written, and what it was written from.
    /// A loop keeps one: a run of answers alike (a route's JSON of one length, keep-alive) copies
    /// it, rather than checking and copying each field again.
    struct Head {
        private var status = -1
        private var length = -1
        private var keepAlive = false
        private var http10 = false
        private var headers = HTTPHeaders()
        private var bytes: [UInt8] = []

        /// The head's bytes after the `Date` line for these, made again when they differ from the last.
        mutating func bytes(status: Int, length: Int, headers: HTTPHeaders, keepAlive: Bool, http10: Bool) -> [UInt8] {
            guard status != self.status || length != self.length || keepAlive != self.keepAlive || http10 != self.http10
                    || headers != self.headers else { return bytes }
            self = Head(status: status, length: length, keepAlive: keepAlive, http10: http10, headers: headers, bytes: [])
            ResponseEncoder.writeFields(status: status, length: length, headers: headers, keepAlive: keepAlive, http10: http10,
                                        into: &bytes)
            return bytes
        }
    }

    /// Appends `response` to `out`. `keepAlive` decides the `Connection` header; `headOnly` (HEAD)
    /// keeps the length of the body it leaves out; `http10` asks for an explicit keep-alive.
    /// `last`: the loop's last head, reused when this one is the same.
    static func write(_ response: HTTPResponse, keepAlive: Bool, headOnly: Bool, http10: Bool,
                      dateLine: [UInt8], into out: inout [UInt8], last: inout Head) {
        out.reserveCapacity(out.count + 160 + response.body.count)
        let line = (100 ..< 600).contains(response.status) ? statusLines[response.status - 100] : []
        if !line.isEmpty {
            out.append(contentsOf: line)
        } else {
            out.append(contentsOf: "HTTP/1.1 \(response.status) \(HTTPStatus.reasonPhrase(response.status))\r\n".utf8)
        }
        out.append(contentsOf: dateLine)
        out.append(contentsOf: last.bytes(status: response.status, length: response.body.count, headers: response.headers,
                                          keepAlive: keepAlive, http10: http10))
        guard !headOnly && !isBodyless(response.status) else { return }
        // A cut answer (a `truncate` fault) keeps its whole body's Content-Length: the client sees fewer bytes, then EOF.
        if let cut = response.cutAfter { out.append(contentsOf: response.body[..<cut]) } else { out.append(contentsOf: response.body) }
    }

    /// The head after the `Date` line: length, the handler's fields, `Connection`, the blank line.
    private static func writeFields(status: Int, length: Int, headers: HTTPHeaders, keepAlive: Bool, http10: Bool,
                                    into out: inout [UInt8]) {
        if !isBodyless(status) {
            out.appendUTF8("Content-Length: ")
            out.appendDecimal(length)
            out.appendCRLF()
        }
        for field in headers where isWritable(field) {
            out.appendUTF8(field.name)
            out.appendUTF8(": ")
            out.appendUTF8(field.value)
            out.appendCRLF()
        }
        if !keepAlive {
            out.appendUTF8("Connection: close\r\n")
        } else if http10 {
            out.appendUTF8("Connection: keep-alive\r\n")
        }
        out.appendCRLF()
    }

    private static func isBodyless(_ status: Int) -> Bool {
        status == 204 || status == 304 || status < 200
    }

    /// Framing headers belong to the server, and a field that is not a token name and a value
    /// without CR, LF or NUL is dropped: echoing a decoded parameter must never split a response.
    private static func isWritable(_ field: (name: String, value: String)) -> Bool {
        HTTPHeaders.isWritable(name: field.name, value: field.value) && !ownedHeaders.contains { field.name.equalsIgnoringASCIICase($0) }
    }
}
