import CSystem
import Glibc
import Synchronization

/// What other threads hand to an event loop: connections accepted by another loop, responses
/// produced off the loop (`HTTPResponse.later`), and word that a gate let its held responses go
/// (`ResponseGate`); plus the eventfd that wakes the loop (for these and for stopping).
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
        var response: HTTPResponse
    }

    /// What is queued. The loop takes it by swapping in the arrays it emptied last time, so at a
    /// steady rate taking allocates nothing (a new array per take, as large as a sync's answers,
    /// cost each loop a slow allocation and a consolidation of the allocator's free lists).
    struct Queued {
        var connections: [(fd: Int32, peer: SocketAddress?)] = []
        var completions: [Completion] = []
        /// A gate the loop asked to be woken by let a held response go.
        var gateOpened = false
        var isEmpty: Bool { connections.isEmpty && completions.isEmpty && !gateOpened }

        mutating func removeAll() {
            connections.removeAll(keepingCapacity: true)
            completions.removeAll(keepingCapacity: true)
            gateOpened = false
        }
    }

    private struct Pending {
        var queued = Queued()
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
        if enqueue({ $0.completions.append(completion) }) == .queuedFirst { wakeTogether() }
    }

    /// Tells the loop that a gate it asked to be woken by let held responses go. Any thread.
    func gateOpened() {
        if enqueue({ $0.gateOpened = true }) == .queuedFirst { wakeTogether() }
    }

    /// Queues a connection and wakes the owning loop; closes it instead once the loop has ended.
    /// Any thread.
    func deliver(fd: Int32, peer: SocketAddress?) {
        switch enqueue({ $0.connections.append((fd, peer)) }) {
        case .refused: Glibc.close(fd)
        case .queuedFirst: wake()
        case .queued: break
        }
    }

    private enum Enqueued { case refused, queued, queuedFirst }

    /// Adds to the queue unless the loop has ended; `.queuedFirst` when it was empty (the caller wakes the loop).
    private func enqueue(_ add: (inout Queued) -> Void) -> Enqueued {
        pending.withLock { state in
            guard !state.closed else { return .refused }
            let wasEmpty = state.queued.isEmpty
            add(&state.queued)
            return wasEmpty ? .queuedFirst : .queued
        }
    }

    /// Refuses further connections and closes the queued ones. Owning loop, when it ends.
    func close() {
        let left = pending.withLock { state in
            state.closed = true
            defer { state.queued = Queued() }
            return state.queued
        }
        for connection in left.connections { Glibc.close(connection.fd) }
    }

    /// Wakes the owning loop at the end of the calling thread's `HTTPResponse.answeringTogether`,
    /// else now.
    private func wakeTogether() {
        PendingWakes.current?.add(self) ?? wake()
    }

    /// Wakes the owning loop. Any thread.
    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Clears the wake-up, then swaps what was queued with `taken`, which the loop emptied (in
    /// that order: see the type's summary). Owning loop only.
    func take(into taken: inout Queued) {
        var value: UInt64 = 0
        _ = read(wakeFD, &value, 8)
        pending.withLock { swap(&$0.queued, &taken) }
    }
}
