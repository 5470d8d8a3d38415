/// The last `capacity` elements appended: the newest pushes the oldest out, so a long run keeps
/// bounded memory (the request log, what a sink received).
@usableFromInline package struct Ring<Element> {
    @usableFromInline package let capacity: Int
    @usableFromInline var elements: [Element] = []
    /// Where the next element goes once the ring is full.
    @usableFromInline var next = 0

    @inlinable package init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    @inlinable package var count: Int { elements.count }

    /// Appends `element`, returning the one it pushed out (for the caller to free outside a lock).
    @discardableResult
    @inlinable package mutating func append(_ element: consuming Element) -> Element? {  // consuming: moved in, not copied
        guard capacity > 0 else { return element }
        guard elements.count == capacity else {
            elements.append(element)
            return nil
        }
        var element = element
        swap(&elements[next], &element)
        next = (next + 1) % capacity
        return element
    }

    /// Oldest first.
    @inlinable package var inOrder: [Element] { Array(elements[next...] + elements[..<next]) }

    /// Newest first, as long as `body` returns true.
    @inlinable package func newestFirst(_ body: (Element) -> Bool) {
        var index = elements.count < capacity ? elements.count : next  // just past the newest
        for _ in 0 ..< elements.count {
            index = (index - 1 + elements.count) % elements.count
            guard body(elements[index]) else { return }
        }
    }

    /// Empties it, returning what it held (for the caller to free outside a lock).
    @inlinable package mutating func removeAll() -> [Element] {
        defer { (elements, next) = ([], 0) }
        return elements
    }
}

extension Ring: Sendable where Element: Sendable {}
