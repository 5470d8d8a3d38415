@testable import SandboxWire
import Synchronization
import Testing

/// A session driven by hand: the client's bytes in, the server's frames out, through `H2Reader`.
final class Harness {
    let session: HTTP2Session
    var writer: H2Writer
    var reader = H2Reader()
    var now: Int64 = 0

    init(limits: HTTPLimits = HTTPLimits(), opener: HTTPStreamOpener? = nil, settings: [(HTTP2SettingID, UInt32)] = []) {
        session = HTTP2Session(limits: limits, streamOpener: opener, now: 0)
        writer = H2Writer.opening(settings)
        drain()
        send()
    }

    /// Sends what the writer holds; returns the frames the server wrote in reply.
    @discardableResult
    func send() -> [H2Frame] {
        session.feed(writer.bytes, now: now)
        writer.bytes = []
        return drain()
    }

    @discardableResult
    func drain() -> [H2Frame] {
        let output = session.output
        session.output = []
        return reader.read(output)
    }

    /// Takes the requests that are ready.
    func ready() -> [(stream: UInt32, request: HTTPRequest)] {
        defer { session.ready = [] }
        return session.ready
    }

    @discardableResult
    func respond(_ id: UInt32, _ response: HTTPResponse, date: String = "") -> [H2Frame] {
        session.respond(id, with: response, date: date)
        return drain()
    }
}

extension HTTP2Session {
    func feed(_ bytes: [UInt8], now: Int64 = 0) { bytes.withUnsafeBytes { receive($0, now: now) } }
}

/// The frames end with GOAWAY `code` and the session is over.
func expectGoaway(_ harness: Harness, _ code: HTTP2ErrorCode, lastStream: UInt32 = 0,
                          sourceLocation: SourceLocation = #_sourceLocation) {
    let goaway = harness.reader.frames.last
    #expect(goaway?.kind == .goaway, "\(harness.reader.frames)", sourceLocation: sourceLocation)
    #expect(goaway?.errorCode == code, sourceLocation: sourceLocation)
    #expect(goaway?.lastStream == lastStream, sourceLocation: sourceLocation)
    #expect(harness.session.isClosed, sourceLocation: sourceLocation)
}

/// `frames` hold RST_STREAM `code` on `stream` and the session goes on.
func expectReset(_ harness: Harness, _ stream: UInt32, _ code: HTTP2ErrorCode,
                         sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(harness.reader.frames.contains { $0.kind == .rstStream && $0.stream == stream && $0.errorCode == code },
            "\(harness.reader.frames)", sourceLocation: sourceLocation)
    #expect(harness.reader.goaway == nil, sourceLocation: sourceLocation)
    #expect(!harness.session.isClosed, sourceLocation: sourceLocation)
}

/// A request as text, to compare requests from different feeds.
private func describe(_ ready: [(stream: UInt32, request: HTTPRequest)]) -> [String] {
    ready.map {
        "\($0.stream) \($0.request.method) \($0.request.target) \($0.request.version) "
            + "\($0.request.headers.fields.map { "\($0.name)=\($0.value)" }) \($0.request.body)"
    }
}

/// Records what a streamed exchange gets, and answers: head at the first bytes, an echo of each,
/// trailers at the end.
private final class EchoStream: HTTPStreamHandler, @unchecked Sendable {
    var received: [[UInt8]] = []
    var ended = false
    var cancelled = false
    private var headSent = false
    /// Whether the answer ends with the request (false: it goes on after it, as a Watch does).
    let endsWithRequest: Bool

    init(endsWithRequest: Bool = true) {
        self.endsWithRequest = endsWithRequest
    }

    func receive(_ bytes: [UInt8], writer: HTTPStreamWriter) {
        received.append(bytes)
        if !headSent {
            headSent = true
            writer(.head(status: 200, headers: ["content-type": "application/grpc"]))
        }
        writer(.data(bytes))
    }

    func end(writer: HTTPStreamWriter) {
        ended = true
        if !headSent { writer(.head(status: 200, headers: [:])) }
        if endsWithRequest { writer(.trailers(["grpc-status": "0"])) } else { writer(.data(Array("watching".utf8))) }
    }

    func cancel() { cancelled = true }
}

private final class StreamLog: @unchecked Sendable {
    let handlers = Mutex<[EchoStream]>([])
    var opener: HTTPStreamOpener {
        { [self] request in
            guard request.path == "/stream" || request.path == "/watch" else { return nil }
            let handler = EchoStream(endsWithRequest: request.path == "/stream")
            handlers.withLock { $0.append(handler) }
            return handler
        }
    }
    var all: [EchoStream] { handlers.withLock { $0 } }
}

@Suite struct HTTP2SessionTests {
    // MARK: - The conversation

    @Test func serverPrefaceIsSettingsThenAConnectionWindow() {
        let session = HTTP2Session(limits: HTTPLimits(), streamOpener: nil, now: 0)
        let frames = H2Frame.parse(session.output)!
        #expect(frames.count == 2)
        #expect(frames[0].kind == .settings && frames[0].flags == 0 && frames[0].stream == 0)
        let settings = Dictionary(frames[0].settings.map { ($0.0, $0.1) }, uniquingKeysWith: { $1 })
        #expect(settings[HTTP2SettingID.maxConcurrentStreams.rawValue] == 1024)
        #expect(settings[HTTP2SettingID.initialWindowSize.rawValue] == 1 << 20)
        #expect(settings[HTTP2SettingID.maxFrameSize.rawValue] == 16384)
        #expect(settings[HTTP2SettingID.maxHeaderListSize.rawValue] == 16384)
        #expect(settings[HTTP2SettingID.headerTableSize.rawValue] == 4096)
        #expect(frames[1].kind == .windowUpdate && frames[1].stream == 0 && frames[1].increment == (1 << 20) - 65535)
    }

    @Test func settingsAreAcknowledgedAndPingsEchoed() {
        let h = Harness()
        #expect(h.reader.frames.last == H2Frame(.settings, flags: HTTP2Flags.ack))
        h.writer.ping([9, 8, 7, 6, 5, 4, 3, 2])
        h.writer.frame(.ping, flags: HTTP2Flags.ack, [1, 1, 1, 1, 1, 1, 1, 1])  // an ACK is not answered
        h.writer.settingsAck()
        h.writer.settings([(.maxFrameSize, 20000)])
        let frames = h.send()
        #expect(frames == [H2Frame(.ping, flags: HTTP2Flags.ack, payload: [9, 8, 7, 6, 5, 4, 3, 2]), H2Frame(.settings, flags: HTTP2Flags.ack)])
        #expect(h.session.peerMaxFrameSize == 20000)
    }

