import Dispatch
import Synchronization
import Testing
@testable import SandboxBank

/// The parts of the neutral lifecycle other APIs need: payouts created without a debit and
/// executed later, expiry, a check atomic with creation, payouts without a reference (and a
/// journal that replays all of them: SandboxPersistenceTests' `LifecycleJournalTests`).
@Suite struct LifecycleTests {
    static let start = VirtualTime(iso8601: "2026-01-05T09:00:00Z")!
    static let user = Account(id: "u-1", dialect: "test", balance: Money("60.00")!, limits: .init(daily: Money("100.00")!))

    private func bank() -> Bank {
        Bank(clock: VirtualClock(mode: .manual, start: Self.start), accounts: [Self.user]) { _ in DeliveryOutcome(status: 200) }
    }

    private func request(_ amount: String, _ status: PayoutStatus = .pending, reference: String? = nil) -> PayoutRequest {
        PayoutRequest(dialect: "test", account: "u-1", reference: reference, currency: "USD", amount: Money(amount)!, status: status,
                      callbackURL: "http://hook")
    }

    @Test func aStagedPayoutIsDebitedWhenExecutedAndRunsItsTimelineFromThen() throws {
        let bank = bank()
        let staged = try bank.createPayout(request("50.00", .staged))
        #expect(staged.status == .staged)
        #expect(bank.account(id: "u-1")?.balance == Money("60.00"))  // no debit yet
        #expect(bank.ledger().isEmpty)
        bank.advance(by: .seconds(60))
        #expect(bank.payout(id: staged.id)?.status == .staged)  // no timeline while staged
        #expect(throws: TransitionError(from: .staged, to: .pending)) {  // only execute debits
            try bank.changeStatus(payoutID: staged.id, to: .pending, by: "admin")
        }

        let executed = try #require(try bank.execute(payoutID: staged.id, by: "merchant"))
        #expect(executed.status == .pending)
        #expect(bank.account(id: "u-1")?.balance == Money("10.00"))
        #expect(bank.ledger().map(\.amount) == [-Money("50.00")!])
        bank.advance(by: .seconds(15))
        #expect(bank.payout(id: staged.id)?.history.map(\.status) == [.staged, .pending, .delivered, .completed])
        #expect(throws: PayoutRefusal.notExecutable(.completed)) { try bank.execute(payoutID: staged.id, by: "merchant") }
        #expect(try bank.execute(payoutID: 42, by: "merchant") == nil)
    }

    @Test func executionChecksTheBalanceAndLimitsThenAndAnExpiredOrCancelledStagedPayoutIsNeverRefunded() throws {
        let bank = bank()
        let big = try bank.createPayout(request("70.00", .awaitingDetails))  // more than the balance: fine until executed
        #expect(throws: PayoutRefusal.insufficientFunds) { try bank.execute(payoutID: big.id, by: "merchant") }
        #expect(bank.payout(id: big.id)?.status == .awaitingDetails)
        try bank.changeStatus(payoutID: big.id, to: .expired, by: "bank")
        let cancelled = try bank.createPayout(request("5.00", .staged))
        try bank.changeStatus(payoutID: cancelled.id, to: .cancelled, by: "merchant")
        #expect(bank.account(id: "u-1")?.balance == Money("60.00"))
        #expect(bank.ledger().isEmpty)
        #expect(throws: TransitionError(from: .expired, to: .cancelled)) { try bank.changeStatus(payoutID: big.id, to: .cancelled, by: "admin") }
        #expect(bank.notifications().map(\.status) == [.expired, .cancelled])

        let first = try bank.createPayout(request("55.00", .staged))
        try bank.execute(payoutID: first.id, by: "merchant")
        try bank.changeStatus(payoutID: first.id, to: .cancelled, by: "merchant")  // debited: refunded
        let second = try bank.createPayout(request("50.00", .staged))
        #expect(throws: PayoutRefusal.limitExceeded(.daily)) { try bank.execute(payoutID: second.id, by: "merchant") }  // 55 + 50 > 100
    }

    @Test func aCheckGivenAtCreationIsAtomicWithIt() throws {
        let bank = Bank(clock: VirtualClock(mode: .manual, start: Self.start),
                        accounts: [Account(id: "u-1", dialect: "test", balance: Money("1000.00")!)]) { _ in DeliveryOutcome(status: 200) }
        let onePending = { @Sendable (admission: Admission) -> Decline? in
            admission.payouts.contains { $0.status == .pending || $0.status == .delivered } ? Decline(code: "pending") : nil
        }
        let accepted = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 20) { _ in
            if (try? bank.createPayout(request("1.00"), admitting: onePending)) != nil { accepted.add(1, ordering: .relaxed) }
        }
        #expect(accepted.load(ordering: .relaxed) == 1)
        #expect(throws: PayoutRefusal.declined(Decline(code: "pending"))) { try bank.createPayout(request("1.00"), admitting: onePending) }
        #expect(throws: PayoutRefusal.unknownAccount) {  // an account of another API
            try bank.createPayout(PayoutRequest(dialect: "other", account: "u-1", currency: "USD", amount: Money("1.00")!))
        }
        bank.advance(by: .seconds(15))
        let next = try bank.createPayout(request("1.00"), admitting: onePending)
        #expect(next.reference == nil)
    }
}
