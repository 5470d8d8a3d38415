
// Sending answers (RFC 9113 §8.1): HEADERS (and CONTINUATION past the peer's frame size), DATA
// within both flow-control windows (§5.2), then trailers in a last HEADERS. A stream whose answer
// is complete before its request is gets RST_STREAM(NO_ERROR), so the client stops sending.
extension HTTP2Session {
    /// Fields the server frames itself, or that HTTP/2 forbids (§8.2.2).
    private static let ownedFields: Set<String> = ["content-length", "date", "connection", "keep-alive", "proxy-connection",
                                                   "transfer-encoding", "upgrade"]

    /// Answers stream `id` with `response`; dropped if the stream is gone (reset by the client).
    func respond(_ id: UInt32, with response: HTTPResponse, date: String = "") {
        guard let stream = streams[id], case .waiting = stream.answering else { return }
        let headOnly = stream.request.method == "HEAD"
        let bodyless = response.status == 204 || response.status == 304
        let body = headOnly || bodyless ? [] : response.body
        var fields: [(String, String)] = []
        if response.trailers == nil, !bodyless { fields.append(("content-length", String(response.body.count))) }
        if !date.isEmpty { fields.append(("date", date)) }
        let cut = response.cutAfter
        writeHeaders(stream.id, status: response.status, response.headers, extra: fields,
                     endStream: body.isEmpty && response.trailers == nil && cut == nil)
        if let cut {
            // A failing proxy's answer (a `truncate` fault): part of the body, then this stream alone is reset.
            stream.answering = .sending
            queue(Array(body.prefix(cut)), on: stream)
            stream.resetAfterPending = true
            stream.endAfterPending = true
            return sendPending(stream)
        }
        if body.isEmpty && response.trailers == nil {
            finishAnswer(stream)
            return
        }
        stream.answering = .sending
        queue(body, on: stream)
        stream.pendingTrailers = response.trailers
        stream.endAfterPending = true
        sendPending(stream)
    }

    /// A writer for a streamed answer on `stream`.
    func writer(for stream: HTTP2Stream) -> HTTPStreamWriter {
        HTTPStreamWriter { [weak self, weak stream] part in
            guard let self, let stream, self.streams[stream.id] === stream else { return }
            switch (part, stream.answering) {
            case (.head(let status, let headers), .waiting):
                writeHeaders(stream.id, status: status, headers, extra: [], endStream: false)
                stream.answering = .sending
            case (.data(let bytes), .sending):
                guard pendingBytes < settings.maxPendingResponseBytes else { return reset(stream.id, .enhanceYourCalm, provoked: false) }
                queue(bytes, on: stream)
                sendPending(stream)
            case (.trailers(let trailers), .sending):
                stream.pendingTrailers = trailers
                stream.endAfterPending = true
                sendPending(stream)
            case (.trailers(let trailers), .waiting):  // trailers only
                writeHeaders(stream.id, status: 200, trailers, extra: [], endStream: true)
                finishAnswer(stream)
            default:
                break  // out of order, or after the end: dropped
            }
        }
    }

    private func queue(_ bytes: [UInt8], on stream: HTTP2Stream) {
        if stream.pendingOffset == stream.pendingData.count {
            stream.pendingData = bytes
            stream.pendingOffset = 0
        } else {
            stream.pendingData.append(contentsOf: bytes)
        }
        pendingBytes += bytes.count
    }

