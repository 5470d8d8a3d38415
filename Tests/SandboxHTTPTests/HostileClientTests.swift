import Dispatch
import Glibc
import Synchronization
import TestHelpers
import Testing
@testable import SandboxWire

/// Bad input and misbehaving peers: each gets its status and a closed connection, and nobody
/// else is held up.
@Suite struct HostileClientTests {
    private func expectRefusal(_ text: String, status: Int, message: String,
                               _ adjust: (inout HTTPServer.Configuration) -> Void = { _ in }) throws {
        let server = try startTestServer(adjust)
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send(text)
        let response = try connection.readResponse()
        #expect(response.status == status)
        #expect(response.bodyText == #"{"code":\#(status),"message":"\#(message)"}"#)
        #expect(response.headers["Connection"] == "close")
        #expect(connection.closedByPeer())
    }

    @Test func malformedRequestLineIs400AndClosed() throws {
        try expectRefusal("GET/hello HTTP/1.1\r\n\r\n", status: 400, message: "malformed request line")
    }

    @Test func malformedHeaderIs400AndClosed() throws {
        try expectRefusal("GET /hello HTTP/1.1\r\nHost: t\r\nHost : x\r\n\r\n", status: 400, message: "malformed header field")
    }

    @Test func contentLengthWithTransferEncodingIs400() throws {
        try expectRefusal("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
                          status: 400, message: "both Content-Length and Transfer-Encoding")
    }

    @Test func oversizedHeaderSectionIs431() throws {
        try expectRefusal("GET /hello HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "b", count: 17 * 1024))\r\n\r\n",
                          status: 431, message: "header section too large")
    }

    @Test func oversizedBodyIs413WithTheDefaultLimitAndAConfiguredOne() throws {
        try expectRefusal("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 1048577\r\n\r\n", status: 413, message: "body too large")
        try expectRefusal("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 11\r\n\r\n0123456789a", status: 413, message: "body too large") {
            $0.limits.maxBodyBytes = 10
        }
    }

    @Test func unsupportedVersionIs505() throws {
        try expectRefusal("GET /hello HTTP/2.0\r\n\r\n", status: 505, message: "unsupported HTTP version: HTTP/2.0")
    }

