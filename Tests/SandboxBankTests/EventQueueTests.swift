import Testing
@testable import SandboxBank

struct EventQueueTests {
    /// Events come out in time order, ties in the order they were scheduled, however schedules
    /// and pops interleave: compared with a plain sorted list on random operations.
    @Test func eventsComeOutInTimeOrderAndTiesInScheduleOrder() {
        var random = SplitMix64(seed: 42)
        for round in 0 ..< 50 {
            var queue = EventQueue()
            var expected: [(at: Int64, id: Int)] = []
            var next = 0
            for _ in 0 ..< 500 {
                if random.next() % 3 == 0, !expected.isEmpty {
                    let popped = queue.popFirst()
                    let first = expected.indices.min { (expected[$0].at, expected[$0].id) < (expected[$1].at, expected[$1].id) }!
                    #expect(popped?.at == expected[first].at, "round \(round)")
                    #expect(popped?.kind == .delivery(notificationID: expected[first].id, attempt: 0), "round \(round)")
                    expected.remove(at: first)
                } else {
                    next += 1
                    let at = Int64(random.next() % 20)  // few distinct times: many ties
                    queue.schedule(.delivery(notificationID: next, attempt: 0), at: VirtualTime(milliseconds: at))
                    expected.append((at, next))
                }
            }
            while let event = queue.popFirst() {
                let first = expected.indices.min { (expected[$0].at, expected[$0].id) < (expected[$1].at, expected[$1].id) }!
                #expect(event.kind == .delivery(notificationID: expected[first].id, attempt: 0))
                expected.remove(at: first)
            }
            #expect(expected.isEmpty && queue.isEmpty)
        }
    }
}

extension EventQueueTests {
    /// A queue restored from a snapshot's events (sorted, as a snapshot lists them) keeps their
    /// order, and what is scheduled afterwards takes its place among them: ties after them.
    @Test func aRestoredQueueKeepsItsOrderAmongNewEvents() {
        var random = SplitMix64(seed: 7)
        let restored = (1 ... 300).map { id in
            EventQueue.Event(at: Int64(random.next() % 40), sequence: id, kind: .delivery(notificationID: id, attempt: 0))
        }.sorted { $0.precedes($1) }
        var queue = EventQueue(events: restored, sequence: 300)
        var expected = restored.map { (at: $0.at, sequence: $0.sequence) }
        for id in 301 ... 600 {
            let at = Int64(random.next() % 40)
            queue.schedule(.delivery(notificationID: id, attempt: 0), at: VirtualTime(milliseconds: at))
            expected.append((at, id))
        }
        var popped: [(at: Int64, sequence: Int)] = []
        while let event = queue.popFirst() { popped.append((event.at, event.sequence)) }
        expected.sort { ($0.at, $0.sequence) < ($1.at, $1.sequence) }
        #expect(popped.map(\.at) == expected.map(\.at) && popped.map(\.sequence) == expected.map(\.sequence))
    }
}

struct ChunkedArrayTests {
    @Test func behavesAsAnArrayAcrossChunkBoundaries() {
        var chunked = ChunkedArray<Int>()
        var plain: [Int] = []
        for value in 0 ..< 10_000 {
            chunked.append(value)
            plain.append(value)
        }
        #expect(chunked.count == 10_000 && Array(chunked) == plain)
        chunked[4095] += 1
        chunked[4096] = -1
        plain[4095] += 1
        plain[4096] = -1
        #expect(Array(chunked) == plain)
        #expect(chunked.filter { $0 < 0 } == [-1])
        #expect(chunked.indices == plain.indices && chunked.last == 9_999)
    }

    @Test func aCopyIsIndependentOfChangesToTheOriginal() {
        var chunked: ChunkedArray = [1, 2, 3]
        for value in 4 ... 5000 { chunked.append(value) }
        let copy = chunked
        chunked[0] = 100
        chunked[4999] = 200
        chunked.append(5001)
        #expect(copy.count == 5000 && copy[0] == 1 && copy[4999] == 5000)
        #expect(chunked.count == 5001 && chunked[0] == 100 && chunked[4999] == 200 && chunked[5000] == 5001)
        #expect(copy != chunked)
    }
}
