import CEpoll
import Glibc
import Synchronization

/// Accepted connections handed from the loop that accepted them to the loop that will serve
/// them, plus the eventfd that wakes that loop (for new connections and for stopping).
final class ConnectionInbox: Sendable {
    let wakeFD: Int32
    private let pending = Mutex<(connections: [(fd: Int32, peer: SocketAddress?)], closed: Bool)>(([], false))

    init() throws(SocketError) {
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFD >= 0 else { throw SocketError("eventfd") }
    }

    deinit {
        close()
        Glibc.close(wakeFD)
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
            defer { state.connections.removeAll() }
            return state.connections
        }
        for connection in left { Glibc.close(connection.fd) }
    }

    /// Wakes the owning loop. Any thread.
    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Clears the wake-up and returns the queued connections. Owning loop only.
    func take() -> [(fd: Int32, peer: SocketAddress?)] {
        var value: UInt64 = 0
        _ = read(wakeFD, &value, 8)
        return pending.withLock { state in
            defer { state.connections.removeAll() }
            return state.connections
        }
    }
}
