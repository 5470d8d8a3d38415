import Dispatch
import Glibc
@testable import SandboxSupport
import Synchronization
import TestHelpers
import Testing
@testable import SandboxWire

@Suite struct ServerTests {
    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        for _ in 0 ..< 3 {
            connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.bodyText == "hello")
            #expect(response.headers["Connection"] == nil)
            #expect(response.headers["Content-Length"] == "5")
        }
    }

    @Test func connectionCloseIsHonoured() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /hello HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.headers["Connection"] == "close")
        #expect(connection.closedByPeer())
    }

    @Test func http10ClosesUnlessAskedToKeepAlive() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let keep = try RawConnection(port: server.port)
        keep.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try keep.readResponse().headers["Connection"] == "keep-alive")
        keep.send("GET /hello HTTP/1.0\r\n\r\n")
        let last = try keep.readResponse()
        #expect(last.bodyText == "hello")
        #expect(last.headers["Connection"] == "close")
        #expect(keep.closedByPeer())
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /items/1 HTTP/1.1\r\nHost: t\r\n\r\nGET /slow HTTP/1.1\r\nHost: t\r\n\r\nPOST /echo HTTP/1.1\r\nHost: "
                        + "t\r\nContent-Length: 3\r\n\r\nabcGET /items/4 HTTP/1.1\r\nHost: t\r\n\r\n")
        let bodies = try (0 ..< 4).map { _ in try connection.readResponse().bodyText }
        #expect(bodies == [#"{"id":"1"}"#, "slow", "abc", #"{"id":"4"}"#])
    }

    @Test func aResponseProducedLaterKeepsItsPlaceWhileTheLoopServesOthers() throws {
        let held = Held()
        let server = try startTestServer(held: held) { $0.threads = 1 }
        defer { server.stop() }
        let waiting = try RawConnection(port: server.port)
        waiting.send("GET /held HTTP/1.1\r\nHost: t\r\n\r\nGET /items/2 HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(Waiting.until { held.arrived == 1 })
        // The only loop thread is free: another client is answered while the first answer is held.
        let other = try RawConnection(port: server.port)
        other.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try other.readResponse().bodyText == "hello")
        // Nothing leaves before the held answer, not even the one pipelined behind it.
        #expect(waiting.isQuiet(for: 0))
        held.release.open()
        // The waiting connection gets its answers in request order.
        #expect(try waiting.readResponse().bodyText == "held")
        #expect(try waiting.readResponse().bodyText == #"{"id":"2"}"#)
    }

    /// A deferred answer holds no thread while it waits; it is sent when given, in its place.
    @Test func aDeferredResponseIsSentWhenGivenInItsPlace() throws {
        let held = Held()
        let server = try startTestServer(held: held) { $0.threads = 1 }
        defer { server.stop() }
        let waiting = try RawConnection(port: server.port)
        waiting.send("GET /held-deferred HTTP/1.1\r\nHost: t\r\n\r\nGET /items/3 HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(Waiting.until { held.arrived == 1 })
        let other = try RawConnection(port: server.port)
        other.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try other.readResponse().bodyText == "hello")
        #expect(waiting.isQuiet(for: 0))
        held.release.open()
        #expect(try waiting.readResponse().bodyText == "held deferred")
        #expect(try waiting.readResponse().bodyText == #"{"id":"3"}"#)
        // In process (no server), the caller waits for it.
        #expect(HTTPResponse.deferred { answer in DispatchQueue.global().async { answer(.text("ok")) } }.flattened.bodyText == "ok")
    }

    @Test func contentLengthAndChunkedBodiesReachTheHandler() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello")
        #expect(try connection.readResponse().bodyText == "hello")
        connection.send("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
        #expect(try connection.readResponse().bodyText == "abcde")
    }

    @Test func bytesSentOneAtATimeStillMakeARequest() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        for byte in "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nok".utf8 { connection.send([byte]) }
        #expect(try connection.readResponse().bodyText == "ok")
    }

    @Test func expectContinueGetsAnInterimResponseBeforeTheBody() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
        #expect(connection.readRaw(count: 25) == "HTTP/1.1 100 Continue\r\n\r\n")
        connection.send("body")
        #expect(try connection.readResponse().bodyText == "body")
    }

    @Test func expectContinueWithATooLargeBodyIsRefusedWithoutReadingIt() throws {
        let server = try startTestServer { $0.limits.maxBodyBytes = 100 }
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 101\r\nExpect: 100-continue\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.bodyText == #"{"code":413,"message":"body too large"}"#)
        #expect(connection.closedByPeer())
    }

    @Test func headUsesTheGetRouteWithoutABody() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("HEAD /hello HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        let head = try connection.readResponse(method: "HEAD")
        #expect(head.status == 200)
        #expect(head.headers["Content-Length"] == "5")
        #expect(head.body.isEmpty)
        #expect(try connection.readResponse().bodyText == "hello")  // nothing extra was sent after the HEAD
    }

    @Test func queryStringsAndPathParametersArePercentDecoded() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /query?country=BR&amount=10.50&name=Jo%C3%A3o+da+Silva&empty= HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try connection.readResponse().bodyText == #"{"amount":"10.50","country":"BR","empty":"","name":"João da Silva"}"#)
        connection.send("GET /items/a%2Fb%20c HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try connection.readResponse().bodyText == #"{"id":"a/b c"}"#)
        connection.send("GET /items/%zz HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try connection.readResponse().status == 400)
    }

    @Test func formURLEncodedBodiesAreDecoded() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        let body = "date=2020-03-12%2020%3A26%3A11&bank_reference_id=&external_id=cashoutV35381&cashout_id=60067"
        connection.send("POST /form HTTP/1.1\r\nHost: t\r\nContent-Type: "
                        + "application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(try connection.readResponse().bodyText == #"{"bank_reference_id":"","cashout_id":"60067","date":"2020-03-12 20:26:11","#
                                                          + #""external_id":"cashoutV35381"}"#)
    }

    @Test func unknownPathIs404AndWrongMethodIs405WithAllow() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /nope HTTP/1.1\r\nHost: t\r\n\r\nDELETE /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        let notFound = try connection.readResponse()
        #expect(notFound.status == 404)
        #expect(notFound.bodyText == #"{"code":404,"message":"No such endpoint: GET /nope"}"#)
        let wrongMethod = try connection.readResponse()
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["Allow"] == "GET, HEAD")
    }

    @Test func responsesCarryADateHeaderAndNoBodyFor204() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /nothing HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        let empty = try connection.readResponse()
        #expect(empty.status == 204)
        #expect(empty.headers["Content-Length"] == nil)
        #expect(try connection.readResponse().status == 200)
        let date = try #require(empty.headers["Date"])
        #expect(date.hasSuffix(" GMT") && date.count == 29)  // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"
    }

    @Test func ipv6LoopbackAndIPv4ServeTheSamePort() throws {
        let server = try startTestServer { $0.host = "localhost" }
        defer { server.stop() }
        #expect(server.addresses.map(\.host) == ["127.0.0.1", "::1"])
        let v6 = try RawConnection(host: "::1", port: server.port)
        v6.send("GET /peer HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try v6.readResponse().bodyText == "::1")
        let v4 = try RawConnection(host: "127.0.0.1", port: server.port)
        v4.send("GET /peer HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try v4.readResponse().bodyText == "127.0.0.1")
    }

    @Test func sixHundredConcurrentConnectionsAreAllAnswered() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let connections = try (0 ..< 600).map { _ in try RawConnection(port: server.port) }
        for (i, connection) in connections.enumerated() { connection.send("GET /items/\(i) HTTP/1.1\r\nHost: t\r\n\r\n") }
        for (i, connection) in connections.enumerated() {
            #expect(try connection.readResponse().bodyText == #"{"id":"\#(i)"}"#)
        }
    }

    @Test func severalServersRunAtOnceAndStopDeterministically() throws {
        let servers = try (0 ..< 3).map { _ in try startTestServer() }
        #expect(Set(servers.map(\.port)).count == 3)
        for server in servers {
            let connection = try RawConnection(port: server.port)
            connection.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try connection.readResponse().status == 200)
        }
        for server in servers {
            server.stop()
            server.stop()  // idempotent
            #expect(throws: SocketError.self) { try RawConnection(port: server.port) }
        }
    }

    @Test func stopClosesIdleConnectionsAndRefusesNewOnesAtOnce() throws {
        // A grace period far past any wait of the test's: a stop that waited it out would not end in time.
        let server = try startTestServer { $0.gracePeriod = .seconds(10 * Waiting.seconds) }
        let idle = try RawConnection(port: server.port)
        idle.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try idle.readResponse().status == 200)
        let stopped = Atomic<Bool>(false)
        let stopper = OSThread(name: "stopper") {
            server.stop()
            stopped.store(true, ordering: .releasing)
        }
        #expect(Waiting.until { stopped.load(ordering: .acquiring) }, "nothing in flight, yet the stop waits out its grace period")
        if stopped.load(ordering: .acquiring) { stopper.join() }
        #expect(idle.closedByPeer())
        #expect(throws: SocketError.self) { try RawConnection(port: server.port) }
    }

    @Test func stopLetsARequestInFlightFinish() throws {
        let held = Held()
        let server = try startTestServer(held: held) { $0.gracePeriod = Waiting.limit }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /held-on-loop HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(Waiting.until { held.arrived == 1 })
        let stopper = OSThread(name: "stopper") { server.stop() }
        // New connections are refused once the stop has begun: then the request is let go.
        #expect(Waiting.until { (try? RawConnection(port: server.port)) == nil })
        held.release.open()
        #expect(try connection.readResponse().bodyText == "held on loop")
        #expect(connection.closedByPeer())
        stopper.join()
    }
}
