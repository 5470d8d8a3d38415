/// An array kept in chunks of 4,096 elements, so a copy that is then changed copies one chunk and
/// the list of chunks, not every element: the bank's tables stay cheap to change right after a
/// snapshot has taken a copy of them (a plain array of 1,000,000 payouts would be copied whole,
/// under the bank's lock, by the first change).
///
/// `@usableFromInline` and inlinable: a plain `package` type's members are not specialized in
/// another module, and a sink's tallies (one append per notification) looked its types up at run
/// time (the Contributing guide's "Generic code on a request's path").
@usableFromInline package struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral {
    @usableFromInline static var shift: Int { 12 }
    @usableFromInline static var mask: Int { (1 << shift) - 1 }

    @usableFromInline var chunks: [[Element]] = []
    @usableFromInline var storedCount = 0

    init() {}

    @usableFromInline
    package init(arrayLiteral elements: Element...) {
        for element in elements { append(element) }
    }

    @inlinable package var count: Int { storedCount }
    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { storedCount }

    @inlinable
    package subscript(position: Int) -> Element {
        _read {  // yields in place: reading one field of an element copies nothing else
            precondition(position >= 0 && position < storedCount, "index out of range")
            yield chunks[position >> Self.shift][position & Self.mask]
        }
        _modify {
            precondition(position >= 0 && position < storedCount, "index out of range")
            yield &chunks[position >> Self.shift][position & Self.mask]
        }
    }

    @inlinable
    package mutating func append(_ element: Element) {
        if storedCount & Self.mask == 0 {
            chunks.append([])
            // A chunk after the first gets its whole room at once (the array has shown that it
            // grows): filling it does not copy its elements into a buffer twice the size, again
            // and again. (Room not written yet takes no memory.)
            if chunks.count > 1 { chunks[chunks.count - 1].reserveCapacity(Self.mask + 1) }
        }
        chunks[chunks.count - 1].append(element)
        storedCount += 1
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
extension ChunkedArray: Equatable where Element: Equatable {}
