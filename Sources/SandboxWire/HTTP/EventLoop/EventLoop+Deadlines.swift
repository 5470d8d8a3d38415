import CSystem
import Glibc

// Deadlines (header, body and idle timeouts, lingering), the sweep that enforces them a few times
// per timeout period, and the start of a graceful stop.
extension EventLoop {
    /// When the connection is next due for closing, from what it is waiting for.
    func updateDeadline(_ connection: Connection) {
        guard connection.phase == .open else { return }
        if let session = connection.session {
            if session.isAwaitingHandler {
                connection.deadline = .max
            } else if let started = session.oldestReceivingStart {
                connection.deadline = started + settings.bodyTimeout
            } else {
                connection.deadline = connection.lastActivity + settings.idleTimeout
            }
        } else if connection.awaiting != nil {
            connection.deadline = .max  // our own response is late, not the client
        } else if connection.hasPendingOutput || connection.parser.isIdle {
            connection.deadline = connection.lastActivity + settings.idleTimeout
        } else if connection.parser.isReadingHead {
            connection.deadline = connection.requestStartedAt + settings.headerTimeout
        } else {
            connection.deadline = connection.requestStartedAt + settings.bodyTimeout
        }
    }

    /// Closes or answers 408 to every connection past its deadline; while stopping, closes idle ones.
    func sweep() {
        for case let connection? in connections {
            if let session = connection.session {
                // Stopping, HTTP/2 connections close once their streams are answered (`closeIfDone`).
                if connection.deadline <= now {
                    // Idle, or a request too slow: GOAWAY first (§9.1), so the client knows what was answered.
                    session.fail(.noError, "timed out")
                    transmit(session, on: connection)
                    if !connection.isClosed, connection.phase == .open { close(connection) }
                } else if stopping, session.isIdle {
                    transmit(session, on: connection)
                }
                continue
            }
            let idle = connection.phase == .open && connection.parser.isIdle && !connection.hasPendingOutput
                && connection.awaiting == nil
            if stopping && idle {
                close(connection)
            } else if connection.deadline <= now {
                if connection.phase == .open && !connection.parser.isIdle && !connection.hasPendingOutput {
                    // Too slow sending a request: say so before closing.
                    answer(Router.error(408, "request not received in time"), closing: connection)
                    flush(connection)
                    if !connection.isClosed, connection.phase == .open { close(connection) }
                } else {
                    close(connection)
                }
            }
        }
        if !stopping {
            for listener in pausedListeners {
                control(EPOLL_CTL_ADD, listener, cepoll_in | cepoll_exclusive)
                listeners.append(listener)
            }
            pausedListeners.removeAll()
        }
    }

    /// Stops watching the listening sockets and starts the grace period.
    func beginStop() {
        stopping = true
        // The listening sockets are shared: the server closes them once every loop has ended.
        for listener in listeners { control(EPOLL_CTL_DEL, listener, 0) }
        listeners.removeAll()
        pausedListeners.removeAll()
        stopDeadline = now + settings.gracePeriod
        for case let connection? in connections {
            guard let session = connection.session else { continue }
            session.goAway()
            transmit(session, on: connection)
        }
        sweep()
    }
}
