import Glibc

// HTTP/2 on the same port as HTTP/1.1 (RFC 9113 §3.3, prior knowledge): a connection whose first
// bytes are the client preface is handed to an `HTTP2Session`; anything else is HTTP/1.1 as ever.
// Each stream's request goes through the same handler (the router) as an HTTP/1.1 request; a
// response produced off the loop comes back through the inbox with its stream's id.
extension EventLoop {
    enum WireProtocol {
        case undecided
        case http1
        case http2
    }

    /// Matches a new connection's bytes against the preface: HTTP/2 once all of it has arrived,
    /// HTTP/1 at the first byte that differs. HTTP/1's parser then gets the matched bytes first.
    func detectProtocol(_ connection: Connection, _ bytes: UnsafeRawBufferPointer) -> WireProtocol {
        guard let matched = connection.prefaceMatched else { return connection.session == nil ? .http1 : .http2 }
        let preface = HTTP2Preface.bytes
        let count = min(bytes.count, preface.count - matched)
        guard bytes.prefix(count).elementsEqual(preface[matched ..< matched + count]) else {
            connection.prefaceMatched = nil
            if matched > 0 { preface[..<matched].withUnsafeBytes { connection.parser.append($0) } }
            return .http1
        }
        guard matched + count == preface.count else {
            connection.prefaceMatched = matched + count
            return .undecided
        }
        connection.prefaceMatched = nil
        let session = HTTP2Session(limits: settings.limits, streamOpener: settings.streamOpener, now: now)
        preface[..<matched].withUnsafeBytes { session.receive($0, now: now) }
        connection.session = session
        return .http2
    }

    /// Answers the requests that `session` has ready, then sends what it wrote. As for HTTP/1,
    /// at most `requestsPerTurn` a turn (the rest wait in `backlogged`, and the connection is not
    /// read meanwhile), and none while `maxBufferedOutput` bytes wait for the client to read them
    /// (they are answered once it does: `writable`).
    func serve(_ connection: Connection, _ session: HTTP2Session) {
        var answered = 0
        while answered < session.ready.count, !connection.isClosed {
            if connection.output.count - connection.outputOffset + session.output.count >= Self.maxBufferedOutput { break }
            if answered == Self.requestsPerTurn {
                if !connection.isBacklogged {
                    connection.isBacklogged = true
                    backlogged.append(connection)
                }
                break
            }
            let (stream, request) = session.ready[answered]
            answered += 1
            // Reset by the client in the same read (rapid reset): nobody waits for the answer.
            guard session.streams[stream] != nil else { continue }
            // Answers held for a window the client does not open are held in memory: past the
            // bound, requests are refused unprocessed (a zero-window reader holds only itself).
            if session.pendingBytes >= session.settings.maxPendingResponseBytes {
                session.reset(stream, .refusedStream)
                continue
            }
            answer(request, stream: stream, on: connection, session)
        }
        session.ready.removeFirst(answered)
        transmit(session, on: connection)
    }

    private func answer(_ request: HTTPRequest, stream: UInt32, on connection: Connection, _ session: HTTP2Session) {
        let (response, awaited) = handle(request, on: connection, stream: stream, keepAlive: true)
        if let response { write(response, stream: stream, for: awaited, session) } else { session.streams[stream]?.awaited = awaited }
    }

    /// A response produced off the loop for an HTTP/2 stream.
    func finish(_ completion: ConnectionInbox.Completion, on connection: Connection, _ session: HTTP2Session) {
        guard let stream = session.streams[completion.stream], let awaited = stream.awaited else { return }
        stream.awaited = nil
        write(completion.response, stream: completion.stream, for: awaited, session)
        serve(connection, session)
    }

    private func write(_ response: HTTPResponse, stream: UInt32, for request: AwaitedRequest, _ session: HTTP2Session) {
        if response.dropsConnection {
            // A fault that loses the answer looks like the network losing it: the connection ends, as
            // over HTTP/1.1 (a gRPC client sees UNAVAILABLE, safe to retry, not a stream's INTERNAL).
            session.drop()
            logAndCount(request, status: 0)
            return
        }
        session.respond(stream, with: response, date: date.value)
        logAndCount(request, status: response.status)
    }

    /// Moves what the session wrote into the connection's output and sends it; a closed session
    /// closes the connection once that is sent.
    func transmit(_ session: HTTP2Session, on connection: Connection) {
        if !session.output.isEmpty {
            connection.output.append(contentsOf: session.output)
            session.output.removeAll(keepingCapacity: session.output.capacity <= 64 * 1024)
        }
        session.closeIfDone()
        if session.isClosed || connection.peerClosed { connection.closeAfterWrite = true }
        flush(connection)
    }
}
