/// How the streams that left a session's table closed, for the most recent ones: what a late frame
/// on a closed stream means depends on it (the rules are in `HTTP2Session+Closing.swift`).
///
/// A ring of `capacity` slots indexed by stream id: a lookup is one array read and a record one
/// write, with no allocation once the ring exists (at a connection's first close). A slot keeps the
/// newest of the ids that share it, so each of the last `capacity` client ids up to the highest
/// opened is either remembered or was never opened; an older one may be forgotten.
struct HTTP2ClosedStreams {
    /// How a stream closed.
    enum Closure: UInt8 {
        /// We sent RST_STREAM (the client may not have seen it yet).
        case resetByUs
        /// The client sent RST_STREAM.
        case resetByPeer
        /// Both sides sent END_STREAM.
        case ended
    }

    /// What is known of a client stream id, at or below the highest opened, that is not open.
    enum Recall: Equatable {
        case closed(Closure)
        /// Skipped: a higher id was opened first, which closed this one unused (RFC 9113 §5.1.1).
        case neverOpened
        /// Too old to be remembered.
        case forgotten
    }

    /// Client ids are odd, so the ring covers the last `2 * capacity` ids. 1 KiB per connection.
    static let capacity = 128

    private struct Slot {
        var id: UInt32 = 0  // no client stream has id 0
        var closure = Closure.resetByUs
    }

    private var slots: [Slot] = []

    /// Remembers that stream `id` closed, and how.
    mutating func record(_ id: UInt32, _ closure: Closure) {
        if slots.isEmpty { slots = Array(repeating: Slot(), count: Self.capacity) }
        let index = Self.index(id)
        // An old stream that closes late (a long Watch) leaves a newer stream's record alone.
        guard slots[index].id <= id else { return }
        slots[index] = Slot(id: id, closure: closure)
    }

    /// What is known of `id`: a client stream id, at most `highest` (the highest opened), not open.
    func recall(_ id: UInt32, highest: UInt32) -> Recall {
        if !slots.isEmpty, case let slot = slots[Self.index(id)], slot.id == id { return .closed(slot.closure) }
        // Within the ring's reach every stream that closed is remembered: this one never opened.
        return highest - id < 2 * UInt32(Self.capacity) ? .neverOpened : .forgotten
    }

    private static func index(_ id: UInt32) -> Int { Int(id >> 1) & (capacity - 1) }
}
