import CSystem
import Glibc

// Answering: parsed requests go to the handler in order, responses into the connection's output,
// which is sent as far as the socket takes it; a response that closes the connection lingers.
extension EventLoop {
    /// Answers every complete request buffered on `connection`, then sends.
    /// At most `requestsPerTurn` of them: the rest wait for the loop's next turn.
    func serve(_ connection: Connection) {
        var outputFull: Bool
        var budget = Self.requestsPerTurn
        repeat {
            outputFull = false
            while !connection.closeAfterWrite, connection.awaiting == nil {
                if connection.output.count - connection.outputOffset >= Self.maxBufferedOutput {
                    outputFull = true
                    break
                }
                if budget == 0 {
                    if !connection.parser.isIdle, !connection.isBacklogged {
                        connection.isBacklogged = true
                        backlogged.append(connection)
                    }
                    break
                }
                let event: HTTPParser.Event?
                do {
                    event = try connection.parser.next()
                } catch {
                    answer(error, on: connection)
                    break
                }
                guard let event else { break }
                switch event {
                case .expectContinue: connection.output.append(contentsOf: ResponseEncoder.continueLine)
                case .request(let request):
                    budget -= 1
                    answer(request, on: connection)
                case .response: break  // a request parser produces none
                }
            }
            if connection.peerClosed, connection.awaiting == nil, !connection.isBacklogged { connection.closeAfterWrite = true }
            flush(connection)
        } while outputFull && !connection.isClosed && !connection.hasPendingOutput
    }

    /// Gives each connection left over from the last turn its next turn.
    func serveBacklog() {
        guard !backlogged.isEmpty else { return }
        let turn = backlogged
        backlogged.removeAll(keepingCapacity: true)
        for connection in turn where !connection.isClosed {
            connection.isBacklogged = false
            if let session = connection.session { serve(connection, session) } else { serve(connection) }
        }
    }

    func answer(_ request: HTTPRequest, on connection: Connection) {
        let (response, awaited) = handle(request, on: connection, keepAlive: request.keepAlive && !stopping)
        connection.requestStartedAt = now
        if let response { write(response, for: awaited, on: connection) } else { connection.awaiting = awaited }
    }

    /// Runs the handler for a request of `connection` (over HTTP/2, of its `stream`): the answer
    /// when it is ready now; nil when it is produced off the loop, and comes back through the inbox
    /// (`finish`), or held by a gate (EventLoop+Held). Either way, what logging and counting the
    /// answer will need.
    func handle(_ request: HTTPRequest, on connection: Connection, stream: UInt32 = 0,
                keepAlive: Bool) -> (HTTPResponse?, AwaitedRequest) {
        let started = settings.accessLog == nil && settings.metrics == nil ? 0 : Socket.monotonicNanoseconds()
        var request = request
        request.remoteAddress = connection.remoteAddress
        let response = handler(request)
        let awaited = AwaitedRequest(method: request.method, path: request.path, keepAlive: keepAlive,
                                     http10: request.version == .http1_0, started: started, route: response.route)
        connection.lastActivity = now
        let (inbox, fd, serial) = (inbox, connection.fd, connection.serial)
        if let starter = response.starter {
            starter { answer in inbox.complete(.init(fd: fd, serial: serial, stream: stream, response: answer.flattened)) }
            return (nil, awaited)
        }
        if response.isHeld {
            held.append(.init(fd: fd, serial: serial, stream: stream, response: response))
            return (nil, awaited)
        }
        return (response, awaited)
    }

    /// Sends the response a connection was waiting for, then goes on with its next requests (a
    /// response a gate holds waits for it first: see EventLoop+Held).
    func finish(_ completion: ConnectionInbox.Completion) {
        var completion = completion
        if let hold = completion.response.hold {
            guard let released = hold.release(completion.response) else { return held.append(completion) }
            completion.response = released
        }
        guard Int(completion.fd) < connections.count, let connection = connections[Int(completion.fd)],
              connection.serial == completion.serial else { return }
        if let session = connection.session { return finish(completion, on: connection, session) }
        guard let awaited = connection.awaiting else { return }
        connection.awaiting = nil
        write(completion.response, for: awaited, on: connection)
        serve(connection)
    }

    private func write(_ response: HTTPResponse, for request: AwaitedRequest, on connection: Connection) {
        if response.dropsConnection {
            connection.closeAfterWrite = true
            logAndCount(request, status: 0)
            return
        }
        ResponseEncoder.write(response, keepAlive: request.keepAlive, headOnly: request.isHead,
                              http10: request.http10, dateLine: date.headerLine, into: &connection.output, last: &lastHead)
        // A cut answer ends the connection after its last byte, as a failing proxy's does (`HTTPResponse.cutOff(after:)`).
        if !request.keepAlive || response.cutAfter != nil { connection.closeAfterWrite = true }
        logAndCount(request, status: response.status)
    }

    func logAndCount(_ request: AwaitedRequest, status: Int) {
        guard settings.accessLog != nil || settings.metrics != nil else { return }
        let nanoseconds = Socket.monotonicNanoseconds() - request.started
        settings.metrics?.record(route: request.route, status: status, nanoseconds: nanoseconds)
        settings.accessLog?.appendLine(method: request.method, path: request.path, status: status,
                                       nanoseconds: nanoseconds, time: date.timestamp, to: &logBuffer)
    }

    /// Answers a request the parser refused, and closes after it.
    func answer(_ error: HTTPParseError, on connection: Connection) {
        answer(Router.error(error.status, error.description), closing: connection)
    }

    /// Sends `response` to a request that never became whole (refused or too slow), logs it with
    /// `-` for method and path, and closes after it.
    func answer(_ response: HTTPResponse, closing connection: Connection) {
        ResponseEncoder.write(response, keepAlive: false, headOnly: false, http10: false,
                              dateLine: date.headerLine, into: &connection.output, last: &lastHead)
        connection.closeAfterWrite = true
        settings.metrics?.record(route: Router.unmatched, status: response.status, nanoseconds: nil)
        settings.accessLog?.appendLine(method: "-", path: "-", status: response.status, nanoseconds: 0,
                                       time: date.timestamp, to: &logBuffer)
    }

    func flush(_ connection: Connection) {
        guard !connection.isClosed else { return }
        while connection.hasPendingOutput {
            let n = connection.output.withUnsafeBytes { bytes in
                send(connection.fd, bytes.baseAddress! + connection.outputOffset,
                     bytes.count - connection.outputOffset, Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                connection.outputOffset += n
                connection.lastActivity = now
            } else if n < 0 && errno == EINTR {
                continue
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                if !connection.waitingToWrite {
                    control(EPOLL_CTL_MOD, connection.fd, cepoll_out)
                    connection.waitingToWrite = true
                }
                updateDeadline(connection)
                return
            } else {
                close(connection)  // EPIPE, ECONNRESET: the peer is gone.
                return
            }
        }
        connection.output.removeAll(keepingCapacity: connection.output.capacity <= 64 * 1024)
        connection.outputOffset = 0
        if connection.waitingToWrite {
            control(EPOLL_CTL_MOD, connection.fd, cepoll_in)
            connection.waitingToWrite = false
        }
        if connection.closeAfterWrite {
            if connection.peerClosed { close(connection) } else if connection.phase == .open { linger(connection) }
        } else {
            updateDeadline(connection)
        }
    }

    func linger(_ connection: Connection) {
        shutdown(connection.fd, Int32(SHUT_WR))
        connection.phase = .lingering
        connection.deadline = now + Self.lingerTime
    }
}
