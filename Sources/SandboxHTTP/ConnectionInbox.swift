import CEpoll
import Glibc
import Synchronization

/// What other threads hand to an event loop: connections accepted by another loop, and responses
/// produced off the loop (`HTTPResponse.later`); plus the eventfd that wakes the loop (for these
/// and for stopping).
///
/// Only what makes the inbox non-empty wakes the loop, and inside
/// `HTTPResponse.answeringTogether` not before the end: a journal's sync that finishes many
/// responses at once wakes each loop once, not once per response (each wake is a system call,
/// and the woken loop may take the CPU from the thread that woke it, which then hands over the
/// next response a context switch later). Nothing is left unseen: the loop clears the wake-up
/// before it takes what is queued, so anything queued after that finds the inbox empty and wakes
/// it again.
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
        var isEmpty: Bool { connections.isEmpty && completions.isEmpty }
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
        let wakes = pending.withLock { state in
            guard !state.closed else { return false }
            defer { state.completions.append(completion) }
            return state.isEmpty
        }
        if wakes { PendingWakes.current?.add(self) ?? wake() }
    }

    /// Queues a connection and wakes the owning loop; closes it instead once the loop has ended.
    /// Any thread.
    func deliver(fd: Int32, peer: SocketAddress?) {
        let queued = pending.withLock { state -> (accepted: Bool, wakes: Bool) in
            guard !state.closed else { return (false, false) }
            defer { state.connections.append((fd, peer)) }
            return (true, state.isEmpty)
        }
        if !queued.accepted { Glibc.close(fd) } else if queued.wakes { wake() }
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

    /// Clears the wake-up, then returns what was queued (in that order: see the type's summary).
    /// Owning loop only.
    func take() -> (connections: [(fd: Int32, peer: SocketAddress?)], completions: [Completion]) {
        var value: UInt64 = 0
        _ = read(wakeFD, &value, 8)
        return pending.withLock { state in
            defer {
                state.connections.removeAll()
                // A new array as large as this one: the next sync's answers fill it without regrowing.
                state.completions.removeAll(keepingCapacity: true)
            }
            return (state.connections, state.completions)
        }
    }
}
