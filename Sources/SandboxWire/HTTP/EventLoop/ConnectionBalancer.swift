import Synchronization

/// Spreads accepted connections over the loops in turn, whichever loop accepted them: the
/// kernel wakes one loop per incoming connection (EPOLLEXCLUSIVE), not necessarily a fair one.
final class ConnectionBalancer: Sendable {
    let inboxes: [ConnectionInbox]
    private let next = Atomic<Int>(0)

    init(loops: Int) throws(SocketError) {
        var inboxes: [ConnectionInbox] = []
        for _ in 0 ..< loops { inboxes.append(try ConnectionInbox()) }
        self.inboxes = inboxes
    }

    /// The index of the loop that gets the next connection.
    func nextLoop() -> Int {
        next.add(1, ordering: .relaxed).oldValue % inboxes.count
    }
}