    @Test func requestsComeOutWithPseudoHeadersAsFields() {
        let h = Harness()
        h.writer.request(1, "GET", "/items/7?x=1", [("accept", "application/json"), ("cookie", "a=1"), ("cookie", "b=2")])
        h.writer.request(3, "POST", "/echo", [("content-type", "text/plain"), ("content-length", "11")], body: Array("hello world".utf8))
        h.writer.headers(5, [(":method", "OPTIONS"), (":scheme", "http"), (":path", "*")])
        h.send()
        let ready = h.ready()
        #expect(ready.map(\.stream) == [1, 3, 5])
        let get = ready[0].request
        #expect(get.method == "GET" && get.target == "/items/7?x=1" && get.path == "/items/7" && get.version == .http2)
        #expect(get.headers["host"] == "example.test")
        #expect(get.headers["accept"] == "application/json")
        #expect(get.headers.values(for: "cookie") == ["a=1", "b=2"])
        #expect(get.body.isEmpty)
        let post = ready[1].request
        #expect(post.method == "POST" && post.body == Array("hello world".utf8) && post.headers["content-length"] == "11")
        #expect(post.headers["content-type"] == "text/plain" && post.headers["host"] == "example.test")
        #expect(ready[2].request.target == "*" && ready[2].request.headers["host"] == nil)
    }

    @Test func anExplicitHostIsKept() {
        let h = Harness()
        h.writer.headers(1, H2Writer.fields("GET", "/", authority: "a.test", [("host", "b.test")]))
        h.send()
        #expect(h.ready().first?.request.headers.values(for: "host") == ["b.test"])
    }

    @Test func answersAreFramedWithEndStreamOnTheLastFrame() {
        let h = Harness()
        for id in stride(from: UInt32(1), through: 9, by: 2) { h.writer.request(id, id == 7 ? "HEAD" : "GET", "/") }
        h.send()
        #expect(h.ready().count == 5)
        // A body: HEADERS, then DATA with END_STREAM.
        var frames = h.respond(1, HTTPResponse(headers: ["X-Kind": "body", "Connection": "keep-alive"], body: Array("hello".utf8)), date: "Mon")
        #expect(frames.map(\.kind) == [.headers, .data])
        #expect(frames[0].flags == HTTP2Flags.endHeaders && frames[1].flags == HTTP2Flags.endStream)
        var answer = h.reader.answers[1]!
        #expect(answer.headers.map(\.description) == [":status: 200", "content-length: 5", "date: Mon", "x-kind: body"])
        #expect(answer.text == "hello" && answer.ended)
        // No body: HEADERS with END_STREAM; 204 without content-length.
        frames = h.respond(3, HTTPResponse(status: 204))
        #expect(frames.count == 1 && frames[0].flags == HTTP2Flags.endHeaders | HTTP2Flags.endStream)
        #expect(h.reader.answers[3]!.headers.map(\.description) == [":status: 204"])
        frames = h.respond(5, HTTPResponse(status: 200))
        #expect(frames.count == 1 && h.reader.answers[5]!.header("content-length") == "0")
        // HEAD: the length, no DATA.
        frames = h.respond(7, HTTPResponse(body: Array("hello".utf8)))
        #expect(frames.count == 1 && frames[0].has(HTTP2Flags.endStream) && h.reader.answers[7]!.header("content-length") == "5")
        // Trailers: HEADERS, DATA without END_STREAM, trailers with it; no content-length.
        frames = h.respond(9, HTTPResponse(body: [1, 2, 3], trailers: ["grpc-status": "0"]))
        #expect(frames.map(\.kind) == [.headers, .data, .headers])
        #expect(frames.map(\.flags) == [HTTP2Flags.endHeaders, 0, HTTP2Flags.endHeaders | HTTP2Flags.endStream])
        answer = h.reader.answers[9]!
        #expect(answer.header("content-length") == nil && answer.body == [1, 2, 3])
        #expect(answer.trailers?.map(\.description) == ["grpc-status: 0"])
        #expect(h.session.openStreams == 0)
        // A closed stream is not answered again.
        #expect(h.respond(9, HTTPResponse()).isEmpty)
    }

    @Test func aLargeHeaderBlockIsSplitIntoContinuationFrames() {
        let h = Harness()
        h.writer.request(1)
        h.send()
        // Values that Huffman cannot shrink much, so the block stays over 16 KiB.
        var headers = HTTPHeaders()
        for index in 0 ..< 6 {
            headers.add("x-big-\(index)", String((0 ..< 9000).map { Character(UnicodeScalar(UInt8(33 + ($0 * 7 + index) % 90))) }))
        }
        let frames = h.respond(1, HTTPResponse(headers: headers, body: [42]))
        #expect(frames.count >= 4, "\(frames)")
        #expect(frames.first?.kind == .headers && frames.last?.kind == .data)
        let block = frames.dropLast()
        #expect(block.dropFirst().allSatisfy { $0.kind == .continuation })
        #expect(block.dropLast().allSatisfy { $0.payload.count == 16384 && $0.flags == 0 })
        #expect(block.last!.payload.count <= 16384 && block.last!.flags == HTTP2Flags.endHeaders)
        #expect(frames.last!.flags == HTTP2Flags.endStream)
        let answer = h.reader.answers[1]!
        #expect(answer.headers.count == 8 && answer.header("x-big-5") == headers["x-big-5"])
        #expect(answer.body == [42])
    }

