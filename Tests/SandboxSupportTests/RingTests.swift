@testable import SandboxSupport
import Testing

/// A ring keeps the last `capacity` elements appended, oldest first, and hands back what it pushes out.
@Suite struct RingTests {
    @Test func itKeepsTheNewestUpToItsCapacityAndReturnsWhatItPushesOut() {
        var ring = Ring<Int>(capacity: 3)
        #expect(ring.append(1) == nil && ring.append(2) == nil && ring.append(3) == nil)
        #expect(ring.count == 3 && ring.inOrder == [1, 2, 3])
        #expect(ring.append(4) == 1)
        #expect(ring.append(5) == 2)
        #expect(ring.count == 3 && ring.inOrder == [3, 4, 5])
        for next in 6 ... 10 { ring.append(next) }
        #expect(ring.inOrder == [8, 9, 10])
    }

    @Test func newestFirstStopsWhenTheBodySaysSo() {
        var ring = Ring<Int>(capacity: 4)
        for next in 1 ... 6 { ring.append(next) }
        var seen: [Int] = []
        ring.newestFirst { seen.append($0); return true }
        #expect(seen == [6, 5, 4, 3])
        var firstTwo: [Int] = []
        ring.newestFirst { firstTwo.append($0); return firstTwo.count < 2 }
        #expect(firstTwo == [6, 5])
        var partial = Ring<Int>(capacity: 4)
        partial.append(1)
        partial.append(2)
        var fromPartial: [Int] = []
        partial.newestFirst { fromPartial.append($0); return true }
        #expect(fromPartial == [2, 1])
    }

    @Test func removeAllEmptiesItAndReturnsWhatItHeld() {
        var ring = Ring<String>(capacity: 2)
        for next in ["a", "b", "c"] { ring.append(next) }
        #expect(Set(ring.removeAll()) == ["b", "c"])
        #expect(ring.count == 0 && ring.inOrder.isEmpty)
        ring.append("d")
        #expect(ring.inOrder == ["d"])
    }

    @Test func aRingOfNoCapacityKeepsNothing() {
        var ring = Ring<Int>(capacity: 0)
        #expect(ring.append(1) == 1)
        #expect(ring.count == 0 && ring.inOrder.isEmpty)
        #expect(Ring<Int>(capacity: -3).capacity == 0)
    }
}
