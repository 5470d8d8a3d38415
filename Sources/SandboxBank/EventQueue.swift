/// Scheduled bank events in time order; ties keep the order they were scheduled in.
struct EventQueue: Sendable {
    enum Kind: Sendable, Equatable {
        /// Step `step` of a payout's timeline, valid while it is the payout's next step in an
        /// unchanged generation.
        case timeline(payoutID: Int, generation: Int, step: Int)
        /// A notification's delivery attempt after `attempt` scheduled ones, valid while it is
        /// pending and has made just that many.
        case delivery(notificationID: Int, attempt: Int)
        /// A payout staged or awaiting details expires, valid while it still waits.
        case expiry(payoutID: Int)
        /// A chaos copy of a notification (`ChaosPlan.copies[copy]`), valid while due then and not sent.
        case chaos(notificationID: Int, copy: Int)
    }

    struct Event: Sendable, Equatable {
        let at: Int64
        let sequence: Int
        let kind: Kind

        func precedes(_ other: Event) -> Bool {
            at != other.at ? at < other.at : sequence < other.sequence
        }
    }

    private var heap: [Event] = []
    private var sequence = 0

    init() {}

    /// A queue holding `events`; the next scheduled gets a sequence number after `sequence` and theirs.
    init(events: [Event], sequence: Int) {
        heap = events.sorted { $0.precedes($1) }  // a sorted array is a heap
        self.sequence = max(sequence, events.map(\.sequence).max() ?? 0)
    }

    /// The last sequence number handed out.
    var lastSequence: Int { sequence }

    var isEmpty: Bool { heap.isEmpty }
    var first: Event? { heap.first }
    var events: [Event] { heap.sorted { $0.precedes($1) } }

    // Both directions move a hole rather than swapping: each step copies one event, not three.

    mutating func schedule(_ kind: Kind, at time: VirtualTime) {
        insert(reserve(kind, at: time))
    }

    /// An event with the next sequence number, to `insert` later: it keeps the place among ties
    /// it would have had if scheduled now.
    mutating func reserve(_ kind: Kind, at time: VirtualTime) -> Event {
        sequence += 1
        return Event(at: time.milliseconds, sequence: sequence, kind: kind)
    }

    /// Puts an event from `reserve` in the queue.
    mutating func insert(_ event: Event) {
        heap.append(event)
        var hole = heap.count - 1
        while hole > 0 {
            let parent = (hole - 1) / 2
            guard event.precedes(heap[parent]) else { break }
            heap[hole] = heap[parent]
            hole = parent
        }
        heap[hole] = event
    }

    /// Floyd's way: the hole left by the first event sinks to the bottom along the earlier child
    /// (one comparison a level, not two), and the last event, which usually belongs near the
    /// bottom, climbs back from there.
    mutating func popFirst() -> Event? {
        guard let first = heap.first else { return nil }
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first }
        var hole = 0
        while true {
            var child = 2 * hole + 1
            guard child < heap.count else { break }
            if child + 1 < heap.count, heap[child + 1].precedes(heap[child]) { child += 1 }
            heap[hole] = heap[child]
            hole = child
        }
        while hole > 0 {
            let parent = (hole - 1) / 2
            guard last.precedes(heap[parent]) else { break }
            heap[hole] = heap[parent]
            hole = parent
        }
        heap[hole] = last
        return first
    }
}
