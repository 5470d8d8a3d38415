import Foundation
import Glibc
import Synchronization
import TestHelpers
import Testing
@testable import SandboxBank

/// Notifications sent, and the statuses to answer them with (200 once the script runs out).
private final class Recorder: Sendable {
    let sent = Mutex<[StatusNotification]>([])
    let answers = Mutex<[Int]>([])

    func receive(_ notification: StatusNotification) -> DeliveryOutcome {
        sent.withLock { $0.append(notification) }
        return DeliveryOutcome(status: answers.withLock { $0.isEmpty ? 200 : $0.removeFirst() })
    }
}

/// A bank on a manual clock whose notifications go to a `Recorder`.
private final class Harness: Sendable {
    let clock = VirtualClock(mode: .manual, start: VirtualTime(iso8601: "2026-01-05T09:00:00Z"))
    let recorder = Recorder()
    let bank: Bank

    init(merchant: Account = .sandboxDefault, configure: (inout Bank.Configuration) -> Void = { _ in }) {
        var configuration = Bank.Configuration()
        configure(&configuration)
        let recorder = self.recorder
        bank = Bank(clock: clock, configuration: configuration, accounts: [merchant]) { recorder.receive($0) }
    }

    func create(_ externalID: String, amount: String = "100", currency: String = "USD", onHold: Bool = false,
                url: String? = "http://hook") throws(PayoutRefusal) -> Payout {
        try bank.createPayout(PayoutRequest(dialect: "test", account: "sandbox_login", reference: externalID, country: "BR",
                                            currency: currency, amount: Money(amount)!, status: onHold ? .onHold : .pending, callbackURL: url))
    }

    var balance: Money { bank.account(id: "sandbox_login")!.balance }
}

@Suite struct BankTests {
    @Test func theDefaultTimelineDeliversAfter5sAndCompletes10sLaterNotifyingEachChange() throws {
        let h = Harness()
        let payout = try h.create("o-1")
        #expect(payout.status == .pending)
        #expect(h.balance == Money("999900"))
        #expect(h.bank.advance(by: .seconds(4)) == 0)
        h.bank.advance(by: .seconds(1))
        #expect(h.bank.payout(id: payout.id)?.status == .delivered)
        h.bank.advance(by: .seconds(10))
        let done = try #require(h.bank.payout(id: payout.id))
        #expect(done.status == .completed)
        #expect(done.history.map(\.status) == [.pending, .delivered, .completed])
        #expect(done.history.map(\.at.iso8601) == ["2026-01-05T09:00:00Z", "2026-01-05T09:00:05Z", "2026-01-05T09:00:15Z"])
        #expect(h.recorder.sent.withLock { $0.map(\.status) } == [.delivered, .completed])
        #expect(h.bank.notifications().allSatisfy { $0.state == .delivered })
    }

    @Test func holdStopsTheTimelineAndReleaseStartsItAgain() throws {
        let h = Harness()
        let payout = try h.create("o-1")
        h.bank.advance(by: .seconds(3))
        try h.bank.changeStatus(payoutID: payout.id, to: .onHold, by: "merchant")
        h.bank.advance(by: .seconds(60))
        #expect(h.bank.payout(id: payout.id)?.status == .onHold)
        try h.bank.changeStatus(payoutID: payout.id, to: .pending, by: "merchant")
        h.bank.advance(by: .seconds(5))
        #expect(h.bank.payout(id: payout.id)?.status == .delivered)
    }

    @Test func cancelAndRejectionRefundAndALateReturnRefundsToo() throws {
        let h = Harness()
        let cancelled = try h.create("o-1", onHold: true)
        #expect(cancelled.status == .onHold)
        try h.bank.changeStatus(payoutID: cancelled.id, to: .cancelled, by: "merchant")
        #expect(h.balance == Money("1000000"))
        let returned = try h.create("o-2")
        h.bank.advance(by: .seconds(15))
        #expect(h.balance == Money("999900"))
        try h.bank.changeStatus(payoutID: returned.id, to: .returned, by: "admin", reasonCode: "826", reason: "WITHDRAWAL_REVERSED")
        #expect(h.balance == Money("1000000"))
        #expect(h.bank.ledger(account: "sandbox_login").map(\.amount.description) == ["-100.00", "100.00", "-100.00", "100.00"])
        #expect(h.bank.ledger().last?.balanceAfter == Money("1000000"))
        #expect(h.bank.payout(id: returned.id)?.reasonCode == "826")
    }