    @Test func slowHeadersAreCutOffWithoutHoldingUpOthers() throws {
        // Meanwhile a normal client is served, several times, while the slow head is pending (with
        // no header timeout to end it meanwhile)...
        let patient = try startTestServer()
        defer { patient.stop() }
        let pending = try RawConnection(port: patient.port)
        pending.send("GET /hello HTTP/1.1\r\nHost: t\r\nX-A: 1\r\n")
        let normal = try RawConnection(port: patient.port)
        for _ in 0 ..< 5 {
            normal.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try normal.readResponse().status == 200)
        }
        #expect(pending.isQuiet(for: 0), "the pending head was answered or closed")
        // ...and it is cut off by the header timeout, however long it keeps trickling: progress
        // does not extend the deadline (the limits on the head's size are out of its way).
        let server = try startTestServer {
            $0.headerTimeout = .milliseconds(300)
            ($0.limits.maxHeaderCount, $0.limits.maxHeaderBytes) = (1 << 20, 64 << 20)
        }
        defer { server.stop() }
        let slow = try RawConnection(port: server.port)
        let started = monotonicSeconds()
        slow.send("GET /hello HTTP/1.1\r\nHost: t\r\nX-A: 1\r\n")
        while slow.isQuiet(for: 0.05), monotonicSeconds() - started < Double(Waiting.seconds) { slow.send("X-B: 2\r\n") }
        let response = try slow.readResponse()
        #expect(response.status == 408)
        #expect(slow.closedByPeer())
        #expect(monotonicSeconds() - started >= 0.29)
    }

    @Test func idleKeepAliveConnectionsAreClosed() throws {
        let server = try startTestServer { $0.idleTimeout = .milliseconds(200) }
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try connection.readResponse().status == 200)
        // Closed by its idle timeout: the test server's other timers are an hour.
        #expect(connection.closedByPeer())
    }

    @Test func aClientThatVanishesMidResponseDoesNotHurtTheServer() throws {
        let server = try startTestServer()
        defer { server.stop() }
        for _ in 0 ..< 5 {
            let quitter = try RawConnection(port: server.port)
            quitter.send("GET /big HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = quitter.readRaw(count: 1000)
            var linger = linger(l_onoff: 1, l_linger: 0)  // close with a reset, mid-response
            setsockopt(quitter.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        }
        usleep(100_000)
        let after = try RawConnection(port: server.port)
        after.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try after.readResponse().bodyText == "hello")
    }

    /// A client pipelining thousands of requests is answered a few dozen per turn of the loop, so
    /// another client on the same loop is answered in between, not after the whole 64 KiB read
    /// (thousands of these requests) it is in the middle of.
    @Test func aPipelinerIsAnsweredATurnAtATimeWhileOthersAreServed() throws {
        let answered = Counter()
        let server = try HTTPServer.start(configuration: .init(host: "127.0.0.1", port: 0, threads: 1)) { _ in
            .text(String(answered.next()))
        }
        defer { server.stop() }
        let normal = try RawConnection(port: server.port)
        let hog = try RawConnection(port: server.port)
        let (request, count) = ("GET /n HTTP/1.1\r\nHost: t\r\n\r\n", 30_000)
        // The hog sends and reads at full speed, on threads of its own.
        nonisolated(unsafe) let hogSide = hog
        nonisolated(unsafe) var hogs: [Int] = []
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) { hogSide.send(Array(String(repeating: request, count: count).utf8)) }
        DispatchQueue.global().async(group: done) {
            hogs = (0 ..< count).map { _ in (try? hogSide.readResponse()).flatMap { Int($0.bodyText) } ?? 0 }
        }
        // Once the server reads whole 64 KiB at a time (its receive buffer is full), ask once.
        while answered.current < count / 3 { usleep(100) }
        normal.send(request)
        let before = answered.current  // after the send: a test thread held up meanwhile is not the server's doing
        let normalsTurn = try #require(Int(try normal.readResponse().bodyText))
        #expect(normalsTurn - before <= 128, "answered \(normalsTurn - before) requests later")
        // The hog gets every answer, in order.
        done.wait()
        #expect(hogs == Array(1 ... count + 1).filter { $0 != normalsTurn })
    }

    @Test func aClientThatNeverReadsIsHeldBackAndDoesNotBlockOthers() throws {
        let server = try startTestServer { $0.threads = 1 }
        defer { server.stop() }
        let hog = try RawConnection(port: server.port)
        hog.setSendTimeout(1)
        // 64 MiB of pipelined requests for 8 MiB responses, never reading: once its responses back
        // up, the server stops reading, so the sends stall at the kernel buffers' worth.
        let requests = Array(String(repeating: "GET /big HTTP/1.1\r\nHost: t\r\n\r\n", count: 64 << 20 / 33).utf8)
        let sent = hog.send(requests)
        #expect(sent < 32 << 20)
        let normal = try RawConnection(port: server.port)
        normal.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try normal.readResponse().bodyText == "hello")
    }

    @Test func aSlowBodyIsCutOffWith408() throws {
        let server = try startTestServer { $0.bodyTimeout = .milliseconds(300) }
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        let started = monotonicSeconds()
        connection.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc")
        // Cut off by its body timeout (the test server's other timers are an hour), not at once.
        #expect(try connection.readResponse().status == 408)
        #expect(connection.closedByPeer())
        #expect(monotonicSeconds() - started >= 0.29)
    }

    @Test func emptyLinesDoNotKeepAnIdleConnectionOpen() throws {
        let server = try startTestServer { $0.idleTimeout = .milliseconds(300) }
        defer { server.stop() }
        let started = monotonicSeconds()  // before the connection: its idle time starts when it is accepted
        let connection = try RawConnection(port: server.port)
        // An empty line every 50 ms until the server closes: it does, by the idle timeout.
        while connection.isQuiet(for: 0.05), monotonicSeconds() - started < Double(Waiting.seconds) { connection.send("\r\n") }
        #expect(connection.closedByPeer())
        #expect(monotonicSeconds() - started >= 0.29)
    }

    @Test func decodedParametersCannotSplitAResponse() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /echo-header/a%0D%0ASet-Cookie:%20stolen HTTP/1.1\r\nHost: t\r\n\r\nGET /echo-header/plain HTTP/1.1\r\nHost: t\r\n\r\n")
        let injected = try connection.readResponse()
        #expect(injected.headers["Set-Cookie"] == nil)
        #expect(injected.headers["X-Echo"] == nil)
        #expect(injected.headers["X-Fixed"] == "yes")
        #expect(try connection.readResponse().headers["X-Echo"] == "plain")
    }
}

/// Counts the requests a test server answered, across its threads.
private final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    var current: Int { value.load(ordering: .relaxed) }
    func next() -> Int { value.add(1, ordering: .relaxed).newValue }
}
