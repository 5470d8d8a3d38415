/// One account's payouts by their own reference (for those made with one): a table of payout
/// places, each with 32 bits of its reference's hash, found by linear probing; a reference itself
/// is read from its payout. A `[String: Int]` kept every reference a second time in 24-byte
/// entries, in twice the entries it needed past a power of two's three quarters: 6.3 MB at
/// 100,000 references, against 2 MB here (8 bytes a slot, at most three quarters full).
package struct ReferenceIndex: Sendable {
    /// The payout's place (id less the table's first) + 1 in the low half, 0 for an empty slot;
    /// its reference's hash in the high half. A power of two long (or empty).
    private var slots: [UInt64] = []
    private var count = 0

    package init() {}

    /// The id of the payout in `payouts` whose reference is `reference`, if it is here.
    package func id(of reference: String, in payouts: PayoutTable) -> Int? {
        guard !slots.isEmpty else { return nil }
        let hash = Self.hash(reference)
        var at = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while slots[at] != 0 {
            let id = payouts.firstID + Int(slots[at] & 0xFFFF_FFFF) - 1
            if slots[at] >> 32 == hash, payouts.reference(id) == reference { return id }
            at = (at + 1) & (slots.count - 1)
        }
        return nil
    }

    /// Adds the payout with `id` in `payouts` under its `reference`, which no other has here.
    package mutating func insert(_ id: Int, reference: String, in payouts: PayoutTable) {
        if 4 * (count + 1) > 3 * slots.count { grow() }
        let place = id - payouts.firstID + 1
        precondition(place > 0 && place <= 0xFFFF_FFFF, "a payout's place out of range")
        put(Self.hash(reference) << 32 | UInt64(place))
        count += 1
    }

    /// Twice the slots (16 at first), every payout put again by its hash.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: max(16, 2 * old.count))
        for slot in old where slot != 0 { put(slot) }
    }

    private mutating func put(_ slot: UInt64) {
        var at = Int(truncatingIfNeeded: slot >> 32) & (slots.count - 1)
        while slots[at] != 0 { at = (at + 1) & (slots.count - 1) }
        slots[at] = slot
    }

    private static func hash(_ reference: String) -> UInt64 {
        UInt64(truncatingIfNeeded: reference.hashValue) >> 32
    }
}
