
// One HTTP/2 connection's protocol state, RFC 9113, from the server's side, without sockets: bytes
// go in (`receive`), frames to send come out (`output`), and complete requests wait in `ready` for
// the event loop to answer through the router (`respond`). Streamed requests (gRPC streaming
// calls) go to an `HTTPStreamHandler` instead, as their DATA arrives.
//
// Errors (RFC 9113 §5.4): a connection error sends GOAWAY with the last stream processed and ends
// the session (`isClosed`); a stream error sends RST_STREAM and closes the stream. Streams
// beyond `maxConcurrentStreams` are refused (REFUSED_STREAM), so the client may retry them. What
// frames on closed streams mean is in `+Closing`.
//
// Bounds against hostile peers (each in `HTTP2Limits`): header blocks (HEADERS + CONTINUATION) stop
// at `maxHeaderBlockBytes`; frames that cost work without carrying a request draw on a token bucket
// (`controlFrameBurst` says which), and a connection that empties it is closed with
// ENHANCE_YOUR_CALM (rapid reset, CONTINUATION, PING and SETTINGS floods); the connection's receive
// window reopens only while the bodies it holds stay under `maxBufferedBodyBytes`. A client that
// stops reading stalls only itself: past `maxPendingResponseBytes` of answers held for window its
// requests are refused, the event loop answers nothing more while `maxBufferedOutput` bytes wait
// for it to read, and its idle timeout closes it (with GOAWAY).
//
// Shutdown (§6.8): `goAway()` sends GOAWAY with the highest stream id seen; streams up to it are
// answered, later ones ignored, and the loop closes the connection once none is left.

/// The server side of one HTTP/2 connection.
final class HTTP2Session {
    let limits: HTTPLimits
    var settings: HTTP2Limits { limits.http2 }
    let streamOpener: HTTPStreamOpener?

    /// Frames to send, in order.
    var output: [UInt8] = []
    /// Complete requests for the server's handler, in the order they ended.
    var ready: [(stream: UInt32, request: HTTPRequest)] = []
    /// The session is over (a connection error, or GOAWAY sent and nothing left): send `output`,
    /// then close.
    private(set) var isClosed = false
    /// GOAWAY was sent: no new streams.
    private(set) var isGoingAway = false
    /// The peer sent GOAWAY.
    private(set) var peerWentAway = false

    var decoder: HPACKDecoder
    var encoder = HPACKEncoder()
    var streams: [UInt32: HTTP2Stream] = [:]
    /// The highest stream id the client opened; lower ids not in `streams` are closed.
    var highestStream: UInt32 = 0
    /// How recent streams closed, for the frames that come after (`+Closing`).
    var closedStreams = HTTP2ClosedStreams()
    /// The highest stream id opened after GOAWAY, and ignored: its frames are not an idle stream's.
    var highestIgnored: UInt32 = 0

    /// Whether the client has opened stream `id` (it may be closed since, or ignored after GOAWAY).
    /// Even ids are the server's, and it opens none: they stay idle.
    func isOpened(_ id: UInt32) -> Bool { id & 1 == 1 && (id <= highestStream || id <= highestIgnored) }

    /// Bytes of an incomplete frame (or of the preface) left from earlier reads.
    private var inbound: [UInt8] = []
    private var prefaceChecked = false
    private var settingsReceived = false
    /// A header block being assembled from HEADERS and CONTINUATION frames.
    var headerBlock: HeaderBlock?

    /// What the client may still send on the connection, and what we may send.
    var receiveWindow = 65_535
    var sendWindow = 65_535
    /// The client's settings that shape what we send.
    var peerInitialWindow = 65_535
    var peerMaxFrameSize = 16_384
    /// Request bodies held by unfinished streams.
    var bufferedBodyBytes = 0
    /// Streams with DATA or trailers waiting for window, oldest first.
    var blocked: [UInt32] = []
    /// DATA bytes sent that the client's WINDOW_UPDATEs have not given back yet, for the
    /// connection and for its streams together: updates within them cost no flood token.
    var connectionWindowOwed = 0
    var streamWindowOwed = 0
    /// Response bytes queued behind flow control.
    var pendingBytes = 0

