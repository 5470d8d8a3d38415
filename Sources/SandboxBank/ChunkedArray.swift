/// An array kept in chunks of 4,096 elements, so a copy that is then changed copies one chunk and
/// the list of chunks, not every element: the bank's tables stay cheap to change right after a
/// snapshot has taken a copy of them (a plain array of 1,000,000 payouts would be copied whole,
/// under the bank's lock, by the first change).
package struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral {
    private static var shift: Int { 12 }
    private static var mask: Int { (1 << shift) - 1 }

    private var chunks: [[Element]] = []
    package private(set) var count = 0

    package init() {}

    package init(arrayLiteral elements: Element...) {
        for element in elements { append(element) }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    package subscript(position: Int) -> Element {
        _read {  // yields in place: reading one field of an element copies nothing else
            precondition(position >= 0 && position < count, "index out of range")
            yield chunks[position >> Self.shift][position & Self.mask]
        }
        _modify {
            precondition(position >= 0 && position < count, "index out of range")
            yield &chunks[position >> Self.shift][position & Self.mask]
        }
    }

    package mutating func append(_ element: Element) {
        if count & Self.mask == 0 { chunks.append([]) }
        chunks[chunks.count - 1].append(element)
        count += 1
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
extension ChunkedArray: Equatable where Element: Equatable {}
