import TestHelpers
import Testing
@testable import SandboxBank

/// What a bank keeps per payout in compact form gives back what it was given: a status change
/// packed in 16 bytes (any time, status and actor), a payout found by its reference.
@Suite struct CompactRecordsTests {
    @Test func aStatusChangeIsSixteenBytesAndGivesBackWhatItWasMadeOf() {
        #expect(MemoryLayout<StatusChange>.stride == 16)
        let times: [Int64] = [0, 1, -1, 1_767_603_600_000, VirtualClock.end.milliseconds, -62_167_219_200_000,
                              (1 << 51) - 1, -(1 << 51), 1 << 51, -(1 << 51) - 1, .max, .min]
        for status in PayoutStatus.allCases {
            for milliseconds in times {
                for (by, code, reason) in [("bank", nil, nil), ("admin", "826", "late"), ("someone new \(milliseconds)", nil, "why")] {
                    let change = StatusChange(status: status, at: VirtualTime(milliseconds: milliseconds), by: by, reasonCode: code, reason: reason)
                    #expect(change.status == status)
                    #expect(change.at.milliseconds == milliseconds)
                    #expect(change.by == by)
                    #expect(change.reasonCode == code)
                    #expect(change.reason == reason)
                }
            }
        }
    }

    @Test func payoutsAreFoundByTheirReferenceAmongMany() throws {
        let bank = Bank(clock: VirtualClock(mode: .manual), configuration: Bank.Configuration(), accounts: [.sandboxDefault]) { _ in
            DeliveryOutcome(status: 200)
        }
        func create(_ reference: String) throws(PayoutRefusal) -> Payout {
            try bank.createPayout(PayoutRequest(dialect: "test", account: "sandbox_login", reference: reference, country: "BR",
                                                currency: "USD", amount: Money("1")!, status: .pending, callbackURL: nil))
        }
        var made: [String: Int] = [:]
        for i in 0 ..< 3000 {
            let reference = i % 7 == 0 ? "é-\(i)" : "ref-\(i)"
            made[reference] = try create(reference).id
        }
        for (reference, id) in made { #expect(bank.payout(account: "sandbox_login", reference: reference)?.id == id) }
        #expect(bank.payout(account: "sandbox_login", reference: "ref-3000") == nil)
        #expect(bank.payout(account: "other", reference: "ref-1") == nil)
        #expect(throws: PayoutRefusal.duplicateReference) { try create("ref-43") }
        #expect(throws: PayoutRefusal.duplicateReference) { try create("é-7") }
    }
}