    /// The token bucket for control frames (see the top of the file).
    private var tokens: Int
    private var tokensRefilled: Int64

    struct HeaderBlock {
        var stream: UInt32
        var endStream: Bool
        var bytes: [UInt8]
        /// A PRIORITY field that made the stream depend on itself: a stream error once decoded.
        var selfDependent: Bool
    }

    init(limits: HTTPLimits, streamOpener: HTTPStreamOpener?, now: Int64) {
        self.limits = limits
        self.streamOpener = streamOpener
        decoder = HPACKDecoder(maxTableSize: limits.http2.headerTableSize, maxHeaderListSize: limits.maxHeaderBytes)
        tokens = limits.http2.controlFrameBurst
        tokensRefilled = now
        // The server's preface (§3.4): SETTINGS, then a larger connection window.
        let ours: [(HTTP2SettingID, Int)] = [(.maxConcurrentStreams, settings.maxConcurrentStreams),
                                             (.initialWindowSize, settings.initialWindowSize),
                                             (.maxFrameSize, settings.maxFrameSize),
                                             (.maxHeaderListSize, limits.maxHeaderBytes),
                                             (.headerTableSize, settings.headerTableSize)]
        output.appendFrameHeader(length: ours.count * 6, type: .settings, stream: 0)
        for (id, value) in ours {
            output.append(UInt8(id.rawValue >> 8))
            output.append(UInt8(truncatingIfNeeded: id.rawValue))
            output.appendUInt32(UInt32(value))
        }
        if settings.initialWindowSize > receiveWindow {
            output.appendWindowUpdate(0, settings.initialWindowSize - receiveWindow)
            receiveWindow = settings.initialWindowSize
        }
    }

    /// Streams open (not yet closed both ways).
    var openStreams: Int { streams.count }

    /// Whether nothing is in progress: no stream open and no header block half read.
    var isIdle: Bool { streams.isEmpty && headerBlock == nil && inbound.isEmpty }

    // MARK: - Reading

    /// Reads `bytes` from the peer: frames are applied, requests that end go to `ready`.
    func receive(_ bytes: UnsafeRawBufferPointer, now: Int64) {
        guard !isClosed else { return }
        refill(now)
        if inbound.isEmpty {
            let used = consume(bytes, now: now)
            if used < bytes.count, !isClosed { inbound.append(contentsOf: bytes[used...]) }
        } else {
            inbound.append(contentsOf: bytes)
            let used = inbound.withUnsafeBytes { consume($0, now: now) }
            if isClosed { inbound = [] } else { inbound.removeFirst(used) }
        }
    }

    /// Applies every whole frame in `bytes` and returns how many bytes they took.
    private func consume(_ bytes: UnsafeRawBufferPointer, now: Int64) -> Int {
        var offset = 0
        if !prefaceChecked {
            let count = min(bytes.count, HTTP2Preface.bytes.count)
            guard bytes.prefix(count).elementsEqual(HTTP2Preface.bytes.prefix(count)) else {
                fail(.protocolError, "not the HTTP/2 connection preface")
                return bytes.count
            }
            guard count == HTTP2Preface.bytes.count else { return 0 }
            prefaceChecked = true
            offset = count
        }
        while !isClosed, bytes.count - offset >= HTTP2FrameHeader.size {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            let header = HTTP2FrameHeader(length: length, type: bytes[offset + 3], flags: bytes[offset + 4],
                                          stream: bytes.uint32(at: offset + 5) & 0x7FFF_FFFF)
            guard length <= settings.maxFrameSize else {
                fail(.frameSizeError, "frame of \(length) bytes is over SETTINGS_MAX_FRAME_SIZE \(settings.maxFrameSize)")
                return bytes.count
            }
            guard bytes.count - offset - HTTP2FrameHeader.size >= length else { break }
            let start = offset + HTTP2FrameHeader.size
            offset = start + length
            apply(header, UnsafeRawBufferPointer(rebasing: bytes[start ..< offset]), now: now)
        }
        return offset
    }

