import CEpoll
import Glibc
import Synchronization

/// What other threads hand to an event loop: connections accepted by another loop, and responses
/// produced off the loop (`HTTPResponse.later`); plus the eventfd that wakes the loop (for these
/// and for stopping).
final class ConnectionInbox: Sendable {
    let wakeFD: Int32
    /// A response for the request a connection is waiting on; `serial` tells the connection apart
    /// from a later one that got the same descriptor; `stream` is the HTTP/2 stream (0 for HTTP/1).
    struct Completion: Sendable {
        let fd: Int32
        let serial: Int
        var stream: UInt32 = 0
        let response: HTTPResponse
    }

    private struct Pending {
        var connections: [(fd: Int32, peer: SocketAddress?)] = []
        var completions: [Completion] = []
        var closed = false
    }

    private let pending = Mutex(Pending())

    init() throws(SocketError) {
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFD >= 0 else { throw SocketError("eventfd") }
    }

    deinit {
        close()
        Glibc.close(wakeFD)
    }

    /// Hands a finished response to the loop; dropped once the loop has ended. Any thread.
    func complete(_ completion: Completion) {
        let accepted = pending.withLock { state in
            if !state.closed { state.completions.append(completion) }
            return !state.closed
        }
        if accepted { wake() }
    }

    /// Queues a connection and wakes the owning loop; closes it instead once the loop has ended.
    /// Any thread.
    func deliver(fd: Int32, peer: SocketAddress?) {
        let accepted = pending.withLock { state in
            if !state.closed { state.connections.append((fd, peer)) }
            return !state.closed
        }
        if accepted { wake() } else { Glibc.close(fd) }
    }

    /// Refuses further connections and closes the queued ones. Owning loop, when it ends.
    func close() {
        let left = pending.withLock { state in
            state.closed = true
            defer { state = Pending(closed: true) }
            return state.connections
        }
        for connection in left { Glibc.close(connection.fd) }
    }

    /// Wakes the owning loop. Any thread.
    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Clears the wake-up and returns what was queued. Owning loop only.
    func take() -> (connections: [(fd: Int32, peer: SocketAddress?)], completions: [Completion]) {
        var value: UInt64 = 0
        _ = read(wakeFD, &value, 8)
        return pending.withLock { state in
            defer {
                state.connections.removeAll()
                state.completions.removeAll()
            }
            return (state.connections, state.completions)
        }
    }
}
