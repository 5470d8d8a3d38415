import Testing
@testable import SandboxWire

@Suite struct HTTP2ClosedStreamsTests {
    @Test func aStreamIsRecalledAsItClosed() {
        var closed = HTTP2ClosedStreams()
        #expect(closed.recall(3, highest: 5) == .neverOpened)
        closed.record(1, .resetByUs)
        closed.record(3, .resetByPeer)
        closed.record(5, .ended)
        #expect([1, 3, 5, 7].map { closed.recall($0, highest: 9) } == [.closed(.resetByUs), .closed(.resetByPeer), .closed(.ended), .neverOpened])
        closed.record(3, .resetByUs)  // our RST_STREAM, after a late frame on the stream the client reset
        #expect(closed.recall(3, highest: 9) == .closed(.resetByUs))
    }

    @Test func aSlotKeepsTheNewerOfItsStreams() {
        let span = 2 * UInt32(HTTP2ClosedStreams.capacity)  // ids 1 and 1 + span share a slot
        var closed = HTTP2ClosedStreams()
        closed.record(1 + span, .ended)
        closed.record(1, .resetByPeer)  // a long-lived stream closing late
        #expect(closed.recall(1 + span, highest: 1 + span) == .closed(.ended))
        #expect(closed.recall(1, highest: 1 + span) == .forgotten)
        closed.record(1 + 2 * span, .resetByUs)
        #expect(closed.recall(1 + span, highest: 1 + 2 * span) == .forgotten)
        #expect(closed.recall(1 + 2 * span, highest: 1 + 2 * span) == .closed(.resetByUs))
        // Just within reach of the highest, an id never recorded was never opened.
        #expect(closed.recall(3 + span, highest: 1 + 2 * span) == .neverOpened)
    }
}
