@testable import SandboxSupport
import Testing

/// Interning shares equal values within a bounded table.
struct InternTableTests {
    private final class Box: Sendable {}

    @Test func pastItsCapacityATableStartsAfreshAndStillSharesLaterValues() {
        var table = InternTable<String, Box>(capacity: 2)
        let a = table.intern("a") { _ in Box() }
        #expect(table.intern("a") { _ in Box() } === a)
        _ = table.intern("b") { _ in Box() }
        let c = table.intern("c") { _ in Box() }  // a third: the table starts afresh with it
        #expect(table.intern("c") { _ in Box() } === c)
        #expect(table.intern("a") { _ in Box() } !== a)
    }

    @Test func theValueInternedLastIsGivenWhenItPassesTheTestAndNothingIsMade() {
        let values = SharedValues<[Int]>(capacity: 8)
        let first = values.intern([1, 2])
        var made = 0
        let again = values.intern(unlessLast: { $0 == [1, 2] }) { made += 1; return [9] }
        #expect(again == first && made == 0)
        let other = values.intern(unlessLast: { $0 == [3] }) { made += 1; return [3] }
        #expect(other == [3] && made == 1)
        #expect(values.intern(unlessLast: { _ in false }) { made += 1; return [1, 2] } == first && made == 2)  // made, then found
    }
}
