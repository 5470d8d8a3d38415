// What each frame type does on arrival (RFC 9113 §6), with the checks §6 requires of it.
extension HTTP2Session {
    func data(_ frame: HTTP2FrameHeader, _ payload: UnsafeRawBufferPointer, now: Int64) {
        guard frame.stream != 0 else { return fail(.protocolError, "DATA on stream 0") }
        guard frame.length <= receiveWindow else { return fail(.flowControlError, "DATA beyond the connection's window") }
        receiveWindow -= frame.length
        guard isOpened(frame.stream) else { return fail(.protocolError, "DATA on idle stream \(frame.stream)") }
        guard let body = unpadded(frame, payload) else { return }
        guard let stream = streams[frame.stream], stream.isReceiving else {
            // Counted against the window all the same (§5.1). After the client's own END_STREAM
            // DATA is a stream error; on a closed stream it depends on how the stream closed.
            reopenConnectionWindow()
            if streams[frame.stream] != nil { reset(frame.stream, .streamClosed) } else { lateFrame("DATA", on: frame.stream) }
            return
        }
        guard frame.length <= stream.receiveWindow else { return reset(frame.stream, .flowControlError) }
        stream.receiveWindow -= frame.length
        if body.isEmpty && !frame.has(HTTP2Flags.endStream) { guard spend() else { return } }
        switch stream.receiving {
        case .streamed(let handler):
            if pendingBytes < settings.maxPendingResponseBytes { reopenConnectionWindow() }
            if !body.isEmpty { handler.receive(Array(body), writer: writer(for: stream)) }
        case .body where stream.spool != nil:
            spool(body, of: stream)
        case .body:
            guard stream.request.body.count + body.count <= stream.maxBody else {
                bufferedBodyBytes -= stream.request.body.count
                stream.request.body = []
                reopenConnectionWindow()  // still receiving: the answer resets the stream (NO_ERROR)
                return respond(stream.id, with: Router.error(413, "request body over \(stream.maxBody) bytes"))
            }
            stream.request.body.append(contentsOf: body)
            bufferedBodyBytes += body.count
            reopenConnectionWindow()
        case .done: break
        }
        guard streams[frame.stream] != nil else { return }
        if frame.has(HTTP2Flags.endStream) {
            endRequest(of: stream)
        } else if stream.receiveWindow < settings.initialWindowSize / 2, pendingBytes < settings.maxPendingResponseBytes {
            output.appendWindowUpdate(stream.id, settings.initialWindowSize - stream.receiveWindow)
            stream.receiveWindow = settings.initialWindowSize
        }
    }

    /// Writes DATA of a request whose body is spooled to its file (which holds no memory: the
    /// connection's window reopens as for a streamed request).
    private func spool(_ body: UnsafeRawBufferPointer, of stream: HTTP2Stream) {
        guard let spool = stream.spool, case .waiting = stream.answering else { return reopenConnectionWindow() }  // refused: the rest is dropped
        let failure: HTTPResponse?
        if stream.spooled + body.count > stream.maxBody {
            failure = Router.error(413, "request body over \(stream.maxBody) bytes")
        } else {
            do throws(HTTPParseError) {
                try spool.write(body, at: stream.spooled)
                stream.spooled += body.count
                failure = nil
            } catch {
                failure = Router.error(error.status, error.description)
            }
        }
        reopenConnectionWindow()
        if let failure { respond(stream.id, with: failure) }  // still receiving: the answer resets the stream (NO_ERROR)
    }

    /// Reopens the connection's window once half is used, while held bodies stay under their bound.
    func reopenConnectionWindow() {
        guard receiveWindow < settings.initialWindowSize / 2 else { return }
        // Past the bound, one stream still gets through (a large upload, such as a snapshot): the
        // bound is on many unfinished bodies at once, each of which has its own route limit.
        guard bufferedBodyBytes < settings.maxBufferedBodyBytes || bodiesBeingReceived <= 1 else { return }
        output.appendWindowUpdate(0, settings.initialWindowSize - receiveWindow)
        receiveWindow = settings.initialWindowSize
    }

