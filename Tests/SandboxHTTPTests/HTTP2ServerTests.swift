import Dispatch
import Glibc
@testable import SandboxSupport
import Synchronization
import TestHelpers
import Testing
@testable import SandboxWire

/// A streamed exchange that only records whether it was cancelled.
private final class CancelProbe: HTTPStreamHandler, @unchecked Sendable {
    let cancelled = Atomic<Bool>(false)
    func receive(_ bytes: [UInt8], writer: HTTPStreamWriter) { writer(.head(status: 200, headers: [:])) }
    func end(writer: HTTPStreamWriter) {}
    func cancel() { cancelled.store(true, ordering: .relaxed) }
}

/// HTTP/2 over a real socket against the test server: prior knowledge on the HTTP/1.1 port.
@Suite struct HTTP2ServerTests {
    @Test func h2cAndHTTP1ShareThePort() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let h2 = try H2Connection(port: server.port)
        h2.writer.request(1, "GET", "/hello")
        h2.writer.request(3, "POST", "/echo", [("content-type", "text/plain")], body: Array("over h2".utf8))
        h2.writer.request(5, "GET", "/items/42")
        h2.writer.request(7, "GET", "/nothing")
        h2.flush()
        let hello = try #require(h2.answer(1))
        #expect(hello.status == 200 && hello.text == "hello" && hello.header("content-length") == "5" && hello.header("date") != nil)
        let echo = try #require(h2.answer(3))
        #expect(echo.text == "over h2" && echo.header("x-method") == "POST")
        #expect(try #require(h2.answer(5)).text == #"{"id":"42"}"#)
        #expect(try #require(h2.answer(7)).status == 204)
        // The server's SETTINGS came first, and ours were acknowledged.
        #expect(h2.reader.frames.first?.kind == .settings)
        #expect(h2.reader.frames.contains { $0.kind == .settings && $0.has(HTTP2Flags.ack) })