    @Test func dataIsSplitAtTheFrameSizeAndWaitsForBothWindows() {
        let h = Harness()
        h.writer.request(1)
        h.send()
        let body = (0 ..< 100_000).map { UInt8(truncatingIfNeeded: $0) }
        var frames = h.respond(1, HTTPResponse(body: body))
        #expect(frames.map(\.payload.count) == [frames[0].payload.count, 16384, 16384, 16384, 16383])
        #expect(h.session.pendingBytes == 100_000 - 65535)
        // The stream's window alone is not enough: the connection's is spent too.
        h.writer.windowUpdate(1, 100_000)
        #expect(h.send().isEmpty)
        h.writer.windowUpdate(0, 20000)
        frames = h.send()
        #expect(frames.map(\.payload.count) == [16384, 3616])
        h.writer.windowUpdate(0, 1_000_000)
        frames = h.send()
        #expect(frames.map(\.payload.count) == [14465])
        #expect(frames.last?.has(HTTP2Flags.endStream) == true)
        #expect(h.reader.answers[1]!.body == body && h.session.pendingBytes == 0 && h.session.openStreams == 0)
    }

    @Test func dataFramesFollowThePeersMaxFrameSize() {
        let h = Harness(settings: [(.maxFrameSize, 20000), (.initialWindowSize, 1 << 20)])
        h.writer.request(1)
        h.writer.windowUpdate(0, 1 << 20)
        h.send()
        let frames = h.respond(1, HTTPResponse(body: [UInt8](repeating: 1, count: 50000)))
        #expect(frames.dropFirst().map(\.payload.count) == [20000, 20000, 10000])
    }

    @Test func initialWindowChangesAdjustOpenStreams() {
        let h = Harness(settings: [(.initialWindowSize, 10)])
        h.writer.request(1)
        h.writer.request(3)
        h.send()
        h.respond(1, HTTPResponse(body: [UInt8](repeating: 1, count: 100)))
        h.respond(3, HTTPResponse(body: [UInt8](repeating: 3, count: 100)))
        #expect(h.reader.answers[1]!.body.count == 10 && h.reader.answers[3]!.body.count == 10)
        // Lower: the windows go negative, nothing is sent.
        h.writer.settings([(.initialWindowSize, 0)])
        h.writer.windowUpdate(1, 5)
        #expect(h.send().map(\.kind) == [.settings])
        // Higher: both resume.
        h.writer.settings([(.initialWindowSize, 50)])
        var frames = h.send()
        #expect(frames.filter { $0.kind == .data }.map(\.payload.count).sorted() == [40, 45])
        #expect(h.reader.answers[1]!.body.count == 55 && h.reader.answers[3]!.body.count == 50)
        h.writer.settings([(.initialWindowSize, 100)])
        frames = h.send()
        #expect(frames.filter { $0.kind == .data }.map(\.payload.count).sorted() == [45, 50])
        #expect(h.reader.answers[1]!.body.count == 100 && h.reader.answers[1]!.ended)
        #expect(h.reader.answers[3]!.body.count == 100 && h.reader.answers[3]!.ended)
    }

    @Test func requestBodiesReopenTheWindows() {
        var limits = HTTPLimits()
        limits.http2.initialWindowSize = 65535
        let h = Harness(limits: limits)
        h.writer.headers(1, H2Writer.fields("POST", "/echo"), endStream: false)
        for _ in 0 ..< 3 { h.writer.data(1, [UInt8](repeating: 7, count: 16000)) }
        let frames = h.send()
        #expect(frames.contains { $0.kind == .windowUpdate && $0.stream == 1 && $0.increment == 48000 })
        #expect(frames.contains { $0.kind == .windowUpdate && $0.stream == 0 && $0.increment == 48000 })
    }

    // MARK: - Byte splits

    /// A conversation that touches every frame type a client sends.
    private static func conversation() -> [UInt8] {
        var w = H2Writer.opening([(.initialWindowSize, 30), (.maxFrameSize, 16384), (.headerTableSize, 4096)])
        w.ping()
        w.request(1, "GET", "/a", [("x-one", "1")])
        w.request(3, "GET", "/a", [("x-one", "1")])  // indexed this time
        // POST with a padded DATA frame, a PRIORITY and a split header block.
        let block = w.block(H2Writer.fields("POST", "/echo", [("content-length", "6"), ("x-long", String(repeating: "v", count: 40))]))
        w.frame(.headers, flags: HTTP2Flags.priority, stream: 5, [0, 0, 0, 0, 16] + Array(block[..<7]))
        w.frame(.continuation, stream: 5, Array(block[7 ..< 20]))
        w.frame(.continuation, flags: HTTP2Flags.endHeaders, stream: 5, Array(block[20...]))
        w.frame(.priority, stream: 7, [0, 0, 0, 1, 5])
        w.frame(.data, flags: HTTP2Flags.padded, stream: 5, [3] + Array("abc".utf8) + [0, 0, 0])
        w.rawFrame(type: 0x42, stream: 5, [1, 2, 3])  // unknown: ignored
        w.data(5, Array("def".utf8), endStream: true)
        w.windowUpdate(0, 1000)
        w.windowUpdate(1, 1000)
        w.settingsAck()
        w.headers(9, H2Writer.fields("POST", "/echo"), endStream: false)
        w.data(9, [1, 2])
        w.headers(9, [("x-trailer", "t")], endStream: true)
        w.rst(11 - 2)
        w.request(11, "DELETE", "/items/1")
        return w.bytes
    }

    private static func run(_ pieces: [ArraySlice<UInt8>]) -> (ready: [String], output: [UInt8]) {
        let session = HTTP2Session(limits: HTTPLimits(), streamOpener: nil, now: 0)
        var ready: [(stream: UInt32, request: HTTPRequest)] = []
        for piece in pieces {
            session.feed(Array(piece))
            ready += session.ready
            session.ready = []
        }
        for (id,
             request) in ready { session.respond(id, with: HTTPResponse(headers: ["x-path": request.target], body: Array("answer to \(id)".utf8))) }
        return (describe(ready), session.output)
    }

    @Test func theWholeConversationWorks() {
        let whole = Self.run([Self.conversation()[...]])
        #expect(whole.ready.count == 5, "\(whole.ready)")
        #expect(whole.ready.contains { $0.hasPrefix("5 POST /echo http2") && $0.hasSuffix("[97, 98, 99, 100, 101, 102]") })
        var reader = H2Reader()
        reader.read(whole.output)
        #expect(reader.goaway == nil, "\(reader.frames)")
        #expect(reader.answers[1]!.text == "answer to 1" && reader.answers[5]!.text == "answer to 5")
        #expect(reader.answers[9]?.status == nil)  // reset by the client before it was answered
        #expect(reader.answers[11]!.header("x-path") == "/items/1")
    }