    func headers(_ frame: HTTP2FrameHeader, _ payload: UnsafeRawBufferPointer, now: Int64) {
        guard frame.stream != 0, frame.stream & 1 == 1 else { return fail(.protocolError, "HEADERS on stream \(frame.stream)") }
        guard var fragment = unpadded(frame, payload) else { return }
        var selfDependent = false
        if frame.has(HTTP2Flags.priority) {
            guard fragment.count >= 5 else { return fail(.frameSizeError, "HEADERS too short for its priority fields") }
            selfDependent = fragment.uint32(at: 0) & 0x7FFF_FFFF == frame.stream
            fragment = UnsafeRawBufferPointer(rebasing: fragment[5...])
        }
        headerBlock = HeaderBlock(stream: frame.stream, endStream: frame.has(HTTP2Flags.endStream), bytes: Array(fragment),
                                  selfDependent: selfDependent)
        if frame.has(HTTP2Flags.endHeaders) { headerBlockEnded(now: now) }
    }

    func continuation(_ frame: HTTP2FrameHeader, _ payload: UnsafeRawBufferPointer, now: Int64) {
        guard headerBlock != nil else { return fail(.protocolError, "CONTINUATION without HEADERS") }
        guard spend() else { return }
        guard headerBlock!.bytes.count + payload.count <= settings.maxHeaderBlockBytes else {
            return fail(.enhanceYourCalm, "header block over \(settings.maxHeaderBlockBytes) bytes")
        }
        headerBlock!.bytes.append(contentsOf: payload)
        if frame.has(HTTP2Flags.endHeaders) { headerBlockEnded(now: now) }
    }