    private func apply(_ frame: HTTP2FrameHeader, _ payload: UnsafeRawBufferPointer, now: Int64) {
        guard settingsReceived || frame.type == HTTP2FrameType.settings.rawValue else {
            return fail(.protocolError, "the first frame must be SETTINGS")
        }
        if let block = headerBlock, frame.type != HTTP2FrameType.continuation.rawValue || frame.stream != block.stream {
            return fail(.protocolError, "a header block must be followed by its CONTINUATION frames")
        }
        guard let type = HTTP2FrameType(rawValue: frame.type) else {
            spend()  // unknown frame types are ignored (§4.1), but not for free
            return
        }
        switch type {
        case .data: data(frame, payload, now: now)
        case .headers: headers(frame, payload, now: now)
        case .continuation: continuation(frame, payload, now: now)
        case .settings: settings(frame, payload)
        case .ping: ping(frame, payload)
        case .rstStream: rstStream(frame, payload)
        case .windowUpdate: windowUpdate(frame, payload)
        case .priority: priority(frame, payload)
        case .goaway: goaway(frame, payload)
        case .pushPromise: fail(.protocolError, "a client must not send PUSH_PROMISE")
        }
    }

    // MARK: - Errors and bounds

    /// A connection error: GOAWAY with `code`, and the session ends.
    func fail(_ code: HTTP2ErrorCode, _ reason: String) {
        guard !isClosed else { return }
        output.appendGoaway(lastStream: highestStream, code, debug: reason)
        isClosed = true
        isGoingAway = true
        for stream in streams.values { cancelHandler(of: stream) }
        streams.removeAll()
        headerBlock = nil
    }

    /// Ends the session at once, as a connection the network dropped ends: no frame, and what was
    /// not sent yet is lost (a fault that loses an answer, `HTTPResponse.closeWithoutAnswer`).
    func drop() {
        guard !isClosed else { return }
        isClosed = true
        output.removeAll()
        for stream in streams.values { cancelHandler(of: stream) }
        streams.removeAll()
        headerBlock = nil
    }

    /// The connection is gone (closed by either side, or timed out): streamed handlers still
    /// listening are cancelled, as ``HTTPStreamHandler/cancel()`` promises.
    func connectionClosed() {
        for stream in streams.values { cancelHandler(of: stream) }
    }

    /// Takes a token for a frame that carries no request; the connection fails once none is left,
    /// and then (false) the frame must not be acted on: nothing may follow GOAWAY.
    @discardableResult
    func spend() -> Bool {
        tokens -= 1
        if tokens < 0 { fail(.enhanceYourCalm, "too many control frames") }
        return !isClosed
    }

    private func refill(_ now: Int64) {
        let elapsed = now - tokensRefilled
        guard elapsed > 0 else { return }
        let added = Int(min(elapsed, 60_000)) * settings.controlFramesPerSecond / 1000
        guard added > 0 else { return }
        tokens = min(settings.controlFrameBurst, tokens + added)
        tokensRefilled = now
    }

    // MARK: - Shutdown

    /// Sends GOAWAY (NO_ERROR): streams opened so far are answered, new ones ignored.
    func goAway() {
        guard !isGoingAway else { return }
        isGoingAway = true
        output.appendGoaway(lastStream: highestStream, .noError, debug: "")
    }

    /// Ends the session after GOAWAY once nothing is left to answer.
    func closeIfDone() {
        if (isGoingAway || peerWentAway) && streams.isEmpty && headerBlock == nil { isClosed = true }
    }

    func markPeerWentAway() { peerWentAway = true }

    func markSettingsReceived() { settingsReceived = true }

    /// Streams whose request body is being read into memory.
    var bodiesBeingReceived: Int {
        streams.values.count { if case .body = $0.receiving { true } else { false } }
    }

    /// The oldest start of a stream still receiving its request, for the body timeout.
    var oldestReceivingStart: Int64? {
        streams.values.lazy.filter { if case .body = $0.receiving { true } else { false } }.map(\.started).min()
    }

    /// Whether a handler is working on an answer: off the loop, or a streamed exchange still open
    /// (a Watch, a reflection stream), which no idle timeout cuts.
    var isAwaitingHandler: Bool { streams.values.contains { $0.awaited != nil || $0.handler != nil } }
}