    /// Sends as much of `stream`'s queued answer as the windows allow.
    func sendPending(_ stream: HTTP2Stream) {
        while stream.pendingOffset < stream.pendingData.count {
            let size = min(stream.pendingData.count - stream.pendingOffset, stream.sendWindow, sendWindow, peerMaxFrameSize)
            guard size > 0 else {
                if !stream.isBlocked {
                    stream.isBlocked = true
                    blocked.append(stream.id)
                }
                return
            }
            let last = stream.pendingOffset + size == stream.pendingData.count
            let end = last && stream.endAfterPending && stream.pendingTrailers == nil && !stream.resetAfterPending
            output.appendFrameHeader(length: size, type: .data, flags: end ? HTTP2Flags.endStream : 0, stream: stream.id)
            output.append(contentsOf: stream.pendingData[stream.pendingOffset ..< stream.pendingOffset + size])
            stream.pendingOffset += size
            stream.sendWindow -= size
            sendWindow -= size
            connectionWindowOwed += size
            streamWindowOwed += size
            pendingBytes -= size
        }
        unblock(stream)
        stream.pendingData = []
        stream.pendingOffset = 0
        guard stream.endAfterPending else { return }
        stream.endAfterPending = false
        if stream.resetAfterPending {
            // No trailers: the client sees the stream end broken, not a status (RFC 9113 §8.1: a reset ends it).
            reset(stream.id, .internalError, provoked: false)
            return closeIfDone()
        }
        if let trailers = stream.pendingTrailers {
            stream.pendingTrailers = nil
            writeHeaders(stream.id, status: nil, trailers, extra: [], endStream: true)
        }
        finishAnswer(stream)
    }

    /// Takes `stream` off the list of streams waiting for window.
    func unblock(_ stream: HTTP2Stream) {
        guard stream.isBlocked else { return }
        stream.isBlocked = false
        blocked.removeAll { $0 == stream.id }
    }

    /// Streams waiting for window get their turn, oldest first.
    func resumeBlocked() {
        guard !blocked.isEmpty else { return }
        let waiting = blocked
        blocked.removeAll()
        for id in waiting {
            guard let stream = streams[id] else { continue }
            stream.isBlocked = false
            sendPending(stream)
        }
    }

    /// The answer is complete: the stream closes, with RST_STREAM(NO_ERROR) if the client is still sending.
    private func finishAnswer(_ stream: HTTP2Stream) {
        stream.answering = .done
        if stream.isReceiving, case .body = stream.receiving {
            output.appendRSTStream(stream.id, .noError)
            close(stream, .resetByUs)
        } else if stream.isReceiving {
            return  // a streamed request goes on until its end (the handler ignores the rest)
        } else {
            close(stream, .ended)
        }
        closeIfDone()
    }

    /// One header block: `:status` (none for trailers), the fields, in HEADERS and CONTINUATION frames.
    private func writeHeaders(_ id: UInt32, status: Int?, _ headers: HTTPHeaders, extra: [(String, String)], endStream: Bool) {
        var block: [UInt8] = []
        encoder.beginBlock(into: &block)
        if let status { encoder.encode(":status", Self.statusText(status), into: &block) }
        for (name, value) in extra { encoder.encode(name, value, into: &block) }
        for field in headers {
            let name = field.name.utf8.contains(where: { (0x41 ... 0x5A).contains($0) }) ? field.name.lowercased() : field.name
            guard !Self.ownedFields.contains(name), HTTPHeaders.isWritable(name: name, value: field.value) else { continue }
            let sensitive = name == "authorization" || name == "set-cookie" || name == "cookie"
            encoder.encode(name, field.value, indexing: sensitive ? .never : .incremental, into: &block)
        }
        var offset = 0
        var type = HTTP2FrameType.headers
        repeat {
            let size = min(block.count - offset, peerMaxFrameSize)
            let last = offset + size == block.count
            var flags: UInt8 = last ? HTTP2Flags.endHeaders : 0
            if type == .headers, endStream { flags |= HTTP2Flags.endStream }
            output.appendFrameHeader(length: size, type: type, flags: flags, stream: id)
            output.append(contentsOf: block[offset ..< offset + size])
            offset += size
            type = .continuation
        } while offset < block.count
    }

    private static let statusTexts: [String] = (0 ..< 600).map { String($0) }

    private static func statusText(_ status: Int) -> String {
        statusTexts.indices.contains(status) ? statusTexts[status] : String(status)
    }

}