        let http1 = try RawConnection(port: server.port)
        http1.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try http1.readResponse().bodyText == "hello")
        // A request line that starts like the preface is still HTTP/1.1.
        let almost = try RawConnection(port: server.port)
        almost.send("PRI /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try almost.readResponse().status == 405)
    }

    /// An answer dropped on purpose (a fault that loses it) ends the connection as the network
    /// would: no frame of the server's, not a RST_STREAM that a gRPC client takes for INTERNAL.
    @Test func aDroppedAnswerEndsTheConnectionWithoutAFrame() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let h2 = try H2Connection(port: server.port)
        h2.writer.request(1, "GET", "/dropped")
        h2.flush()
        #expect(!h2.read(until: { _ in false }))  // read until the server closes the connection
        #expect(h2.reader.answers[1]?.reset == nil && h2.reader.answers[1]?.status == nil && h2.reader.goaway == nil)
        #expect(!h2.reader.frames.contains { $0.kind == .rstStream })
    }

    @Test func thePrefaceMayArriveByteByByte() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let raw = try RawConnection(port: server.port)
        var writer = H2Writer.opening()
        writer.request(1, "GET", "/hello")
        for byte in writer.bytes {
            raw.send([byte])
        }
        let h2 = H2Connection(raw: raw)
        #expect(h2.answer(1)?.text == "hello")
    }

    @Test func aLaterStreamIsAnsweredAfterTheOthersOnItsConnection() throws {
        let held = Held()
        let server = try startTestServer(held: held)
        defer { server.stop() }
        let h2 = try H2Connection(port: server.port)
        h2.writer.request(1, "GET", "/held")
        h2.writer.request(3, "GET", "/held-deferred")
        h2.writer.request(5, "GET", "/hello")
        h2.writer.request(7, "GET", "/items/1")
        h2.flush()
        // Answered while streams 1 and 3 are held: they wait for nothing of theirs.
        #expect(h2.answer(5)?.text == "hello")
        #expect(h2.answer(7) != nil)
        #expect(h2.reader.answers[1] == nil && h2.reader.answers[3] == nil)
        held.release.open()
        #expect(h2.answer(1)?.text == "held")
        #expect(h2.answer(3)?.text == "held deferred")
        let order = h2.reader.frames.filter { $0.kind == .headers }.map(\.stream)
        #expect(order.prefix(2).sorted() == [5, 7] && order.suffix(2).sorted() == [1, 3])
    }

    @Test func stoppingSendsGoawayAndFinishesTheStreamsInFlight() throws {
        let held = Held()
        let server = try startTestServer(held: held) { $0.gracePeriod = Waiting.limit }
        let h2 = try H2Connection(port: server.port)
        h2.writer.request(1, "GET", "/hello")
        h2.writer.request(3, "GET", "/held")
        h2.flush()
        #expect(h2.answer(1) != nil)
        #expect(Waiting.until { held.arrived == 1 }, "stream 3 never reached its handler")
        let thread = OSThread(name: "stopper") { server.stop() }
        #expect(h2.read { $0.goaway != nil })
        #expect(h2.reader.goaway?.errorCode == .noError && h2.reader.goaway?.lastStream == 3)
        // A stream opened after GOAWAY is ignored; the one in flight is answered.
        h2.writer.request(5, "GET", "/hello")
        h2.flush()
        held.release.open()
        #expect(h2.answer(3)?.text == "held")
        #expect(h2.reader.answers[5] == nil)
        #expect(h2.raw.closedByPeer())
        h2.raw.hangUp()  // the server lingers until the client closes too, up to the grace period
        thread.join()
    }

    @Test func anIdleConnectionIsClosed() throws {
        let server = try startTestServer { $0.idleTimeout = .milliseconds(300) }
        defer { server.stop() }
        let started = monotonicSeconds()
        let h2 = try H2Connection(port: server.port)  // the preface, SETTINGS, then nothing
        // Closed by its idle timeout (the test server's other timers are an hour), not at once.
        #expect(h2.raw.closedByPeer())
        #expect(monotonicSeconds() - started >= 0.25)
    }

    @Test func anUnfinishedHeaderBlockIsClosedWithoutHoldingUpOthers() throws {
        /// A connection whose header block never ends (no END_HEADERS, ever).
        func unfinished(_ server: HTTPServer) throws -> H2Connection {
            let slow = try H2Connection(port: server.port)
            let block = slow.writer.block(H2Writer.fields("GET", "/hello"))
            slow.writer.frame(.headers, flags: HTTP2Flags.endStream, stream: 1, block)
            slow.flush()
            return slow
        }
        // Others are answered while it is pending (with no idle timeout to end it meanwhile)...
        let patient = try startTestServer { $0.gracePeriod = .zero }
        defer { patient.stop() }
        let pending = try unfinished(patient)
        let normal = try H2Connection(port: patient.port)
        for id in stride(from: UInt32(1), through: 9, by: 2) {
            normal.writer.request(id, "GET", "/hello")
            normal.flush()
            #expect(normal.answer(id)?.text == "hello")
        }
        #expect(pending.isOpen() && pending.reader.answers[1] == nil, "the pending connection was answered or closed")
        // ...and it is closed by the idle timeout, not at once.
        let server = try startTestServer { $0.idleTimeout = .milliseconds(300) }
        defer { server.stop() }
        let started = monotonicSeconds()
        let slow = try unfinished(server)
        #expect(slow.raw.closedByPeer())
        #expect(monotonicSeconds() - started >= 0.25)
    }

    @Test func aBodyThatNeverEndsIsCutOff() throws {
        let server = try startTestServer { $0.bodyTimeout = .milliseconds(300) }
        defer { server.stop() }
        let started = monotonicSeconds()
        let slow = try H2Connection(port: server.port)
        slow.writer.headers(1, H2Writer.fields("POST", "/echo"), endStream: false)
        slow.writer.data(1, [1])
        slow.flush()
        // Closed by its body timeout (the test server's other timers are an hour), not at once.
        #expect(slow.raw.closedByPeer())
        #expect(monotonicSeconds() - started >= 0.25)
    }

    @Test func aClosedConnectionCancelsItsStreamedExchanges() throws {
        final class Probes: Sendable { let list = Mutex<[CancelProbe]>([]) }
        let probes = Probes()
        let server = try startTestServer { configuration in
            configuration.streamOpener = { _ in
                let probe = CancelProbe()
                probes.list.withLock { $0.append(probe) }
                return probe
            }
        }
        defer { server.stop() }
        do {
            let h2 = try H2Connection(port: server.port)
            h2.writer.headers(1, H2Writer.fields("POST", "/stream"), endStream: false)
            h2.writer.data(1, [1])
            h2.flush()
            #expect(h2.read { $0.answers[1]?.status == 200 })
        }  // closed here
        Waiting.until { probes.list.withLock { $0.first?.cancelled.load(ordering: .relaxed) == true } }
        #expect(probes.list.withLock { $0.count == 1 && $0[0].cancelled.load(ordering: .relaxed) })
    }

    @Test func aClientThatOpensNoWindowCannotMakeTheServerHoldUnboundedAnswers() throws {
        let server = try startTestServer { $0.limits.http2.maxPendingResponseBytes = 1 << 20 }
        defer { server.stop() }
        let h2 = try H2Connection(port: server.port, settings: [(.initialWindowSize, 0)])
        h2.writer.request(1, "GET", "/big")  // 8 MiB, held: the window stays shut
        h2.writer.request(3, "GET", "/big")
        h2.writer.request(5, "GET", "/hello")
        h2.flush()
        #expect(h2.read { $0.answers[3]?.reset != nil && $0.answers[5]?.reset != nil })
        #expect(h2.reader.answers[1]?.status == 200 && h2.reader.answers[1]?.reset == nil)
        #expect(h2.reader.answers[3]?.reset == .refusedStream && h2.reader.answers[5]?.reset == .refusedStream)
        // Once the held answer is read, the connection serves again.
        h2.writer.windowUpdate(0, UInt32(Int32.max) - 65535)
        h2.writer.windowUpdate(1, UInt32(Int32.max))
        h2.flush()
        #expect(h2.answer(1)?.body.count == 8 << 20)
        h2.writer.request(7, "GET", "/hello")
        h2.writer.settings([(.initialWindowSize, 65535)])
        h2.flush()
        #expect(h2.answer(7)?.text == "hello")
    }

    @Test func aFloodIsCalmedDownOverTheWire() throws {
        let server = try startTestServer { $0.limits.http2.controlFrameBurst = 100 }
        defer { server.stop() }
        let h2 = try H2Connection(port: server.port)
        for _ in 0 ..< 200 { h2.writer.ping() }
        h2.flush()
        #expect(h2.read { $0.goaway != nil })
        #expect(h2.reader.goaway?.errorCode == .enhanceYourCalm)
        #expect(h2.raw.closedByPeer())
    }
}