    @Test func byteByByteFeedsGiveTheSameRequestsAndOutput() {
        let bytes = Self.conversation()
        let whole = Self.run([bytes[...]])
        let single = Self.run(bytes.indices.map { bytes[$0 ..< $0 + 1] })
        #expect(single.ready == whole.ready)
        #expect(single.output == whole.output)
    }

    @Test func everyTwoPieceSplitGivesTheSameRequestsAndOutput() {
        let bytes = Self.conversation()
        let whole = Self.run([bytes[...]])
        var mismatches: [Int] = []
        for split in 1 ..< bytes.count {
            let result = Self.run([bytes[..<split], bytes[split...]])
            if result.ready != whole.ready || result.output != whole.output { mismatches.append(split) }
        }
        #expect(mismatches.isEmpty)
    }

    // MARK: - Connection errors

    @Test func bytesOtherThanThePrefaceFail() {
        let session = HTTP2Session(limits: HTTPLimits(), streamOpener: nil, now: 0)
        session.output = []
        session.feed(Array("PRI * HTTP/2.0\r\n\r\nXX".utf8))
        let frames = H2Frame.parse(session.output)!
        #expect(frames.count == 1 && frames[0].kind == .goaway && frames[0].errorCode == .protocolError)
        #expect(session.isClosed)
        // A partial preface waits.
        let waiting = HTTP2Session(limits: HTTPLimits(), streamOpener: nil, now: 0)
        waiting.output = []
        waiting.feed(Array("PRI * HTTP/2".utf8))
        #expect(waiting.output.isEmpty && !waiting.isClosed)
    }

    @Test func theFirstFrameMustBeSettings() {
        let session = HTTP2Session(limits: HTTPLimits(), streamOpener: nil, now: 0)
        session.output = []
        var w = H2Writer()
        w.bytes = HTTP2Preface.bytes
        w.ping()
        session.feed(w.bytes)
        #expect(H2Frame.parse(session.output)!.map(\.errorCode) == [.protocolError])
        #expect(session.isClosed)
    }

    @Test func aFrameOverTheMaxSizeIsAFrameSizeError() {
        let h = Harness()
        // Only the header is needed to decide.
        h.writer.bytes = [0x00, 0x40, 0x01, 0x0, 0x0, 0, 0, 0, 1]
        h.send()
        expectGoaway(h, .frameSizeError)
    }

    @Test func dataOnStreamZeroOrAnIdleStreamIsAProtocolError() {
        var h = Harness()
        h.writer.data(0, [1])
        h.send()
        expectGoaway(h, .protocolError)
        h = Harness()
        h.writer.request(1)
        h.writer.data(5, [1])
        h.send()
        expectGoaway(h, .protocolError, lastStream: 1)
    }

    @Test func framesOnEvenStreamsAreOnIdleStreams() {
        // Even ids are the server's; it opens none, so they are idle, below the highest odd id too.
        for write in [{ (w: inout H2Writer) in w.data(2, [1]) }, { $0.rst(2) }, { $0.windowUpdate(2, 1) }] {
            let h = Harness()
            h.writer.request(1)
            h.writer.request(3)
            write(&h.writer)
            h.send()
            expectGoaway(h, .protocolError, lastStream: 3)
        }
        // A bad PRIORITY: a stream error on an opened stream, but RST_STREAM may not name an idle one.
        let h = Harness()
        h.writer.request(1)
        h.writer.frame(.priority, stream: 1, [0, 0, 0])
        h.send()
        expectReset(h, 1, .frameSizeError)
        h.writer.frame(.priority, stream: 2, [0, 0, 0])
        h.send()
        expectGoaway(h, .frameSizeError, lastStream: 1)
    }

    @Test func headersOnAnEvenStreamIsAProtocolError() {
        let h = Harness()
        h.writer.request(2)
        h.send()
        expectGoaway(h, .protocolError)
    }

    @Test func onlyContinuationMayFollowAnUnfinishedHeaderBlock() {
        var h = Harness()
        h.writer.frame(.headers, flags: HTTP2Flags.endStream, stream: 1, h.writer.block(H2Writer.fields()))
        h.writer.ping()
        h.send()
        expectGoaway(h, .protocolError)
        // CONTINUATION on another stream.
        h = Harness()
        let block = h.writer.block(H2Writer.fields())
        h.writer.frame(.headers, stream: 1, Array(block.prefix(2)))
        h.writer.frame(.continuation, flags: HTTP2Flags.endHeaders, stream: 3, Array(block.dropFirst(2)))
        h.send()
        expectGoaway(h, .protocolError)
    }

    @Test func continuationWithoutHeadersIsAProtocolError() {
        let h = Harness()
        h.writer.frame(.continuation, flags: HTTP2Flags.endHeaders, stream: 1, h.writer.block(H2Writer.fields()))
        h.send()
        expectGoaway(h, .protocolError)
    }

    @Test func pushPromiseFromTheClientIsAProtocolError() {
        let h = Harness()
        h.writer.frame(.pushPromise, flags: HTTP2Flags.endHeaders, stream: 1, [0, 0, 0, 2])
        h.send()
        expectGoaway(h, .protocolError)
    }

    @Test func badSettingsAreConnectionErrors() {
        let cases: [(String, (inout H2Writer) -> Void, HTTP2ErrorCode)] = [
            ("length % 6", { $0.frame(.settings, [0, 4, 0, 0, 0]) }, .frameSizeError),
            ("ACK with payload", { $0.frame(.settings, flags: HTTP2Flags.ack, [0, 4, 0, 0, 0, 1]) }, .frameSizeError),
            ("ENABLE_PUSH=2", { $0.settings([(.enablePush, 2)]) }, .protocolError),
            ("INITIAL_WINDOW_SIZE > 2^31-1", { $0.settings([(.initialWindowSize, 1 << 31)]) }, .flowControlError),
            ("MAX_FRAME_SIZE too small", { $0.settings([(.maxFrameSize, 16383)]) }, .protocolError),
            ("MAX_FRAME_SIZE too large", { $0.settings([(.maxFrameSize, 1 << 24)]) }, .protocolError),
            ("on a stream", { $0.frame(.settings, stream: 1) }, .protocolError),
        ]
        for (name, write, code) in cases {
            let h = Harness()
            write(&h.writer)
            h.send()
            #expect(h.reader.goaway?.errorCode == code, "\(name)")
            #expect(h.session.isClosed, "\(name)")
        }
        // Good ones pass, unknown ids too.
        let h = Harness()
        h.writer.rawSettings([(2, 0), (4, UInt32(Int32.max)), (5, 16_777_215), (0x99, 7)])
        #expect(h.send() == [H2Frame(.settings, flags: HTTP2Flags.ack)])
    }

