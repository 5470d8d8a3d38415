// Closing streams, and frames that arrive on closed ones (RFC 9113 §5.1 "closed", §5.1.1).
//
// A closed stream leaves the table, and `closedStreams` remembers how it closed, because a late
// DATA or HEADERS means something different in each case:
// - we reset it: the client may have sent anything before our RST_STREAM reached it, so §5.1 has
//   every frame ignored after minimal processing (a header block still goes through HPACK, DATA
//   still counts against the connection's window);
// - the client reset it: the client knows the stream is closed, so DATA or HEADERS is a stream error
//   STREAM_CLOSED (RFC 7540 §5.1's rule; RFC 9113 allows a connection error, which would end the
//   client's other streams over one bad frame). After our RST_STREAM it counts as reset by us;
// - both sides ended it (END_STREAM each way): nothing but WINDOW_UPDATE, RST_STREAM and PRIORITY
//   may follow, so DATA or HEADERS is a connection error STREAM_CLOSED;
// - it was never opened (the client opened a higher id first, which closed it): HEADERS reusing the
//   id is a connection error PROTOCOL_ERROR (§5.1.1), and DATA too (no state permits it).
// WINDOW_UPDATE and RST_STREAM are ignored on every closed stream, since they may cross our
// END_STREAM or RST_STREAM (§5.1, §6.9), and PRIORITY is allowed in every state (§6.3). A stream
// too old to be remembered is taken as reset by us: that is the one case where an error would be
// wrong (a real client's frames in flight), so forgetting costs at most a late error on a client's
// bug, never a working client its connection. Streams ignored after GOAWAY (§6.8) stay ignored.
extension HTTP2Session {
    /// A stream error: RST_STREAM with `code`, and the stream is forgotten. A reset the client
    /// provoked costs a token as its own RST_STREAM does: otherwise frames that make the server
    /// reset streams (DATA on a half-closed stream or one the client reset, refused or malformed
    /// HEADERS, a bad PRIORITY) would be a free rapid reset (MadeYouReset, CVE-2025-8671).
    func reset(_ id: UInt32, _ code: HTTP2ErrorCode, provoked: Bool = true) {
        output.appendRSTStream(id, code)
        if let stream = streams[id] { close(stream, .resetByUs) } else { closedStreams.record(id, .resetByUs) }
        if provoked { spend() }
    }

    /// Forgets `stream`, remembering how it closed; a streamed handler still listening is cancelled.
    func close(_ stream: HTTP2Stream, _ closure: HTTP2ClosedStreams.Closure) {
        cancelHandler(of: stream)
        let held = stream.request.body.count
        if case .body = stream.receiving { bufferedBodyBytes -= held }
        stream.receiving = .done
        stream.answering = .done
        pendingBytes -= stream.pendingData.count - stream.pendingOffset
        stream.pendingData = []
        stream.pendingOffset = 0
        unblock(stream)
        streams[stream.id] = nil
        closedStreams.record(stream.id, closure)
        if held > 0 { reopenConnectionWindow() }
    }

    /// A streamed handler whose answer has not ended is cancelled; either way the stream lets go of it.
    func cancelHandler(of stream: HTTP2Stream) {
        guard let handler = stream.handler else { return }
        stream.handler = nil
        if case .streamed = stream.receiving { stream.receiving = .done }
        if stream.answering != .done { handler.cancel() }
    }

    /// DATA or HEADERS (`kind`) on stream `id`, which the client opened (`isOpened`) and which is
    /// no longer in the table: ignored, or an error, by how the stream closed.
    func lateFrame(_ kind: String, on id: UInt32) {
        guard id <= highestStream else { return }  // opened after GOAWAY, and ignored
        switch closedStreams.recall(id, highest: highestStream) {
        case .closed(.resetByUs), .forgotten: break
        case .closed(.resetByPeer): reset(id, .streamClosed)
        case .closed(.ended): fail(.streamClosed, "\(kind) on stream \(id), which both sides ended")
        case .neverOpened: fail(.protocolError, "\(kind) on stream \(id), which was never opened (stream \(highestStream) was opened after it)")
        }
    }
}
