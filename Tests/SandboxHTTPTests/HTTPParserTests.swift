import Testing
@testable public import SandboxWire

/// Feeds `text` to a request parser in pieces of `split` bytes and collects every event.
private func parse(_ text: String, split: Int = .max, limits: HTTPLimits = HTTPLimits(),
                   mode: HTTPParser.Mode = .request) throws(HTTPParseError) -> [HTTPParser.Event] {
    var parser = HTTPParser(mode: mode, limits: limits)
    var events: [HTTPParser.Event] = []
    let bytes = Array(text.utf8)
    var offset = 0
    repeat {
        let end = min(bytes.count, offset + max(split, 1))
        parser.append(bytes[offset ..< end])
        offset = end
        while let event = try parser.next() { events.append(event) }
    } while offset < bytes.count
    if mode == .response, let last = try parser.finish() { events.append(last) }
    return events
}

private func requests(_ events: [HTTPParser.Event]) -> [HTTPRequest] {
    events.compactMap { if case .request(let r) = $0 { r } else { nil } }
}

private func parseError(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPParseError? {
    do { _ = try parse(text, limits: limits); return nil } catch { return error }
}

@Suite struct HTTPParserTests {
    static let postWithBody = "POST /v3/cashout?x=1 HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"a\":\"b "
                              + "c\"}"

    /// The parser's token bits are constants: they must be exactly RFC 9110's `tchar` list, and every
    /// byte is judged by them (a header name with any other byte is refused).
    @Test func tokenBytesAreExactlyTheTcharList() {
        let listed = Set(UInt8.tokenCharacters.utf8)
        for byte in UInt8.min ... UInt8.max {
            #expect(byte.isTokenByte == listed.contains(byte), "byte \(byte)")
        }
        #expect(parseError("GET / HTTP/1.1\r\nHost: a\r\nBad\u{7F}Name: x\r\n\r\n") != nil)
        #expect(parseError("GET / HTTP/1.1\r\nHost: a\r\nGood!Name~: x\r\n\r\n") == nil)
    }

    @Test func parsesRequestLineHeadersAndBody() throws {
        let request = try #require(requests(try parse(Self.postWithBody)).first)
        #expect(request.method == "POST")
        #expect(request.target == "/v3/cashout?x=1")
        #expect(request.path == "/v3/cashout")
        #expect(request.queryString == "x=1")
        #expect(request.version == .http1_1)
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers.count == 3)
        #expect(request.body == Array("{\"a\":\"b c\"}".utf8))
    }

    @Test(arguments: [1, 2, 3, 7, 16])
    func byteAtATimeAndOddSplitsGiveTheSameRequest(split: Int) throws {
        let whole = try #require(requests(try parse(Self.postWithBody)).first)
        let pieces = requests(try parse(Self.postWithBody, split: split))
        #expect(pieces.count == 1)
        #expect(pieces.first?.body == whole.body)
        #expect(pieces.first?.headers == whole.headers)
    }

    @Test func severalRequestsInOneReadComeOutInOrder() throws {
        let text = "GET /1 HTTP/1.1\r\nHost: t\r\n\r\n" + Self.postWithBody + "GET /3 HTTP/1.1\r\nHost: a\r\n\r\n"
        #expect(requests(try parse(text)).map(\.target) == ["/1", "/v3/cashout?x=1", "/3"])
        #expect(requests(try parse(text, split: 1)).map(\.target) == ["/1", "/v3/cashout?x=1", "/3"])
    }

    @Test func extraCarriageReturnsBetweenSubsequentRequestsAreIgnored() throws {
        let text = "GET /1 HTTP/1.1\r\nHost: t\r\n\r\n\r\n\r\nGET /2 HTTP/1.1\r\nHost: t\r\n\r\n"
        #expect(requests(try parse(text)).map(\.target) == ["/1", "/2"])
    }

    @Test(arguments: [1, 5, 1000])
    func chunkedBodyIsDecodedWithExtensionsAndTrailers(split: Int) throws {
        let text = "POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n5 \r\npedia\r\nE\r\n "
                   + "in\r\n\r\nchunks.\r\n0\r\nX-Trailer: t\r\n\r\nGET /next HTTP/1.1\r\nHost: t\r\n\r\n"
        let parsed = requests(try parse(text, split: split))
        #expect(parsed.map(\.target) == ["/c", "/next"])
        #expect(parsed.first?.body == Array("Wikipedia in\r\n\r\nchunks.".utf8))
    }

    @Test func expectContinueIsReportedBeforeTheBody() throws {
        var parser = HTTPParser(mode: .request)
        parser.append(Array("PUT /x HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n".utf8))
        guard case .expectContinue? = try parser.next() else { Issue.record("no expectContinue"); return }
        #expect(try parser.next() == nil)
        parser.append(Array("abc".utf8))
        guard case .request(let request)? = try parser.next() else { Issue.record("no request"); return }
        #expect(request.body == Array("abc".utf8))
    }

    @Test func expectContinueIsNotReportedWhenTheBodyIsAlreadyThere() throws {
        let events = try parse("PUT /x HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc")
        #expect(events.count == 1)
        #expect(requests(events).count == 1)
    }

    @Test func http10RequestsMayUseChunkedBodies() throws {
        let request = try #require(requests(try parse("POST /x HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n")).first)
        #expect(request.body == Array("ok".utf8))
        #expect(!request.keepAlive)
    }

    @Test func http10AndKeepAliveRules() throws {
        let parsed = requests(try parse("GET / HTTP/1.0\r\n\r\nGET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\nGET / HTTP/1.1\r\nHost: "
                                        + "t\r\nConnection: close\r\n\r\nGET / HTTP/1.1\r\nHost: t\r\n\r\n"))
        #expect(parsed.map(\.version) == [.http1_0, .http1_0, .http1_1, .http1_1])
        #expect(parsed.map(\.keepAlive) == [false, true, false, true])
    }

    @Test func idleStateFollowsTheBytes() throws {
        var parser = HTTPParser(mode: .request)
        #expect(parser.isIdle)
        parser.append(Array("GET / HT".utf8))
        #expect(try parser.next() == nil)
        #expect(!parser.isIdle && parser.isReadingHead)
        parser.append(Array("TP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n".utf8))
        #expect(try parser.next() == nil)
        #expect(!parser.isIdle && !parser.isReadingHead)
        parser.append(Array("ok".utf8))
        #expect(try parser.next() != nil)
        #expect(parser.isIdle)
    }

    // MARK: - Refusals

    @Test(arguments: [
        "GET /\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1 \r\n\r\n", "G(T / HTTP/1.1\r\n\r\n",
        "GET / http/1.1\r\n\r\n", "GET / HTTP/1.1\nHost: a\r\n\r\n", "GET /a\u{7}b HTTP/1.1\r\n\r\n",
        " GET / HTTP/1.1\r\nHost: t\r\n\r\n",
    ])
    func malformedRequestLinesAre400(text: String) {
        #expect(parseError(text)?.status == 400)
    }

    @Test(arguments: [
        "Host : a", "Host", ": a", " folded: yes", "Bad\u{1}Name: a", "Host: a\u{0}b", "Host: a\rb",
    ])
    func malformedHeaderFieldsAre400(field: String) {
        #expect(parseError("GET / HTTP/1.1\r\nHost: t\r\nX: ok\r\n\(field)\r\n\r\n")?.status == 400)
    }

    @Test func bothContentLengthAndTransferEncodingAre400() {
        let error = parseError("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc")
        #expect(error == .badRequest("both Content-Length and Transfer-Encoding"))
        #expect(error?.status == 400)
    }

    @Test func transferCodingsOtherThanChunkedAreRefused() {
        #expect(parseError("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")?.status == 501)
        #expect(parseError("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked, gzip\r\n\r\n")?.status == 400)
        #expect(parseError("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\n\r\n")?.status == 400)
    }

    @Test(arguments: ["abc", "-1", "1 2", "+5", "3, 4", "99999999999999999999"])
    func invalidOrConflictingContentLengthIs400(value: String) {
        #expect(parseError("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: \(value)\r\n\r\n") == .badRequest("invalid Content-Length"))
    }

    @Test func repeatedIdenticalContentLengthIsAccepted() throws {
        #expect(requests(try parse("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok")).first?.body == Array("ok".utf8))
    }

    @Test func headerSectionOver16KiBIs431WhetherOrNotItEnds() {
        let big = String(repeating: "a", count: 16 * 1024)
        #expect(parseError("GET / HTTP/1.1\r\nHost: t\r\nX: \(big)\r\n\r\n") == .headerTooLarge)
        #expect(parseError("GET / HTTP/1.1\r\nHost: t\r\nX: \(big)") == .headerTooLarge)
        let justFits = String(repeating: "a", count: 16 * 1024 - 37)
        #expect(parseError("GET / HTTP/1.1\r\nHost: t\r\nX: \(justFits)\r\n\r\n") == nil)
    }

    @Test func tooManyHeaderFieldsIs431() {
        var limits = HTTPLimits()
        limits.maxHeaderCount = 5
        let fields = (1 ... 6).map { "X-\($0): v\r\n" }.joined()
        #expect(parseError("GET / HTTP/1.1\r\nHost: t\r\n\(fields)\r\n", limits: limits) == .headerTooLarge)
    }

    @Test func declaredBodyOverTheLimitIs413BeforeTheBodyArrives() {
        var limits = HTTPLimits()
        limits.maxBodyBytes = 10
        #expect(parseError("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 11\r\n\r\n", limits: limits) == .bodyTooLarge)
        #expect(parseError("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\n0123456789", limits: limits) == nil)
    }

    @Test func chunkedBodyOverTheLimitIs413() {
        var limits = HTTPLimits()
        limits.maxBodyBytes = 10
        #expect(parseError("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n012345\r\n5\r\n", limits: limits) == .bodyTooLarge)
    }

    @Test(arguments: ["zz\r\n", ";x\r\n", "1 1\r\n", "12345678901234567\r\n"])
    func malformedChunkSizesAre400(line: String) {
        #expect(parseError("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n\(line)")?.status == 400)
    }

    @Test func chunkDataMustEndWithCRLF() {
        #expect(parseError("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokX\r\n") == .badRequest("chunk data not followed "
                + "by CRLF"))
    }

    @Test func otherHTTPVersionsAre505() {
        #expect(parseError("GET / HTTP/2.0\r\n\r\n") == .unsupportedVersion("HTTP/2.0"))
        #expect(parseError("GET / HTTP/0.9\r\n\r\n")?.status == 505)
    }

    @Test func unknownExpectationIs417() {
        #expect(parseError("POST / HTTP/1.1\r\nHost: t\r\nExpect: magic\r\nContent-Length: 1\r\n\r\nx")?.status == 417)
    }

    @Test func http11NeedsExactlyOneHostButHTTP10DoesNot() throws {
        #expect(parseError("GET / HTTP/1.1\r\n\r\n") == .badRequest("an HTTP/1.1 request needs exactly one Host header"))
        #expect(parseError("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")?.status == 400)
        #expect(requests(try parse("GET / HTTP/1.0\r\n\r\n")).count == 1)
    }

    @Test func aBareLineFeedIsRefusedAsSoonAsItArrives() {
        // No blank line yet: without the early check this would wait for a head that never ends.
        #expect(parseError("GET / HTTP/1.1\nHost: a\n") == .badRequest("line not terminated by CRLF"))
        #expect(parseError("GET / HTTP/1.1\r\nHost: a\r\nX: 1\n") == .badRequest("line not terminated by CRLF"))
    }

    @Test func chunkLinesWithoutAnEndAreRefusedInsteadOfBuffered() {
        let chunked = "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
        #expect(parseError(chunked + "1;" + String(repeating: "a", count: 2000)) == .badRequest("chunk size line too long"))
        #expect(parseError(chunked + "0\r\nX: " + String(repeating: "a", count: 17 * 1024)) == .headerTooLarge)
        #expect(parseError(chunked + "0\r\n" + String(repeating: "X: 1\r\n", count: 3000)) == .headerTooLarge)
    }

    @Test(arguments: ["1;\u{0}\u{1}\r\nX\r\n0\r\n\r\n", "1;a\nb\r\nX\r\n0\r\n\r\n", "0\r\nfoo\nGET /x HTTP/1.1\r\n\r\n",
                      "0\r\nnot a header\r\n\r\n", "0\r\n: v\r\n\r\n"])
    func malformedChunkExtensionsAndTrailersAre400(tail: String) {
        #expect(parseError("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n" + tail)?.status == 400)
    }

    // MARK: - Responses (client side)

    private func responses(_ text: String, split: Int = .max, method: String = "GET") throws -> [HTTPResponse] {
        var parser = HTTPParser(mode: .response)
        parser.requestMethod = method
        var out: [HTTPResponse] = []
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + split)
            parser.append(bytes[offset ..< end])
            offset = end
            while case .response(let r)? = try parser.next() { out.append(r) }
        }
        if case .response(let r)? = try parser.finish() { out.append(r) }
        return out
    }

    @Test(arguments: [1, 4, 1000])
    func responsesWithLengthChunkedOrCloseDelimitedBodies(split: Int) throws {
        #expect(try responses("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", split: split).map(\.bodyText) == ["ok"])
        #expect(try responses("HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", split: split).map(\.status) == [201])
        #expect(try responses("HTTP/1.0 200 OK\r\nServer: x\r\n\r\nuntil close", split: split).map(\.bodyText) == ["until close"])
    }

    @Test func interimResponsesAreSkippedAndBodilessStatusesHaveNoBody() throws {
        let parsed = try responses("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\n\r\n")
        #expect(parsed.map(\.status) == [204, 304])
        #expect(try responses("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", method: "HEAD").map(\.body) == [[]])
    }

    @Test func aResponseCutShortIsAnError() {
        #expect(throws: HTTPParseError.self) { try responses("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nok") }
        #expect(throws: HTTPParseError.self) { try responses("HTTP/1.1 200 OK\r\nContent-") }
        #expect(throws: HTTPParseError.self) { try responses("HTTX/1.1 200 OK\r\n\r\n") }
    }
}

extension HTTPParser.Event: Equatable {
    public static func == (lhs: HTTPParser.Event, rhs: HTTPParser.Event) -> Bool {
        switch (lhs, rhs) {
        case (.expectContinue, .expectContinue): true
        case (.request(let a), .request(let b)): a.target == b.target && a.body == b.body
        case (.response(let a), .response(let b)): a.status == b.status && a.body == b.body
        default: false
        }
    }
}
