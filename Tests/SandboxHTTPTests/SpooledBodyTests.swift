import Glibc
import Testing
@testable import SandboxWire

/// Bodies of the routes in `HTTPLimits.spooledBodyRoutes` go to a temporary file as they arrive
/// (`HTTPRequest.spooledBody`), whatever their framing and however the bytes are split; other
/// routes' bodies stay in memory; the route's limit holds.
@Suite struct SpooledBodyTests {
    static var limits: HTTPLimits {
        var limits = HTTPLimits()
        limits.maxBodyBytes = 16
        limits.bodyLimitsByRoute["PUT /upload"] = 1000
        limits.spooledBodyRoutes = ["PUT /upload"]
        return limits
    }

    static let body = (0 ..< 300).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    /// `text` then `body` fed to a parser in pieces of `split` bytes.
    private static func requests(_ head: String, _ body: [UInt8], split: Int, limits: HTTPLimits = limits) throws(HTTPParseError) -> [HTTPRequest] {
        var parser = HTTPParser(mode: .request, limits: limits)
        let bytes = Array(head.utf8) + body
        var requests: [HTTPRequest] = []
        for start in stride(from: 0, to: bytes.count, by: split) {
            parser.append(bytes[start ..< min(start + split, bytes.count)])
            while let event = try parser.next() { if case .request(let request) = event { requests.append(request) } }
        }
        return requests
    }

    private static func chunked(_ body: [UInt8]) -> [UInt8] {
        stride(from: 0, to: body.count, by: 77).flatMap { start in
            let chunk = body[start ..< min(start + 77, body.count)]
            return Array("\(String(chunk.count, radix: 16))\r\n".utf8) + chunk + Array("\r\n".utf8)
        } + Array("0\r\n\r\n".utf8)
    }

    @Test(arguments: [1, 2, 7, 64, 10_000])
    func aSpooledBodyIsInItsFileWhateverItsFramingAndSplits(split: Int) throws {
        let next = "GET /after HTTP/1.1\r\nHost: t\r\n\r\n"
        let fixed = try Self.requests("PUT /upload?x=1 HTTP/1.1\r\nHost: t\r\nContent-Length: 300\r\n\r\n", Self.body + Array(next.utf8),
                                      split: split)
        let chunked = try Self.requests("PUT /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n",
                                        Self.chunked(Self.body) + Array(next.utf8), split: split)
        for requests in [fixed, chunked] {
            #expect(requests.map(\.target).last == "/after")
            let upload = try #require(requests.first)
            #expect(upload.body.isEmpty)
            let spooled = try #require(upload.spooledBody)
            #expect(spooled.count == 300 && readAll(spooled) == Self.body)
            #expect(requests.last?.spooledBody == nil)
        }
    }

    @Test func otherRoutesKeepTheirBodiesInMemory() throws {
        let request = try #require(try Self.requests("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\n", Array("hello".utf8),
                                                     split: 3).first)
        #expect(request.spooledBody == nil && request.body == Array("hello".utf8))
        let empty = try #require(try Self.requests("PUT /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n", [], split: 100).first)
        #expect(empty.spooledBody == nil && empty.body.isEmpty, "nothing to spool")
    }

    @Test func aSpooledBodyOverItsRoutesLimitIs413() {
        #expect(throws: HTTPParseError.bodyTooLarge) {
            try Self.requests("PUT /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 1001\r\n\r\n", [], split: 100)
        }
        #expect(throws: HTTPParseError.bodyTooLarge) {
            try Self.requests("PUT /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n",
                              Self.chunked(Self.body + Self.body + Self.body + Self.body), split: 100)
        }
    }

    @Test func aBodyThatCannotBeStoredIs500() throws {
        var limits = Self.limits
        limits.spoolDirectory = "/nonexistent-cashout-sandbox-dir"
        let error = try #require(throws: HTTPParseError.self) {
            try Self.requests("PUT /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\n", [1, 2, 3], split: 100, limits: limits)
        }
        #expect(error.status == 500)
        #expect(error.description == "the request body could not be stored: /nonexistent-cashout-sandbox-dir: No such file or directory")
    }

    /// Over a socket: the handler reads the file; an upload that stops halfway holds up nobody.
    @Test func aSlowUploadIsSpooledWhileOtherClientsAreAnswered() throws {
        let server = try startTestServer { $0.limits = Self.limits }
        defer { server.stop() }
        let upload = try RawConnection(port: server.port)
        upload.send(Array("PUT /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 300\r\n\r\n".utf8) + Self.body.prefix(100))
        let other = try RawConnection(port: server.port)
        other.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try other.readResponse().bodyText == "hello")
        upload.send(Array(Self.body.dropFirst(100)))
        let answer = try upload.readResponse()
        #expect(answer.headers["X-Spooled"] == "yes" && answer.body == Self.body)
        upload.send(Array("PUT /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n".utf8) + Self.chunked(Self.body))
        #expect(try upload.readResponse().body == Self.body)
    }
}
