@testable import SandboxBank
import Testing

/// A payout table numbers the decisions that chose its payouts' timelines, each once, however
/// they alternate.
struct PayoutTableTests {
    @Test func eachPayoutKeepsTheDecisionThatChoseItsTimeline() {
        let (a, b, c) = (TimelineDecision(kind: .rule, rule: "a", index: 0), TimelineDecision(kind: .rule, rule: "b", index: 1),
                         TimelineDecision.defaultTimeline(of: nil))
        let order = [a, b, a, a, c, b, c, a]
        var table = PayoutTable(firstID: 1_000_001)
        for decision in order {
            let payout = Payout(id: table.nextID, dialect: "d24", account: "acme", reference: nil, country: "BR", currency: "USD",
                                amount: Money("1")!, settlementAmount: Money("1")!, fields: [:], callbackURL: nil,
                                createdAt: VirtualTime(milliseconds: 0), status: .pending, history: [])
            table.append(payout, timeline: DecidedTimeline([], decision: decision))
        }
        #expect(order.indices.map { table.decision(1_000_001 + $0) } == order)
        #expect(table.decisions == [a, b, c])
    }
}
