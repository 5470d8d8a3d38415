import Testing
@testable import SandboxWire

/// RST_STREAM `code` on `stream`, byte for byte.
private func rstStream(_ stream: UInt32, _ code: HTTP2ErrorCode) -> H2Frame {
    var payload: [UInt8] = []
    payload.appendUInt32(code.rawValue)
    return H2Frame(.rstStream, stream: stream, payload: payload)
}

/// A late frame on a stream: DATA, or HEADERS (a request's fields: trailers would be malformed anyway).
private let lateFrames: [(name: String, write: @Sendable (inout H2Writer, UInt32) -> Void)] = [
    ("DATA", { $0.data($1, [1, 2, 3], endStream: true) }),
    ("HEADERS", { $0.headers($1, H2Writer.fields(), endStream: true) }),
]

// Frames on streams that are no longer open (RFC 9113 §5.1 "half-closed (remote)" and "closed",
// §5.1.1), by how each stream closed; h2spec's cases are named where they match one.
extension HTTP2SessionTests {
    @Test func dataAndHeadersCrossingOurResetAreIgnored() {
        // A request answered before it ended is reset (NO_ERROR); its DATA and trailers may be on
        // the way. Ignored, with the trailers' block decoded all the same (HPACK stays in step).
        let h = Harness()
        h.writer.headers(1, H2Writer.fields("POST", "/echo"), endStream: false)
        h.send()
        h.respond(1, HTTPResponse(status: 200))
        #expect(h.reader.frames.last == rstStream(1, .noError))
        h.writer.data(1, [1, 2, 3])
        h.writer.windowUpdate(1, 100)
        h.writer.headers(1, [("x-indexed", "kept")], endStream: true)
        h.writer.rst(1)
        #expect(h.send() == [])
        // A refused stream's DATA likewise.
        var limits = HTTPLimits()
        limits.http2.maxConcurrentStreams = 1
        let refused = Harness(limits: limits)
        refused.writer.headers(1, H2Writer.fields("POST", "/echo"), endStream: false)
        refused.writer.headers(3, H2Writer.fields("POST", "/echo"), endStream: false)
        #expect(refused.send() == [rstStream(3, .refusedStream)])
        refused.writer.data(3, [1, 2, 3], endStream: true)
        #expect(refused.send() == [])
        #expect(!h.session.isClosed && !refused.session.isClosed)
        h.writer.headers(3, H2Writer.fields() + [("x-indexed", "kept")], endStream: true)
        h.send()
        #expect(h.ready().map { $0.request.headers["x-indexed"] } == ["kept"])
    }

    @Test func dataOrHeadersAfterTheClientsResetAreAStreamError() {
        // h2spec http2/5.1/8 and 5.1/9: the client knows the stream is closed.
        for (name, late) in lateFrames {
            let h = Harness()
            h.writer.headers(1, H2Writer.fields("POST", "/echo"), endStream: false)
            h.writer.rst(1)
            #expect(h.send() == [], "\(name)")
            late(&h.writer, 1)
            #expect(h.send() == [rstStream(1, .streamClosed)], "\(name)")
            // Our reset now stands, and what crossed it is ignored.
            late(&h.writer, 1)
            h.writer.windowUpdate(1, 100)
            #expect(h.send() == [], "\(name)")
            #expect(!h.session.isClosed, "\(name)")
        }
    }

    @Test func resetsProvokedAfterTheClientsResetCostATokenToo() {
        // MadeYouReset through closed streams: open, reset, a late DATA: two tokens a round.
        let provoked = Self.flood(count: 30) { w, index in
            w.headers(UInt32(index * 2 + 1), H2Writer.fields("POST", "/echo"), endStream: false)
            w.rst(UInt32(index * 2 + 1))
            w.data(UInt32(index * 2 + 1), [1])
        }
        expectGoaway(provoked, .enhanceYourCalm, lastStream: 49)
        let resetsAlone = Self.flood(count: 30) { w, index in
            w.headers(UInt32(index * 2 + 1), H2Writer.fields("POST", "/echo"), endStream: false)
            w.rst(UInt32(index * 2 + 1))
        }
        #expect(resetsAlone.reader.goaway == nil)
    }

