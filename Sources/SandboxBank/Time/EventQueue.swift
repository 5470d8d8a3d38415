/// Scheduled bank events in time order; ties keep the order they were scheduled in.
package struct EventQueue: Sendable {
    package enum Kind: Sendable, Equatable {
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

    package struct Event: Sendable, Equatable {
        package let at: Int64
        package let sequence: Int
        package let kind: Kind

        package init(at: Int64, sequence: Int, kind: Kind) {
            self.at = at
            self.sequence = sequence
            self.kind = kind
        }

        func precedes(_ other: Event) -> Bool {
            at != other.at ? at < other.at : sequence < other.sequence
        }
    }

    /// An event as the heap keeps it: 32 bytes, not the 48 of an `Event` (whose kind takes 25),
    /// since a million cashouts queue a million or more at once.
    private struct Stored {
        let at: Int64
        let sequence: Int
        /// The kind's case in the top two bits, its payout's or notification's id below.
        let caseAndID: UInt64
        /// What else the case holds: a timeline's generation (high half) and step (low half), an
        /// attempt or a copy.
        let detail: UInt64

        init(_ event: Event) {
            at = event.at
            sequence = event.sequence
            switch event.kind {
            case .timeline(let payoutID, let generation, let step):
                (caseAndID, detail) = (Self.pack(0, payoutID), UInt64(Self.half(generation)) << 32 | UInt64(Self.half(step)))
            case .delivery(let notificationID, let attempt): (caseAndID, detail) = (Self.pack(1, notificationID), UInt64(attempt))
            case .expiry(let payoutID): (caseAndID, detail) = (Self.pack(2, payoutID), 0)
            case .chaos(let notificationID, let copy): (caseAndID, detail) = (Self.pack(3, notificationID), UInt64(copy))
            }
        }

        var event: Event {
            let id = Int(caseAndID & (1 << 62 - 1))
            let kind: Kind = switch caseAndID >> 62 {
            case 0: .timeline(payoutID: id, generation: Int(detail >> 32), step: Int(detail & 0xFFFF_FFFF))
            case 1: .delivery(notificationID: id, attempt: Int(detail))
            case 2: .expiry(payoutID: id)
            default: .chaos(notificationID: id, copy: Int(detail))
            }
            return Event(at: at, sequence: sequence, kind: kind)
        }

        func precedes(_ other: Stored) -> Bool {
            at != other.at ? at < other.at : sequence < other.sequence
        }

        private static func pack(_ kase: UInt64, _ id: Int) -> UInt64 {
            precondition(id >= 0 && id < 1 << 62, "an event's id out of range")
            return kase << 62 | UInt64(id)
        }

        /// A generation or step: counts far below 2^32 (a payout's timeline changed 4 billion times).
        private static func half(_ count: Int) -> UInt32 {
            guard let half = UInt32(exactly: count) else { preconditionFailure("an event's count out of range") }
            return half
        }
    }

    private var heap: [Stored] = []
    private var sequence = 0

    init() {}

    /// A queue holding `events`; the next scheduled gets a sequence number after `sequence` and theirs.
    package init(events: [Event], sequence: Int) {
        heap = events.sorted { $0.precedes($1) }.map(Stored.init)  // a sorted array is a heap
        self.sequence = max(sequence, events.map(\.sequence).max() ?? 0)
    }

    /// The last sequence number handed out.
    package var lastSequence: Int { sequence }

    var isEmpty: Bool { heap.isEmpty }
    var first: Event? { heap.first?.event }
    package var events: [Event] { heap.sorted { $0.precedes($1) }.map(\.event) }

    // A heap of four children per event, not two: half as many levels, each step's children on
    // one or two cache lines (a million cashouts queue millions, far beyond the caches). Both
    // directions move a hole rather than swapping: each step copies one event, not three.

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
        let event = Stored(event)
        heap.append(event)
        heap.withUnsafeMutableBufferPointer { Self.climb(event, from: $0.count - 1, in: $0) }
    }

    /// Floyd's way: the hole left by the first event sinks to the bottom along the earliest child
    /// (no comparison with the event that fills it), and the last event, which usually belongs
    /// near the bottom, climbs back from there.
    mutating func popFirst() -> Event? {
        guard let first = heap.first else { return nil }
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first.event }
        heap.withUnsafeMutableBufferPointer { heap in  // every index below is kept within its count
            var hole = 0
            while 4 * hole + 1 < heap.count {
                let children = 4 * hole + 1 ..< min(4 * hole + 5, heap.count)
                var earliest = children.lowerBound
                for child in children.dropFirst() where heap[child].precedes(heap[earliest]) { earliest = child }
                heap[hole] = heap[earliest]
                hole = earliest
            }
            Self.climb(last, from: hole, in: heap)
        }
        return first.event
    }

    /// Puts `event` in the hole at `start`, moving it up past the parents it precedes.
    private static func climb(_ event: Stored, from start: Int, in heap: UnsafeMutableBufferPointer<Stored>) {
        var hole = start
        while hole > 0 {
            let parent = (hole - 1) / 4
            guard event.precedes(heap[parent]) else { break }
            heap[hole] = heap[parent]
            hole = parent
        }
        heap[hole] = event
    }
}