    @Test func invalidTransitionsAreRefusedNamingBothStates() throws {
        let h = Harness()
        let payout = try h.create("o-1")
        h.bank.advance(by: .seconds(5))
        #expect(throws: TransitionError(from: .delivered, to: .cancelled)) {
            try h.bank.changeStatus(payoutID: payout.id, to: .cancelled, by: "merchant")
        }
        #expect(throws: TransitionError(from: .delivered, to: .onHold)) {
            try h.bank.changeStatus(payoutID: payout.id, to: .onHold, by: "merchant")
        }
    }

    @Test func refusalsComeInOrderDuplicateCurrencyMinimumLimitsFunds() throws {
        var merchant = Account.sandboxDefault
        merchant.balance = Money("250")!
        merchant.limits = .init(transaction: Money("200"), daily: Money("300"), monthly: Money("400"))
        merchant.minimumAmounts = ["BR": Money("10")!]
        let h = Harness(merchant: merchant)
        _ = try h.create("a", amount: "150")
        #expect(throws: PayoutRefusal.duplicateReference) { try h.create("a") }
        #expect(throws: PayoutRefusal.unsupportedCurrency) { try h.create("b", currency: "XXX") }
        #expect(throws: PayoutRefusal.belowMinimum(currency: "BRL", amount: Money("58.83")!)) { try h.create("b", amount: "20", currency: "BRL") }
        #expect(throws: PayoutRefusal.limitExceeded(.transaction)) { try h.create("b", amount: "200.01") }
        #expect(throws: PayoutRefusal.insufficientFunds) { try h.create("b", amount: "100.01") }
        _ = try h.create("b", amount: "100")
        #expect(h.balance == .zero)
    }

    @Test func dailyAndMonthlyLimitsResetOnTheVirtualClocksUTCDayAndMonth() throws {
        var merchant = Account.sandboxDefault
        merchant.limits = .init(daily: Money("100"), monthly: Money("250"))
        let h = Harness(merchant: merchant)
        h.clock.advance(to: VirtualTime(iso8601: "2026-01-29T23:00:00Z")!)
        _ = try h.create("a", amount: "100")
        #expect(throws: PayoutRefusal.limitExceeded(.daily)) { try h.create("b", amount: "0.01") }
        h.bank.advance(to: VirtualTime(iso8601: "2026-01-30T00:00:00Z")!)  // a new day
        _ = try h.create("b", amount: "100")
        h.bank.advance(by: .seconds(86400))
        #expect(throws: PayoutRefusal.limitExceeded(.monthly)) { try h.create("c", amount: "50.01") }
        _ = try h.create("c", amount: "50")
        h.bank.advance(to: VirtualTime(iso8601: "2026-02-01T00:00:00Z")!)  // a new month
        _ = try h.create("d", amount: "100")
    }

    @Test func failedDeliveriesAreRetriedAfter5_25_125_625_3125MinutesThenGiveUp() throws {
        let h = Harness()
        h.recorder.answers.withLock { $0 = Array(repeating: 500, count: 12) }
        let payout = try h.create("o-1")
        h.bank.advance(by: .seconds(5))  // DELIVERED, first attempt fails
        h.bank.advance(by: .seconds(10))  // COMPLETED, its first attempt fails too
        h.bank.advance(by: .seconds(4 * 86400))
        let delivered = try #require(h.bank.notifications(payoutID: payout.id).first)
        let start = delivered.changedAt.milliseconds
        #expect(delivered.attempts.map { ($0.at.milliseconds - start) / 60000 } == [0, 5, 30, 155, 780, 3905])
        #expect(delivered.state == .exhausted)
        #expect(delivered.attempts.allSatisfy { $0.outcome.status == 500 })
        h.recorder.answers.withLock { $0 = [200] }
        #expect(h.bank.redeliver(notificationID: delivered.id)?.state == .delivered)
    }

    @Test func deliveriesStopAtTheFirst2xx() throws {
        let h = Harness { $0.timeline = { _ in DecidedTimeline([TimelineStep(after: .seconds(5), status: .delivered)]) } }
        h.recorder.answers.withLock { $0 = [503, 404, 204] }
        let payout = try h.create("o-1")
        h.bank.advance(by: .seconds(5 + 30 * 60))
        let notification = try #require(h.bank.notifications(payoutID: payout.id).first)
        #expect(notification.attempts.map(\.outcome.status) == [503, 404, 204])
        #expect(notification.state == .delivered)
    }

    @Test func withoutAURLChangesAreJournaledButNotSent() throws {
        let h = Harness()
        _ = try h.create("o-1", url: nil)
        h.bank.advance(by: .seconds(15))
        #expect(h.recorder.sent.withLock { $0.isEmpty })
        #expect(h.bank.notifications().map(\.state) == [.noURL, .noURL])
    }

    @Test func concurrentCreatesNeverOverdrawTheBalance() async throws {
        var merchant = Account.sandboxDefault
        merchant.balance = Money("1000")!
        let h = Harness(merchant: merchant)
        let results = await withTaskGroup(of: Bool.self) { group in
            for i in 0 ..< 200 { group.addTask { (try? h.create("c-\(i)", amount: "10")) != nil } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 100)
        #expect(h.balance == .zero)
        #expect(h.bank.ledger().count == 100)
    }

    /// An advance runs what was due when it began and what that leads to; what other requests
    /// schedule meanwhile waits for it to end. So it ends however busy they keep the bank: here
    /// holds and releases, each notified at once to a receiver that answers 20 ms later (one
    /// payout's notifications go out in order, so the advance could never catch up with them),
    /// and, once the advance has begun, not before the busy thread has made another change (so the
    /// advance waits for answers while they keep scheduling, however the threads are scheduled).
    @Test func anAdvanceEndsWhileOtherRequestsKeepSchedulingWorkDueNow() throws {
        final class Busy: Sendable {
            let stop = Atomic<Bool>(false)
            let gaveUp = Atomic<Bool>(false)
            let changes = Atomic<Int>(0)
            /// The changes made when the advance began (`Int.max` before).
            let atAdvance = Atomic<Int>(Int.max)
        }
        let busy = Busy()
        let clock = VirtualClock(mode: .manual, start: VirtualTime(iso8601: "2026-01-05T09:00:00Z"))
        let bank = Bank(clock: clock, accounts: [.sandboxDefault]) { _, _, done in
            Thread.detachNewThread {
                usleep(20_000)
                while !busy.stop.load(ordering: .acquiring), case let mark = busy.atAdvance.load(ordering: .acquiring),
                      mark != Int.max, busy.changes.load(ordering: .acquiring) <= mark { usleep(1_000) }
                done(DeliveryOutcome(status: 200))
            }
            return nil
        }
        let ids = try (0 ..< 4).map {
            try bank.createPayout(PayoutRequest(dialect: "test", account: "sandbox_login", reference: "o-\($0)", country: "BR", currency: "USD",
                                                amount: Money("1")!, callbackURL: "http://hook/\($0)")).id
        }
        let started = ContinuousClock.now
        Thread.detachNewThread {  // until the advance ends, or gives up after the tests' wait: an advance that never ends ends with it
            while !busy.stop.load(ordering: .acquiring) {
                if ContinuousClock.now - started > Waiting.limit { return busy.gaveUp.store(true, ordering: .releasing) }
                for id in ids {
                    for status in [PayoutStatus.onHold, .pending] where (try? bank.changeStatus(payoutID: id, to: status, by: "merchant")) != nil {
                        busy.changes.add(1, ordering: .releasing)
                    }
                }
                usleep(5_000)  // 2 notifications per payout every 5 ms: 8 times what its receiver takes in
            }
        }
        defer { busy.stop.store(true, ordering: .releasing) }
        #expect(Waiting.until { busy.changes.load(ordering: .acquiring) >= 16 })  // a few notifications are due when the advance begins
        let before = busy.changes.load(ordering: .acquiring)
        busy.atAdvance.store(before, ordering: .releasing)
        bank.advance(by: .seconds(1))
        let changesMeanwhile = busy.changes.load(ordering: .acquiring) - before
        let gaveUp = busy.gaveUp.load(ordering: .acquiring)
        #expect(!gaveUp, "the advance ended only once the others stopped scheduling")
        #expect(changesMeanwhile > 0)  // they really kept scheduling while it ran
        #expect(clock.now.iso8601 == "2026-01-05T09:00:01Z")
    }

    /// A journal cut inside an advance, after a retry's attempt and before the advance's clock
    /// record, replays with the clock at that attempt: nothing after it is stamped earlier.
    @Test func aJournalCutBeforeAnAdvancesClockRecordResumesAtItsLastAttempt() throws {
        let start = VirtualTime(iso8601: "2026-01-05T09:00:00Z")!
        let bank = Bank(clock: VirtualClock(mode: .manual, start: start), accounts: [.sandboxDefault]) { _ in DeliveryOutcome(status: 500) }
        let records = Mutex<[BankRecord]>([])
        bank.startRecording { record in records.withLock { $0.append(record) } }
        _ = try bank.createPayout(PayoutRequest(dialect: "test", account: "sandbox_login", reference: "o-1", country: "BR", currency: "USD",
                                                amount: Money("1")!, callbackURL: "http://hook"))
        bank.advance(by: .seconds(600))
        let journal = records.withLock { $0 }
        guard case .clock = journal.last, case .attempt(_, let lastAttempt, _, true) = journal.dropLast().last else {
            Issue.record("expected a retry's attempt, then the clock: \(journal)")
            return
        }
        #expect(lastAttempt.iso8601 == "2026-01-05T09:05:15Z")  // COMPLETED's retry, 5 min after its first attempt
        let replayed = Bank(clock: VirtualClock(mode: .manual, start: start), accounts: [.sandboxDefault]) { _ in DeliveryOutcome(status: 500) }
        for record in journal.dropLast() { try replayed.replay(record, resetConfiguration: Bank.Configuration()) }
        #expect(replayed.clock.now == lastAttempt)
    }

    @Test func eventsAtTheSameTimeRunInTheOrderTheyWereScheduled() throws {
        let h = Harness()
        let ids = try (0 ..< 5).map { try h.create("o-\($0)").id }
        h.bank.advance(by: .seconds(5))
        #expect(h.recorder.sent.withLock { $0.map(\.payoutID) } == ids)
    }
}