    @Test func dataOrHeadersAfterBothSidesEndedAreAConnectionError() {
        // h2spec http2/5.1/11 and 5.1/12 (and 5.1/5, 6.1/2 when the answer wins the race).
        for (name, late) in lateFrames {
            let h = Harness()
            h.writer.request(1)
            h.send()
            h.respond(1, HTTPResponse(body: [1]))
            #expect(h.reader.answers[1]?.ended == true)
            // WINDOW_UPDATE and RST_STREAM may cross our END_STREAM; PRIORITY may come at any time.
            h.writer.windowUpdate(1, 100)
            h.writer.rst(1)
            h.writer.frame(.priority, stream: 1, [0, 0, 0, 0, 16])
            #expect(h.send() == [], "\(name)")
            late(&h.writer, 1)
            h.send()
            expectGoaway(h, .streamClosed, lastStream: 1)
            #expect(h.reader.frames.count { $0.kind == .goaway } == 1, "\(name)")
        }
    }

    @Test func dataOrHeadersOnAHalfClosedStreamAreStreamClosed() {
        // h2spec http2/5.1/5 and 5.1/6: the client ended its side, and the answer is not sent yet.
        for (name, late) in lateFrames {
            let h = Harness()
            h.writer.request(1)
            late(&h.writer, 1)
            #expect(h.send() == [rstStream(1, .streamClosed)], "\(name)")
            #expect(!h.session.isClosed, "\(name)")
        }
        // Trailers without END_STREAM on an open stream are malformed instead (§8.1).
        let h = Harness()
        h.writer.headers(1, H2Writer.fields("POST", "/echo"), endStream: false)
        h.writer.headers(1, [("x-trailer", "1")], endStream: false)
        #expect(h.send() == [rstStream(1, .protocolError)])
    }

    @Test func dataOrHeadersOnASkippedStreamAreAProtocolError() {
        // h2spec http2/5.1.1/2: opening stream 5 closed 1 and 3 unused; they cannot be opened now.
        for (name, late) in lateFrames {
            let h = Harness()
            h.writer.request(5)
            h.send()
            late(&h.writer, 3)
            h.send()
            expectGoaway(h, .protocolError, lastStream: 5)
            #expect(h.ready().map(\.stream) == [5], "\(name)")
        }
        // WINDOW_UPDATE, RST_STREAM and PRIORITY there are harmless, and ignored.
        let h = Harness()
        h.writer.request(5)
        h.writer.windowUpdate(3, 100)
        h.writer.rst(1)
        h.writer.frame(.priority, stream: 3, [0, 0, 0, 0, 16])
        h.send()
        #expect(h.reader.goaway == nil)
    }

    @Test func streamsTooOldToRememberAreTakenAsResetByUs() {
        // The ring reaches the last 128 client ids: within it, how each closed; beyond it, nothing
        // can be told, and a frame crossing our reset must never cost a client its connection.
        let reach = UInt32(HTTP2ClosedStreams.capacity)
        func answered(through last: UInt32) -> Harness {
            let h = Harness()
            for id in stride(from: UInt32(1), through: last, by: 2) {
                h.writer.request(id)
                h.send()
                h.respond(id, HTTPResponse())
            }
            #expect(h.reader.goaway == nil && h.session.openStreams == 0)
            return h
        }
        let last = 2 * reach + 1
        let recent = answered(through: last)
        recent.writer.data(last - 2 * (reach - 1), [1])
        recent.send()
        expectGoaway(recent, .streamClosed, lastStream: last)
        let old = answered(through: last)
        old.writer.data(1, [1])
        old.writer.headers(1, H2Writer.fields(), endStream: true)
        #expect(old.send() == [])
        #expect(!old.session.isClosed)
    }
}
