import Testing
@testable import SandboxWire
@testable import SandboxSupport

/// What the hot path keeps from one request to the next gives the same results as starting afresh:
/// the parser's strings reused from the last head, the encoder's last head, the routes' body limits
/// told apart by path.
@Suite struct RepeatedRequestsTests {
    private static let heads = [
        "GET /a HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /ab HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /ab HTTP/1.1\r\nhost: x\r\nContent-Length: 0\r\n\r\n",
        "POST /ab HTTP/1.1\r\nHost: y\r\nContent-Length: 0\r\n\r\n",
        "GET /ab HTTP/1.1\r\nHost: y\r\nAccept: \r\nX: 1\r\n\r\n",
        "GET /ab?q=1 HTTP/1.0\r\nAccept: \r\n\r\n",
        "GET /a-longer-target-than-fifteen-bytes HTTP/1.1\r\nHost: a-host-name-longer-than-fifteen:8080\r\n\r\n",
        "GET /a-longer-target-than-fifteen-bytez HTTP/1.1\r\nHost: a-host-name-longer-than-fifteen:8081\r\n\r\n",
    ]

    private static func request(_ head: String, parser: inout HTTPParser) throws -> HTTPRequest {
        parser.append(Array(head.utf8))
        guard case .request(let request)? = try parser.next() else { throw HTTPParseError.badRequest("no request") }
        return request
    }

    @Test func aParserGivesEachRequestOfAConnectionAsAFreshParserWould() throws {
        var kept = HTTPParser(mode: .request)
        for head in Self.heads {
            var fresh = HTTPParser(mode: .request)
            let (again, alone) = (try Self.request(head, parser: &kept), try Self.request(head, parser: &fresh))
            #expect(again.method == alone.method)
            #expect(again.target == alone.target)
            #expect(again.version == alone.version)
            #expect(again.headers == alone.headers)
            #expect(again.headers.fields.map(\.name) == alone.headers.fields.map(\.name))
        }
    }

    @Test func anEncodersLastHeadGivesTheBytesAFreshOneWould() {
        let json = HTTPResponse.json(["a": 1])
        var longer = json
        longer.body += [UInt8(ascii: " ")]
        var other = json
        other.headers.add("X-Trace", "1")
        let responses = [json, json, longer, other, HTTPResponse(status: 204), HTTPResponse(status: 404, headers: json.headers, body: json.body),
                         HTTPResponse(status: 200, headers: ["Content-Length": "9", "Bad\r\nName": "x", "Ok": "a\r\nb"], body: [1])]
        var last = ResponseEncoder.Head()
        for response in responses {
            for (keepAlive, http10) in [(true, false), (true, false), (false, false), (true, true)] {
                var (kept, fresh) = ([UInt8](), [UInt8]())
                var first = ResponseEncoder.Head()
                ResponseEncoder.write(response, keepAlive: keepAlive, headOnly: false, http10: http10, dateLine: [], into: &kept, last: &last)
                ResponseEncoder.write(response, keepAlive: keepAlive, headOnly: false, http10: http10, dateLine: [], into: &fresh, last: &first)
                #expect(kept == fresh)
            }
        }
    }

    @Test func aRoutesBodyLimitAndSpoolingGoByItsPathAlone() {
        var limits = HTTPLimits()
        limits.maxBodyBytes = 10
        limits.bodyLimitsByRoute["PUT /up"] = 100
        limits.spooledBodyRoutes.insert("POST /spool")
        #expect(limits.body(method: "PUT", target: "/up").limit == 100)
        #expect(limits.body(method: "PUT", target: "/up?x=1").limit == 100)
        #expect(limits.body(method: "POST", target: "/up").limit == 10)
        #expect(limits.body(method: "PUT", target: "/upload").limit == 10)
        #expect(limits.body(method: "POST", target: "/spool").limit == 10)
        #expect(limits.body(method: "POST", target: "/spool?y").spooled)
        #expect(!limits.body(method: "PUT", target: "/spool").spooled)
        #expect(!limits.body(method: "PUT", target: "/up").spooled)
        limits.bodyLimitsByRoute = [:]
        #expect(limits.body(method: "PUT", target: "/up").limit == 10)
    }
}
