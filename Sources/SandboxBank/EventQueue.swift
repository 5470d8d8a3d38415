/// Scheduled bank events in time order; ties keep the order they were scheduled in.
struct EventQueue: Sendable {
    enum Kind: Sendable, Equatable {
        /// Step `step` of a payout's timeline, valid while the payout's generation is unchanged.
        case timeline(payoutID: Int, generation: Int, step: Int)
        /// The next delivery attempt of a notification.
        case delivery(notificationID: Int)
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

    var isEmpty: Bool { heap.isEmpty }
    var first: Event? { heap.first }
    var events: [Event] { heap.sorted { $0.precedes($1) } }

    mutating func schedule(_ kind: Kind, at time: VirtualTime) {
        sequence += 1
        heap.append(Event(at: time.milliseconds, sequence: sequence, kind: kind))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popFirst() -> Event? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