    @Test func aPingMustBeEightBytes() {
        let h = Harness()
        h.writer.frame(.ping, [1, 2, 3, 4, 5, 6, 7])
        h.send()
        expectGoaway(h, .frameSizeError)
    }

    @Test func windowUpdatesOfZeroOrOverflowing() {
        // Connection: GOAWAY.
        var h = Harness()
        h.writer.windowUpdate(0, 0)
        h.send()
        expectGoaway(h, .protocolError)
        h = Harness()
        h.writer.windowUpdate(0, UInt32(Int32.max))
        h.send()
        expectGoaway(h, .flowControlError)
        // Stream: RST_STREAM, the connection goes on.
        h = Harness()
        h.writer.request(1)
        h.writer.request(3)
        h.writer.windowUpdate(1, 0)
        h.writer.windowUpdate(3, UInt32(Int32.max))
        h.send()
        expectReset(h, 1, .protocolError)
        expectReset(h, 3, .flowControlError)
        #expect(h.session.openStreams == 0)
        h.writer.request(5)
        h.send()
        #expect(h.ready().map(\.stream) == [1, 3, 5])
    }

    @Test func rstStreamOnAnIdleStreamIsAProtocolError() {
        let h = Harness()
        h.writer.rst(1)
        h.send()
        expectGoaway(h, .protocolError)
    }

    @Test func dataBeyondTheConnectionWindowIsAFlowControlError() {
        var limits = HTTPLimits()
        limits.maxBodyBytes = 4 << 20
        limits.http2.maxBufferedBodyBytes = 0  // the connection's window never reopens
        let h = Harness(limits: limits)
        h.writer.headers(3, H2Writer.fields("POST", "/echo"), endStream: false)  // two bodies held: the bound applies
        h.writer.data(3, [0])
        h.writer.headers(5, H2Writer.fields("POST", "/echo"), endStream: false)
        for _ in 0 ..< 63 { h.writer.data(5, [UInt8](repeating: 0, count: 16384)) }
        h.writer.data(5, [UInt8](repeating: 0, count: 16383))  // with stream 3's byte: the whole window
        h.send()
        #expect(h.reader.goaway == nil)
        h.writer.data(5, [0])
        h.send()
        expectGoaway(h, .flowControlError, lastStream: 5)
    }

    @Test func dataBeyondTheStreamWindowResetsTheStream() {
        var limits = HTTPLimits()
        limits.http2.initialWindowSize = 1000
        let h = Harness(limits: limits)
        h.writer.headers(1, H2Writer.fields("POST", "/echo"), endStream: false)
        h.writer.data(1, [UInt8](repeating: 0, count: 1001))
        h.send()
        expectReset(h, 1, .flowControlError)
        #expect(h.session.openStreams == 0 && h.session.bufferedBodyBytes == 0)
    }

    // MARK: - Malformed requests: stream errors

    @Test func malformedRequestsAreResetAndTheConnectionGoesOn() {
        let base = [(":method", "GET"), (":scheme", "http"), (":path", "/")]
        let cases: [(String, [(String, String)])] = [
            ("no :method", Array(base.dropFirst())),
            ("no :scheme", [base[0], base[2]]),
            ("no :path", Array(base.prefix(2))),
            ("empty :path", [base[0], base[1], (":path", "")]),
            ("unknown pseudo", base + [(":protocol", "x")]),
            ("response pseudo", base + [(":status", "200")]),
            ("repeated pseudo", base + [(":path", "/b")]),
            ("pseudo after regular", [base[0], base[1], ("accept", "*/*"), base[2]]),
            ("uppercase name", base + [("X-Upper", "1")]),
            ("connection", base + [("connection", "keep-alive")]),
            ("keep-alive", base + [("keep-alive", "5")]),
            ("transfer-encoding", base + [("transfer-encoding", "chunked")]),
            ("upgrade", base + [("upgrade", "h2c")]),
            ("te: gzip", base + [("te", "gzip")]),
            ("bad content-length", base + [("content-length", "-1")]),
            ("two content-lengths", base + [("content-length", "1"), ("content-length", "2")]),
            // §8.3.1: :path is an absolute path or `*`; §8.2.1: no NUL, CR, LF, no edge whitespace.
            ("relative :path", [base[0], base[1], (":path", "hello")]),
            ("space in :path", [base[0], base[1], (":path", "/a b")]),
            ("control in :path", [base[0], base[1], (":path", "/a\u{7F}")]),
            ("method not a token", [(":method", "G T"), base[1], base[2]]),
            ("CR LF in a value", base + [("x-a", "1\r\nx-injected: 2")]),
            ("NUL in a value", base + [("x-a", "1\u{0}")]),
            ("leading space in a value", base + [("x-a", " 1")]),
            ("trailing tab in a value", base + [("x-a", "1\t")]),
            ("LF in :authority", base + [(":authority", "a\nb")]),
        ]
        let h = Harness()
        var id: UInt32 = 1
        for (name, fields) in cases {
            h.writer.headers(id, fields)
            let frames = h.send()
            #expect(frames == [H2Frame(.rstStream, stream: id, payload: [0, 0, 0, 1])], "\(name)")
            id += 2
        }
        h.writer.request(id, "GET", "/", [("te", "trailers"), ("x-inner", "a b\tc")])
        h.send()
        #expect(h.ready().map(\.stream) == [id])
        #expect(!h.session.isClosed)
    }

    @Test func aContentLengthNotMatchingTheDataIsReset() {
        let h = Harness()
        h.writer.request(1, "POST", "/echo", [("content-length", "5")], body: [1, 2, 3])
        h.writer.request(3, "POST", "/echo", [("content-length", "2")], body: [1, 2, 3])
        h.writer.request(5, "POST", "/echo", [("content-length", "3")], body: [1, 2, 3])
        h.send()
        expectReset(h, 1, .protocolError)
        expectReset(h, 3, .protocolError)
        #expect(h.ready().map(\.stream) == [5])
        #expect(h.session.bufferedBodyBytes == 0)
    }

