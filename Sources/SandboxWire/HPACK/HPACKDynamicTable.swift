// The dynamic table, RFC 7541 §4 (entry size §4.1, maximum size §4.2, eviction §4.3 and §4.4)
// and its indexing, §2.3.2 and §2.3.3.

/// A FIFO of header fields bounded by the total of their sizes, newest at dynamic index 1.
///
/// The encoder's table also keeps two dictionaries, from field and from name to the insertion
/// counter of the newest entry holding it, so a lookup is O(1): the dynamic index is the number of
/// insertions since. The decoder's table does not keep them (`lookups: false`).
struct HPACKDynamicTable: Sendable {
    struct Entry: Sendable {
        var header: HPACKHeader
        var size: Int
    }

    /// A ring of entries whose capacity is a power of two; `head` is the oldest.
    private var ring: [Entry]
    private var head = 0
    /// The number of entries.
    private(set) var count = 0
    /// The sum of the entries' sizes (RFC 7541 §4.1).
    private(set) var size = 0
    /// The most `size` may be: the last dynamic table size update's value.
    private(set) var maxSize: Int
    /// The number of entries ever inserted: the next entry's counter.
    private var inserted = 0
    private let lookups: Bool
    private var exact: [HPACKHeader: Int] = [:]
    private var names: [String: Int] = [:]

    private static let placeholder = Entry(header: HPACKHeader("", ""), size: 0)

    init(maxSize: Int, lookups: Bool) {
        self.maxSize = maxSize
        self.lookups = lookups
        ring = Array(repeating: Self.placeholder, count: 16)
    }

    /// The entry at dynamic `index` (1 is the newest), or nil when there is none.
    subscript(index: Int) -> HPACKHeader? {
        guard index >= 1, index <= count else { return nil }
        return ring[(head + count - index) & (ring.count - 1)].header
    }

    /// The dynamic index of the newest entry equal to `header`.
    func index(of header: HPACKHeader) -> Int? {
        exact[header].map { inserted - $0 }
    }

    /// The dynamic index of the newest entry named `name`.
    func index(ofName name: String) -> Int? {
        names[name].map { inserted - $0 }
    }

    /// Adds `header` as the newest entry, evicting the oldest ones to make room; a field larger
    /// than `maxSize` empties the table and is not added (§4.4).
    mutating func insert(_ header: HPACKHeader) {
        let entrySize = header.size
        evict(toFit: maxSize - entrySize)
        guard entrySize <= maxSize else { return }
        if count == ring.count { grow() }
        ring[(head + count) & (ring.count - 1)] = Entry(header: header, size: entrySize)
        count += 1
        size += entrySize
        if lookups {
            exact[header] = inserted
            names[header.name] = inserted
        }
        inserted += 1
    }

    /// Sets the maximum size, evicting entries until the table fits (§4.3).
    mutating func setMaxSize(_ newMax: Int) {
        maxSize = newMax
        evict(toFit: newMax)
    }

    /// Removes the oldest entries until `size` is at most `limit` (all of them when it is negative).
    private mutating func evict(toFit limit: Int) {
        while count > 0, size > limit {
            let oldest = ring[head]
            ring[head] = Self.placeholder
            if lookups {
                let counter = inserted - count
                if exact[oldest.header] == counter { exact[oldest.header] = nil }
                if names[oldest.header.name] == counter { names[oldest.header.name] = nil }
            }
            head = (head + 1) & (ring.count - 1)
            count -= 1
            size -= oldest.size
        }
        if count == 0 { head = 0 }
    }

    /// Doubles the ring, the entries moved to its start in order.
    private mutating func grow() {
        var bigger = Array(repeating: Self.placeholder, count: ring.count * 2)
        for offset in 0 ..< count { bigger[offset] = ring[(head + offset) & (ring.count - 1)] }
        ring = bigger
        head = 0
    }
}
