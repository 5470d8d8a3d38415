import Synchronization
import Testing
@testable import SandboxBank
@testable import SandboxPersistence

/// A journal of the neutral lifecycle's payouts (staged, executed, expired), through its binary
/// form, replays to the same bank.
@Suite struct LifecycleJournalTests {
    static let start = VirtualTime(iso8601: "2026-01-05T09:00:00Z")!
    static let user = Account(id: "u-1", dialect: "test", balance: Money("60.00")!, limits: .init(daily: Money("100.00")!))

    private final class Records: Sendable {
        let list = Mutex<[BankRecord]>([])
    }

    private func bank(_ records: Records? = nil) -> Bank {
        let bank = Bank(clock: VirtualClock(mode: .manual, start: Self.start), accounts: [Self.user]) { _ in DeliveryOutcome(status: 200) }
        if let records { bank.startRecording { record in records.list.withLock { $0.append(record) } } }
        return bank
    }

    private func request(_ amount: String, _ status: PayoutStatus = .pending, reference: String? = nil) -> PayoutRequest {
        PayoutRequest(dialect: "test", account: "u-1", reference: reference, currency: "USD", amount: Money(amount)!, status: status,
                      callbackURL: "http://hook")
    }

    @Test func aJournalOfStagedExecutedAndExpiredPayoutsReplaysToTheSameBank() throws {
        let records = Records()
        let live = bank(records)
        let executed = try live.createPayout(request("20.00", .staged, reference: "a"))
        let expired = try live.createPayout(request("20.00", .awaitingDetails))
        live.advance(by: .seconds(3))
        try live.execute(payoutID: executed.id, by: "merchant")
        try live.changeStatus(payoutID: expired.id, to: .expired, by: "bank")
        live.advance(by: .seconds(20))

        let copy = Bank(clock: VirtualClock(mode: .manual, start: Self.start), accounts: [Self.user]) { _ in DeliveryOutcome(status: 200) }
        for record in records.list.withLock({ $0 }) {
            var bytes: [UInt8] = []
            record.encode(into: &bytes)
            let decoded = try bytes.withUnsafeBytes { buffer in
                var reader = BinaryReader(buffer)
                return try BankRecord(decoding: &reader)
            }
            try copy.replay(decoded, resetConfiguration: Bank.Configuration())
        }
        #expect(copy.payouts() == live.payouts())
        #expect(copy.ledger() == live.ledger())
        #expect(copy.accounts == live.accounts)
        #expect(copy.notifications().map(\.status) == live.notifications().map(\.status))
    }
}