/// Which payout of its content a payout is (`Payout.occurrence`): counted by the bank as it makes
/// them, by content (API, account, currency, amount and the content fields, not the reference nor
/// a URL), handed to a decline before the payout exists, and counted again from a restored state.
@Suite struct OccurrenceTests {
    private func request(_ reference: String, name: String, amount: String = "100", url: String = "http://hook/1") -> PayoutRequest {
        PayoutRequest(dialect: "test", account: "sandbox_login", reference: reference, country: "BR", currency: "USD", amount: Money(amount)!,
                      callbackURL: url, fields: ["external_id": reference, "beneficiary_name": name, "notification_url": url])
    }

    @Test func payoutsOfOneContentAreCountedInTheOrderTheyAreMade() throws {
        let declinedAt = Mutex<[Int]>([])
        let harness = Harness { configuration in
            configuration.contentFields = ["beneficiary_name", "external_id", "notification_url"]
            configuration.decline = { _, occurrence in
                declinedAt.withLock { $0.append(occurrence) }
                return occurrence == 4 ? Decline(code: "504") : nil
            }
        }
        let made = try [request("a", name: "Ana"), request("b", name: "Ana", url: "http://hook/2"), request("c", name: "Bo"),
                        request("d", name: "Ana", amount: "101"), request("e", name: "Ana")].map { try harness.bank.createPayout($0) }
        #expect(made.map(\.occurrence) == [1, 2, 1, 1, 3])
        #expect(declinedAt.withLock { $0 } == [1, 2, 1, 1, 3])
        #expect(throws: PayoutRefusal.declined(Decline(code: "504"))) { try harness.bank.createPayout(request("f", name: "Ana")) }
        // A refused create made nothing: the next one of the content is still the 4th.
        let configured = Harness { $0.contentFields = ["beneficiary_name"] }
        _ = try [request("a", name: "Ana"), request("b", name: "Ana")].map { try configured.bank.createPayout($0) }
        #expect(throws: PayoutRefusal.duplicateReference) { try configured.bank.createPayout(request("a", name: "Ana")) }
        #expect(try configured.bank.createPayout(request("c", name: "Ana")).occurrence == 3)
    }
}