    func settings(_ frame: HTTP2FrameHeader, _ payload: UnsafeRawBufferPointer) {
        guard frame.stream == 0 else { return fail(.protocolError, "SETTINGS on stream \(frame.stream)") }
        guard spend() else { return }
        if frame.has(HTTP2Flags.ack) {
            if frame.length != 0 { fail(.frameSizeError, "SETTINGS ACK with a payload") }
            return
        }
        guard frame.length % 6 == 0 else { return fail(.frameSizeError, "SETTINGS of \(frame.length) bytes") }
        markSettingsReceived()
        for offset in stride(from: 0, to: payload.count, by: 6) {
            let id = UInt16(payload[offset]) << 8 | UInt16(payload[offset + 1])
            let value = Int(payload.uint32(at: offset + 2))
            switch HTTP2SettingID(rawValue: id) {
            case .enablePush:
                guard value <= 1 else { return fail(.protocolError, "SETTINGS_ENABLE_PUSH of \(value)") }
            case .initialWindowSize:
                guard value <= Int(Int32.max) else { return fail(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE over 2^31-1") }
                let change = value - peerInitialWindow
                peerInitialWindow = value
                for stream in streams.values {
                    stream.sendWindow += change
                    guard stream.sendWindow <= Int(Int32.max) else { return fail(.flowControlError, "a stream's window over 2^31-1") }
                }
                if change > 0 { resumeBlocked() }
            case .maxFrameSize:
                guard (16_384 ... 16_777_215).contains(value) else { return fail(.protocolError, "SETTINGS_MAX_FRAME_SIZE of \(value)") }
                peerMaxFrameSize = value
            case .headerTableSize:
                encoder.setMaxTableSize(min(value, 4096))
            case .maxConcurrentStreams, .maxHeaderListSize, nil:
                break  // the server opens no streams; unknown settings are ignored (§6.5.2)
            }
        }
        output.appendFrameHeader(length: 0, type: .settings, flags: HTTP2Flags.ack, stream: 0)
    }

    func ping(_ frame: HTTP2FrameHeader, _ payload: UnsafeRawBufferPointer) {
        guard frame.stream == 0 else { return fail(.protocolError, "PING on stream \(frame.stream)") }
        guard frame.length == 8 else { return fail(.frameSizeError, "PING of \(frame.length) bytes") }
        guard spend() else { return }
        if !frame.has(HTTP2Flags.ack) { output.appendFrame(.ping, flags: HTTP2Flags.ack, stream: 0, payload: payload) }
    }

    func rstStream(_ frame: HTTP2FrameHeader, _ payload: UnsafeRawBufferPointer) {
        guard frame.stream != 0 else { return fail(.protocolError, "RST_STREAM on stream 0") }
        guard frame.length == 4 else { return fail(.frameSizeError, "RST_STREAM of \(frame.length) bytes") }
        guard isOpened(frame.stream) else { return fail(.protocolError, "RST_STREAM on idle stream \(frame.stream)") }
        guard spend() else { return }
        if let stream = streams[frame.stream] { close(stream, .resetByPeer) }  // closed already: ignored (§5.1)
    }

    func windowUpdate(_ frame: HTTP2FrameHeader, _ payload: UnsafeRawBufferPointer) {
        guard frame.length == 4 else { return fail(.frameSizeError, "WINDOW_UPDATE of \(frame.length) bytes") }
        let increment = Int(payload.uint32(at: 0) & 0x7FFF_FFFF)
        // An update that lets a waiting answer go on (something is written), or gives back window
        // our DATA used (clients do so as answers arrive: grpcio twice per call), is progress; any
        // other costs a token, even on a blocked stream whose connection window stays shut.
        let written = output.count
        defer { if output.count == written { chargeUnlessReturned(increment, connection: frame.stream == 0) } }
        if frame.stream == 0 {
            guard increment > 0 else { return fail(.protocolError, "WINDOW_UPDATE of 0") }
            sendWindow += increment
            guard sendWindow <= Int(Int32.max) else { return fail(.flowControlError, "the connection's window over 2^31-1") }
            return resumeBlocked()
        }
        guard isOpened(frame.stream) else { return fail(.protocolError, "WINDOW_UPDATE on idle stream \(frame.stream)") }
        guard let stream = streams[frame.stream] else { return }  // closed: ignored (§6.9)
        guard increment > 0 else { return reset(stream.id, .protocolError) }
        stream.sendWindow += increment
        guard stream.sendWindow <= Int(Int32.max) else { return reset(stream.id, .flowControlError) }
        sendPending(stream)
    }

    /// A WINDOW_UPDATE that sent nothing is free while it gives back window our DATA used and no
    /// answer waits for window (then updates that release nothing are a flood, not bookkeeping).
    private func chargeUnlessReturned(_ increment: Int, connection: Bool) {
        if !blocked.isEmpty {
            spend()
        } else if connection, connectionWindowOwed > 0 {
            connectionWindowOwed -= min(increment, connectionWindowOwed)
        } else if !connection, streamWindowOwed > 0 {
            streamWindowOwed -= min(increment, streamWindowOwed)
        } else {
            spend()
        }
    }

    func priority(_ frame: HTTP2FrameHeader, _ payload: UnsafeRawBufferPointer) {
        guard frame.stream != 0 else { return fail(.protocolError, "PRIORITY on stream 0") }
        guard frame.length == 5 else {  // a stream error, but no RST_STREAM may name an idle stream (§5.1)
            return isOpened(frame.stream) ? reset(frame.stream, .frameSizeError) : fail(.frameSizeError, "PRIORITY of \(frame.length) bytes")
        }
        guard spend() else { return }
        if payload.uint32(at: 0) & 0x7FFF_FFFF == frame.stream, streams[frame.stream] != nil { reset(frame.stream, .protocolError) }
    }

    func goaway(_ frame: HTTP2FrameHeader, _ payload: UnsafeRawBufferPointer) {
        guard frame.stream == 0 else { return fail(.protocolError, "GOAWAY on stream \(frame.stream)") }
        guard frame.length >= 8 else { return fail(.frameSizeError, "GOAWAY of \(frame.length) bytes") }
        guard spend() else { return }
        markPeerWentAway()
    }

    /// The payload without its padding (§6.1), or nil after failing the connection.
    private func unpadded(_ frame: HTTP2FrameHeader, _ payload: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard frame.has(HTTP2Flags.padded) else { return payload }
        guard let padding = payload.first, Int(padding) < payload.count else {
            fail(.protocolError, "padding longer than the frame")
            return nil
        }
        return UnsafeRawBufferPointer(rebasing: payload[1 ..< payload.count - Int(padding)])
    }
}