    @Test func hpackGarbageIsACompressionError() {
        let h = Harness()
        h.writer.frame(.headers, flags: HTTP2Flags.endHeaders | HTTP2Flags.endStream, stream: 1, [0x80])  // index 0
        h.send()
        expectGoaway(h, .compressionError)
        let h2 = Harness()
        h2.writer.frame(.headers, flags: HTTP2Flags.endHeaders | HTTP2Flags.endStream, stream: 1, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
        h2.send()
        expectGoaway(h2, .compressionError)
    }

    @Test func aHeaderListOverTheLimitIs431AndTheTableStaysInStep() {
        let h = Harness()
        h.writer.encoder.useHuffman = false
        var block: [UInt8] = []
        h.writer.encoder.beginBlock(into: &block)
        for (name, value) in H2Writer.fields("GET", "/a", [("x-token", "secret-token")]) { h.writer.encoder.encode(name, value, into: &block) }
        h.writer.encoder.encode("x-big", String(repeating: "b", count: 20000), indexing: .never, into: &block)
        h.writer.encoder.encode("x-after", "indexed-too", into: &block)
        h.writer.frame(.headers, stream: 1, Array(block[..<16000]))
        h.writer.frame(.continuation, flags: HTTP2Flags.endHeaders | HTTP2Flags.endStream, stream: 1, Array(block[16000...]))
        h.send()
        #expect(h.ready().isEmpty)
        #expect(h.reader.answers[1]?.status == 431)
        #expect(h.reader.answers[1]?.text.contains("request header fields over 16384 bytes") == true)
        // The next request's fields come from the dynamic table.
        let before = h.writer.bytes.count
        h.writer.request(3, "GET", "/a", [("x-token", "secret-token"), ("x-after", "indexed-too")])
        #expect(h.writer.bytes.count - before < 20)
        h.send()
        let ready = h.ready()
        #expect(ready.first?.request.headers["x-token"] == "secret-token")
        #expect(ready.first?.request.headers["x-after"] == "indexed-too")
        #expect(ready.first?.request.headers["host"] == "example.test")
        #expect(!h.session.isClosed)
    }

    @Test func aBodyOverTheLimitIs413AndTheStreamIsReset() {
        var limits = HTTPLimits()
        limits.maxBodyBytes = 10
        let h = Harness(limits: limits)
        // Found while DATA arrives.
        h.writer.headers(1, H2Writer.fields("POST", "/echo"), endStream: false)
        h.writer.data(1, [UInt8](repeating: 1, count: 6))
        h.writer.data(1, [UInt8](repeating: 1, count: 6))
        h.send()
        #expect(h.reader.answers[1]?.status == 413)
        expectReset(h, 1, .noError)
        // Declared up front.
        h.writer.headers(3, H2Writer.fields("POST", "/echo", [("content-length", "11")]), endStream: false)
        h.send()
        #expect(h.reader.answers[3]?.status == 413)
        expectReset(h, 3, .noError)
        // DATA still in flight is dropped, the connection goes on.
        h.writer.data(1, [1], endStream: true)
        h.writer.data(3, [1], endStream: true)
        h.writer.request(5)
        h.send()
        #expect(h.ready().map(\.stream) == [5])
        #expect(h.session.openStreams == 1 && h.session.bufferedBodyBytes == 0)
    }

    @Test func streamsBeyondTheConcurrencyLimitAreRefused() {
        var limits = HTTPLimits()
        limits.http2.maxConcurrentStreams = 2
        let h = Harness(limits: limits)
        for id: UInt32 in [1, 3, 5] { h.writer.headers(id, H2Writer.fields("POST", "/echo"), endStream: false) }
        h.send()
        expectReset(h, 5, .refusedStream)
        #expect(h.session.openStreams == 2)
        h.writer.data(1, [1], endStream: true)
        h.send()
        h.respond(1, HTTPResponse())
        h.writer.request(7)
        h.send()
        #expect(h.ready().map(\.stream) == [1, 7])
    }

    @Test func paddingLongerThanTheFrameIsAProtocolError() {
        var h = Harness()
        h.writer.headers(1, H2Writer.fields("POST", "/echo"), endStream: false)
        h.writer.frame(.data, flags: HTTP2Flags.padded, stream: 1, [5, 1, 2, 3, 4])
        h.send()
        expectGoaway(h, .protocolError, lastStream: 1)
        h = Harness()
        h.writer.frame(.headers, flags: HTTP2Flags.padded | HTTP2Flags.endHeaders, stream: 1, [200] + h.writer.block(H2Writer.fields()))
        h.send()
        expectGoaway(h, .protocolError)
    }

    @Test func aSelfDependentStreamIsReset() {
        let h = Harness()
        h.writer.frame(.headers, flags: HTTP2Flags.priority | HTTP2Flags.endHeaders | HTTP2Flags.endStream, stream: 1,
                       [0, 0, 0, 1, 16] + h.writer.block(H2Writer.fields()))
        h.send()
        expectReset(h, 1, .protocolError)
    }

    // MARK: - Floods

    /// `count` rounds of `write` against a burst of 50 control frames.
    static func flood(count: Int = 100, _ write: (inout H2Writer, Int) -> Void) -> Harness {
        var limits = HTTPLimits()
        limits.http2.controlFrameBurst = 50
        limits.http2.controlFramesPerSecond = 10
        let h = Harness(limits: limits)
        for index in 0 ..< count { write(&h.writer, index) }
        h.send()
        return h
    }

    @Test func controlFrameFloodsAreCalmedDown() {
        let pings = Self.flood { w, _ in w.ping() }
        #expect(pings.reader.frames.filter { $0.kind == .ping }.count < 50)
        expectGoaway(pings, .enhanceYourCalm)
        let settings = Self.flood { w, _ in w.settings([(.enablePush, 0)]) }
        expectGoaway(settings, .enhanceYourCalm)
        // Rapid reset: each stream opened and cancelled at once.
        let resets = Self.flood { w, index in
            w.headers(UInt32(index * 2 + 1), H2Writer.fields(), endStream: false)
            w.rst(UInt32(index * 2 + 1))
        }
        expectGoaway(resets, .enhanceYourCalm, lastStream: 99)
        #expect(resets.session.openStreams == 0)
        let windows = Self.flood { w, _ in w.windowUpdate(0, 1) }
        expectGoaway(windows, .enhanceYourCalm)
        let empty = Self.flood { w, index in
            if index == 0 { w.headers(1, H2Writer.fields("POST", "/echo"), endStream: false) } else { w.data(1, []) }
        }
        expectGoaway(empty, .enhanceYourCalm, lastStream: 1)
        let unknown = Self.flood { w, _ in w.rawFrame(type: 0xEE) }
        expectGoaway(unknown, .enhanceYourCalm)
    }

    @Test func windowUpdatesThatSendNothingCostATokenEvenOnABlockedStream() {
        var limits = HTTPLimits()
        limits.http2.controlFrameBurst = 50
        let h = Harness(limits: limits)
        h.writer.request(1)
        h.send()
        h.respond(1, HTTPResponse(body: [UInt8](repeating: 0, count: 100_000)))  // the connection's window is spent
        for _ in 0 ..< 100 { h.writer.windowUpdate(1, 1) }
        h.send()
        expectGoaway(h, .enhanceYourCalm, lastStream: 1)
        // An update that lets DATA go is free.
        let free = Harness(limits: limits)
        free.writer.request(1)
        free.send()
        free.respond(1, HTTPResponse(body: [UInt8](repeating: 0, count: 65535 + 100)))
        free.writer.windowUpdate(1, 100)
        for _ in 0 ..< 100 { free.writer.windowUpdate(0, 1) }
        free.send()
        #expect(free.reader.goaway == nil && free.reader.answers[1]!.ended)
    }

    @Test func resetsTheClientProvokesCostATokenLikeItsOwn() {
        // MadeYouReset (CVE-2025-8671): DATA on a half-closed stream makes the server reset a
        // stream whose handler may still be working; refused and malformed HEADERS likewise.
        let halfClosed = Self.flood { w, index in
            w.request(UInt32(index * 2 + 1), "GET", "/later")
            w.data(UInt32(index * 2 + 1), [1])
        }
        expectGoaway(halfClosed, .enhanceYourCalm, lastStream: 99)
        #expect(halfClosed.session.ready.count == 50)
        let malformed = Self.flood { w, index in w.headers(UInt32(index * 2 + 1), [(":method", "GET")]) }
        expectGoaway(malformed, .enhanceYourCalm, lastStream: 99)
        let badPriority = Self.flood { w, index in
            w.headers(UInt32(index * 2 + 1), H2Writer.fields(), endStream: false)
            w.frame(.priority, stream: UInt32(index * 2 + 1), [0, 0, 0])
        }
        expectGoaway(badPriority, .enhanceYourCalm, lastStream: 99)
    }

    @Test func theBucketRefillsOverTime() {
        var limits = HTTPLimits()
        limits.http2.controlFrameBurst = 50
        limits.http2.controlFramesPerSecond = 100
        let h = Harness(limits: limits)
        for second in 0 ..< 10 {
            h.now = Int64(second) * 1000
            for _ in 0 ..< 40 { h.writer.ping() }
            h.send()
        }
        #expect(h.reader.goaway == nil && h.reader.frames.filter { $0.kind == .ping }.count == 400)
    }

    @Test func aContinuationFloodIsCalmedDown() {
        var limits = HTTPLimits()
        limits.http2.maxHeaderBlockBytes = 4096
        let h = Harness(limits: limits)
        h.writer.frame(.headers, stream: 1, h.writer.block(H2Writer.fields()))
        for _ in 0 ..< 100 { h.writer.frame(.continuation, stream: 1, [UInt8](repeating: 0x40, count: 100)) }
        h.send()
        expectGoaway(h, .enhanceYourCalm)
        #expect(h.session.headerBlock == nil)
        // With the default bound, 16 KiB frames: stopped at 256 KiB, long before memory matters.
        let big = Harness()
        big.writer.frame(.headers, stream: 1, big.writer.block(H2Writer.fields()))
        for _ in 0 ..< 20 { big.writer.frame(.continuation, stream: 1, [UInt8](repeating: 0x40, count: 16384)) }
        big.send()
        expectGoaway(big, .enhanceYourCalm)
    }

    // MARK: - Streamed exchanges

    @Test func aStreamedRequestGetsDataAsItArrivesAndAnswersInParts() {
        let log = StreamLog()
        let h = Harness(opener: log.opener)
        h.writer.headers(1, H2Writer.fields("POST", "/stream"), endStream: false)
        h.send()
        #expect(h.ready().isEmpty && log.all.count == 1)
        h.writer.data(1, Array("ab".utf8))
        var frames = h.send()
        #expect(log.all[0].received == [Array("ab".utf8)])
        #expect(frames.map(\.kind) == [.headers, .data] && frames.allSatisfy { !$0.has(HTTP2Flags.endStream) })
        #expect(h.reader.answers[1]!.header("content-type") == "application/grpc")
        h.writer.data(1, Array("cd".utf8), endStream: true)
        frames = h.send()
        #expect(log.all[0].ended)
        #expect(frames.map(\.kind) == [.data, .headers] && frames.last!.has(HTTP2Flags.endStream))
        #expect(h.reader.answers[1]!.text == "abcd" && h.reader.answers[1]!.trailers?.map(\.description) == ["grpc-status: 0"])
        #expect(h.session.openStreams == 0 && !log.all[0].cancelled)
        // Other paths still go to the router.
        h.writer.request(3, "GET", "/hello")
        h.send()
        #expect(h.ready().map(\.stream) == [3])
    }

    @Test func aStreamedRequestIsCancelledByReset() {
        let log = StreamLog()
        let h = Harness(opener: log.opener)
        h.writer.headers(1, H2Writer.fields("POST", "/stream"), endStream: false)
        h.writer.data(1, [1])
        h.writer.rst(1)
        h.writer.headers(3, H2Writer.fields("POST", "/stream"), endStream: false)
        h.send()
        #expect(log.all.map(\.cancelled) == [true, false])
        #expect(h.session.openStreams == 1)
        // A connection error cancels the rest.
        h.writer.ping([1])
        h.send()
        #expect(log.all.map(\.cancelled) == [true, true])
    }

    @Test func aStreamedAnswerGoingOnAfterItsRequestIsCancelledByReset() {
        // A server-streaming call (a Watch): the request ends at once, the answer goes on, and
        // the handler is kept, and cancelled when the client resets the stream.
        let log = StreamLog()
        let h = Harness(opener: log.opener)
        h.writer.headers(1, H2Writer.fields("POST", "/watch"), endStream: false)
        h.writer.data(1, [1], endStream: true)
        h.send()
        #expect(h.reader.answers[1]!.text == "\u{1}watching" && !h.reader.answers[1]!.ended)
        #expect(h.session.isAwaitingHandler, "an open streamed answer is not idleness")
        h.writer.rst(1)
        h.send()
        #expect(log.all.map(\.cancelled) == [true])
        #expect(h.session.openStreams == 0 && !h.session.isAwaitingHandler)
    }

    @Test func aStreamedAnswerThatEndedIsNotCancelled() {
        let log = StreamLog()
        let h = Harness(opener: log.opener)
        h.writer.headers(1, H2Writer.fields("POST", "/stream"), endStream: false)
        h.writer.data(1, [1], endStream: true)
        h.send()
        #expect(h.reader.answers[1]!.ended && log.all.map(\.cancelled) == [false] && h.session.openStreams == 0)
    }

    @Test func oneLargeBodyPassesTheBoundOnBodiesHeldAtOnce() {
        // The bound stops many unfinished bodies; a single upload larger than it (a snapshot)
        // still gets its window back, up to its route's limit.
        var limits = HTTPLimits()
        limits.maxBodyBytes = 4 << 20
        limits.http2.maxBufferedBodyBytes = 64 * 1024
        let h = Harness(limits: limits)
        h.writer.headers(1, H2Writer.fields("POST", "/echo"), endStream: false)
        for _ in 0 ..< 191 { h.writer.data(1, [UInt8](repeating: 7, count: 16384)) }
        h.send()
        h.writer.data(1, [7], endStream: true)
        h.send()
        #expect(h.reader.goaway == nil)
        #expect(h.ready().map(\.request.body.count) == [191 * 16384 + 1])
    }

    /// A route that spools its bodies: the DATA go to a file as they arrive, none of it is held
    /// (the window reopens past the bound on bodies held), and the request carries the file.
    @Test func aSpooledRouteBodyGoesToAFileAndOverItsLimitIs413() throws {
        var limits = HTTPLimits()
        limits.maxBodyBytes = 1024
        limits.bodyLimitsByRoute["PUT /upload"] = 4 << 20
        limits.spooledBodyRoutes = ["PUT /upload"]
        limits.http2.maxBufferedBodyBytes = 64 * 1024
        let h = Harness(limits: limits)
        h.writer.headers(1, H2Writer.fields("PUT", "/upload", [("content-length", "\(191 * 16384 + 1)")]), endStream: false)
        for index in 0 ..< 191 { h.writer.data(1, [UInt8](repeating: UInt8(index), count: 16384)) }
        h.send()
        #expect(h.session.bufferedBodyBytes == 0)
        h.writer.data(1, [7], endStream: true)
        h.send()
        #expect(h.reader.goaway == nil)
        let request = try #require(h.ready().first?.request)
        #expect(request.body.isEmpty)
        let spooled = try #require(request.spooledBody)
        #expect(spooled.count == 191 * 16384 + 1)
        #expect(readAll(spooled) == (0 ..< 191).flatMap { [UInt8](repeating: UInt8($0), count: 16384) } + [7])

        h.writer.headers(3, H2Writer.fields("PUT", "/upload"), endStream: false)
        for _ in 0 ..< 257 { h.writer.data(3, [UInt8](repeating: 1, count: 16384)) }
        h.send()
        #expect(h.reader.answers[3]?.status == 413)
        expectReset(h, 3, .noError)
        #expect(h.session.bufferedBodyBytes == 0)
    }

    @Test func aStreamedAnswerWaitsForWindow() {
        let log = StreamLog()
        let h = Harness(opener: log.opener, settings: [(.initialWindowSize, 3)])
        h.writer.headers(1, H2Writer.fields("POST", "/stream"), endStream: false)
        h.writer.data(1, Array("hello".utf8), endStream: true)
        h.send()
        #expect(h.reader.answers[1]!.text == "hel" && h.reader.answers[1]!.trailers == nil)
        h.writer.windowUpdate(1, 10)
        h.send()
        #expect(h.reader.answers[1]!.text == "hello" && h.reader.answers[1]!.ended)
        #expect(h.session.openStreams == 0)
    }

    // MARK: - GOAWAY

    @Test func goAwayNamesTheLastStreamAndLaterStreamsAreIgnored() {
        let h = Harness()
        h.writer.request(1)
        h.writer.request(3)
        h.send()
        h.respond(1, HTTPResponse())
        h.session.goAway()
        let frames = h.drain()
        #expect(frames.count == 1 && frames[0].errorCode == .noError && frames[0].lastStream == 3)
        #expect(!h.session.isClosed)
        h.writer.request(5)
        h.writer.headers(7, H2Writer.fields("POST", "/echo"), endStream: false)
        h.writer.data(7, [1, 2, 3], endStream: true)
        h.writer.rst(7)
        h.writer.ping()
        h.send()
        #expect(h.reader.frames.last?.kind == .ping, "\(h.reader.frames)")
        #expect(h.ready().map(\.stream) == [1, 3])
        h.session.closeIfDone()
        #expect(!h.session.isClosed)
        h.respond(3, HTTPResponse(body: [1]))
        #expect(h.reader.answers[3]!.ended)
        #expect(h.session.isClosed)
        h.session.goAway()  // once only
        #expect(h.drain().isEmpty)
    }

    @Test func aClientGoAwayEndsTheSessionOnceAnswered() {
        let h = Harness()
        h.writer.request(1)
        h.writer.frame(.goaway, [0, 0, 0, 0, 0, 0, 0, 0])
        h.send()
        h.session.closeIfDone()
        #expect(!h.session.isClosed)
        h.respond(1, HTTPResponse())
        h.session.closeIfDone()
        #expect(h.session.isClosed)
    }
}
