/// Serializes a response head and body into one buffer, so it leaves in a single send.
/// The server owns framing: `Content-Length`, `Date` and `Connection` come from here, never from
/// the handler's headers (RFC 9112 §6; 204 and 304 carry neither length nor body, RFC 9110 §8.6).
enum ResponseEncoder {
    static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
    private static let ownedHeaders = ["content-length", "date", "connection", "transfer-encoding"]
    private static let statusLines: [Int: [UInt8]] = Dictionary(uniqueKeysWithValues:
        [200, 201, 202, 204, 400, 401, 404, 405, 408, 409, 412, 413, 417, 431, 500, 501, 505].map {
            ($0, Array("HTTP/1.1 \($0) \(HTTPStatus.reasonPhrase($0))\r\n".utf8))
        })

    /// Appends `response` to `out`. `keepAlive` decides the `Connection` header; `headOnly` (HEAD)
    /// keeps the length of the body it leaves out; `http10` asks for an explicit keep-alive.
    static func write(_ response: HTTPResponse, keepAlive: Bool, headOnly: Bool, http10: Bool,
                      dateLine: [UInt8], into out: inout [UInt8]) {
        out.reserveCapacity(out.count + 160 + response.body.count)
        if let line = statusLines[response.status] {
            out.append(contentsOf: line)
        } else {
            out.append(contentsOf: "HTTP/1.1 \(response.status) \(HTTPStatus.reasonPhrase(response.status))\r\n".utf8)
        }
        out.append(contentsOf: dateLine)
        let bodyless = response.status == 204 || response.status == 304 || response.status < 200
        if !bodyless {
            out.append(contentsOf: "Content-Length: ".utf8)
            out.appendDecimal(response.body.count)
            out.append(contentsOf: "\r\n".utf8)
        }
        for field in response.headers where isWritable(field) {
            out.append(contentsOf: field.name.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: "\r\n".utf8)
        }
        if !keepAlive {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if http10 {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        out.append(contentsOf: "\r\n".utf8)
        if !headOnly && !bodyless { out.append(contentsOf: response.body) }
    }

    /// Framing headers belong to the server, and a field that is not a token name and a value
    /// without CR, LF or NUL is dropped: echoing a decoded parameter must never split a response.
    private static func isWritable(_ field: (name: String, value: String)) -> Bool {
        !field.name.isEmpty && field.name.utf8.allSatisfy(\.isTokenByte)
            && field.value.utf8.allSatisfy { $0 == .tab || ($0 >= 0x20 && $0 != 0x7F) }
            && !ownedHeaders.contains { field.name.equalsIgnoringASCIICase($0) }
    }
}
