import Synchronization
import TestHelpers
import Testing
@testable import SandboxBank
@testable import SandboxPersistence

/// A snapshot, through its binary form, restored into another bank gives the same payouts,
/// ledger, notifications, merchants, scheduled events and clock; and both banks go on alike.
struct BankSnapshotTests {
    typealias Replay = BankReplayTests

    static func encoded(_ snapshot: BankSnapshot) -> [UInt8] {
        var bytes: [UInt8] = []
        snapshot.encode(into: &bytes)
        return bytes
    }

    static func decoded(_ bytes: [UInt8]) throws -> BankSnapshot {
        try bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            let snapshot = try BankSnapshot(decoding: &reader)
            guard reader.isAtEnd else { throw BinaryReader.Malformed(offset: reader.offset, reason: "bytes after the snapshot") }
            return snapshot
        }
    }

    @Test(arguments: [4, 5, 6] as [UInt64])
    func aRestoredSnapshotIsTheSameBank(seed: UInt64) throws {
        let (liveReceiver, copyReceiver) = (Replay.Receiver(), Replay.Receiver())
        let live = Replay.bank(liveReceiver)
        Replay.drive(live, seed: seed)
        let bytes = Self.encoded(live.snapshot())

        // Into a bank that has a different past and a later clock: all of it is replaced.
        let copy = Replay.bank(copyReceiver)
        Replay.drive(copy, seed: seed + 100)
        copy.advance(by: .seconds(90 * 86400))
        copy.restore(try Self.decoded(bytes))
        #expect(copy.clock.now == live.clock.now)
        #expect(Self.encoded(copy.snapshot()) == bytes)
        Replay.expectSameFuture(copy, copyReceiver, live, liveReceiver, seed: seed)

        // Ids go on from where they were.
        let request = PayoutRequest(dialect: "test", account: "acme", reference: "after", country: "BR", currency: "USD", amount: Money("1.00")!)
        #expect(try copy.createPayout(request).id == live.createPayout(request).id)
    }

    /// A payout's occurrence is not in the binary form: a bank restored from it counts them again,
    /// by its own content fields, and the next payout of a content goes on from there.
    @Test func occurrencesAreCountedAgainFromARestoredSnapshot() throws {
        func bank() -> Bank {
            var configuration = Replay.configuration(chaos: nil)
            configuration.contentFields = ["beneficiary_name"]
            return Bank(clock: VirtualClock(mode: .manual, start: Replay.start), configuration: configuration, accounts: [Replay.acme]) { _ in
                DeliveryOutcome(status: 200)
            }
        }
        func request(_ reference: String, _ name: String) -> PayoutRequest {
            PayoutRequest(dialect: "test", account: "acme", reference: reference, country: "BR", currency: "USD", amount: Money("1.00")!,
                          fields: ["beneficiary_name": name])
        }
        let live = bank()
        let made = try [request("a", "Ana"), request("b", "Bo"), request("c", "Ana")].map { try live.createPayout($0) }
        #expect(made.map(\.occurrence) == [1, 1, 2])
        let copy = bank()
        copy.restore(try Self.decoded(Self.encoded(live.snapshot())))
        #expect(copy.payouts().map(\.occurrence) == [1, 1, 2])
        #expect(try copy.createPayout(request("d", "Ana")).occurrence == 3)
        #expect(try copy.createPayout(request("e", "Bo")).occurrence == 2)
    }

    @Test func aDeliveryInFlightWhenTheSnapshotIsTakenIsSentAgainAfterTheRestore() throws {
        let taken = Mutex<BankSnapshot?>(nil)
        let bankBox = Mutex<Bank?>(nil)
        let live = Bank(clock: VirtualClock(mode: .manual, start: Replay.start), accounts: [Replay.acme]) { _ in
            // The sender runs outside the bank's lock, with its event already taken off the queue.
            taken.withLock { $0 = bankBox.withLock { $0 }!.snapshot() }
            return DeliveryOutcome(status: 200)
        }
        bankBox.withLock { $0 = live }
        let request = PayoutRequest(dialect: "test", account: "acme", reference: "o-1", country: "BR", currency: "USD", amount: Money("10.00")!,
                                    callbackURL: "http://hook")
        _ = try live.createPayout(request)
        live.advance(by: .seconds(5))  // DELIVERED, notified
        #expect(live.notifications().map(\.state) == [.delivered])

        let delivered = Mutex(0)
        let copy = Bank(clock: VirtualClock(mode: .manual), accounts: []) { _ in
            delivered.withLock { $0 += 1 }
            return DeliveryOutcome(status: 200)
        }
        copy.restore(try Self.decoded(Self.encoded(try #require(taken.withLock { $0 }))))
        #expect(copy.notifications().map(\.state) == [.pending])
        #expect(copy.nextEventAt == Replay.start.adding(.seconds(5)))
        copy.advance(by: .zero)
        #expect(delivered.withLock { $0 } == 1)
        #expect(copy.notifications().map(\.state) == [.delivered])
    }

    @Test func everyCutOfASnapshotIsRefused() throws {
        let live = Replay.bank(Replay.Receiver())
        for index in 0 ..< 3 {
            _ = try live.createPayout(PayoutRequest(dialect: "test", account: "acme", reference: "o-\(index)", country: "BR", currency: "USD",
                                                    amount: Money("10.00")!, callbackURL: "http://hook"))
        }
        live.advance(by: .seconds(30))
        let bytes = Self.encoded(live.snapshot())
        _ = try Self.decoded(bytes)
        for length in 0 ..< bytes.count {
            #expect(throws: BinaryReader.Malformed.self) { try Self.decoded(Array(bytes.prefix(length))) }
        }
    }

    /// A payout staged or awaiting details has not started its timeline when the snapshot is taken:
    /// restored, it still runs the whole timeline once executed (it used to stay PENDING, its
    /// first step taken for one already run).
    @Test func aPayoutAwaitingExecutionRunsItsTimelineAfterARestore() throws {
        let bank = { Bank(clock: VirtualClock(mode: .manual, start: Replay.start), accounts: [Replay.acme]) { _ in DeliveryOutcome(status: 200) } }
        let live = bank()
        let ids = try [PayoutStatus.staged, .awaitingDetails].map { status in
            try live.createPayout(PayoutRequest(dialect: "test", account: "acme", reference: "\(status)", country: "BR", currency: "USD",
                                                amount: Money("10.00")!, status: status)).id
        }
        let copy = bank()
        copy.restore(try Self.decoded(Self.encoded(live.snapshot())))
        for restored in [live, copy] {
            for id in ids { #expect(try restored.execute(payoutID: id, by: "merchant")?.status == .pending) }
            restored.advance(by: .seconds(60))
            #expect(ids.map { restored.payout(id: $0)?.status } == [.completed, .completed])
        }
        #expect(Self.encoded(copy.snapshot()) == Self.encoded(live.snapshot()))
    }

    /// Amounts as large as the admin API allows, refunded onto balances set as high again, pile up
    /// past 15 digits: the bank saturates instead of trapping, and its snapshot still round-trips.
    @Test func balancesPiledUpByRefundsStillSnapshotAndRestore() throws {
        let huge = Money("999999999999999.00")!
        let bank = Bank(clock: VirtualClock(mode: .manual, start: Replay.start), accounts: [
            Account.merchant(login: "acme", pass: "p", secret: "s", readOnlyKey: "r", balance: huge),
        ]) { _ in DeliveryOutcome(status: 200) }
        var held: [Int] = []
        for index in 0 ..< 100 {
            _ = try bank.updateAccount(id: "acme", creatingFrom: nil) { $0.balance = huge; return nil }
            held.append(try bank.createPayout(PayoutRequest(dialect: "test", account: "acme", reference: "o-\(index)", country: "BR", currency: "USD",
                                                            amount: huge, status: .onHold)).id)
        }
        for id in held { try bank.changeStatus(payoutID: id, to: .cancelled, by: "admin") }  // 100 refunds of 10^15
        #expect(bank.account(id: "acme")?.balance == Money(hundredths: .max))
        let bytes = Self.encoded(bank.snapshot())
        let copy = Bank(clock: VirtualClock(mode: .manual), accounts: []) { _ in DeliveryOutcome(status: 200) }
        copy.restore(try Self.decoded(bytes))
        #expect(Self.encoded(copy.snapshot()) == bytes)
    }

    /// Ways to break a snapshot's parts, and what the refusal says.
    enum Breakage: CaseIterable {
        case deliveryOfNotificationZero, deliveryOfUnknownNotification
        case stepPastTheTimeline, generationAhead, statusNotInHistory, timeBeforeTheEpoch

        var problem: String {
            switch self {
            case .deliveryOfNotificationZero: "unknown notification 0"
            case .deliveryOfUnknownNotification: "unknown notification 9"
            case .stepPastTheTimeline, .generationAhead: "that its timeline does not have"
            case .statusNotInHistory: "status is not the last of its history"
            case .timeBeforeTheEpoch: "a time out of range"
            }
        }

        func apply(_ s: inout Bank.State) {
            switch self {
            case .deliveryOfNotificationZero: s.queue.schedule(.delivery(notificationID: 0, attempt: 0), at: Replay.start)
            case .deliveryOfUnknownNotification: s.queue.schedule(.delivery(notificationID: 9, attempt: 0), at: Replay.start)
            case .stepPastTheTimeline: s.queue.schedule(.timeline(payoutID: 1_000_001, generation: 0, step: 3), at: Replay.start)
            case .generationAhead: s.queue.schedule(.timeline(payoutID: 1_000_001, generation: 1, step: 0), at: Replay.start)
            case .statusNotInHistory: s.payouts.modify(1_000_001) { $0.status = .completed }
            case .timeBeforeTheEpoch: s.queue.schedule(.delivery(notificationID: 1, attempt: 0), at: VirtualTime(milliseconds: -1))
            }
        }
    }

    /// A ledger entry names its account and its payout (the bank keeps neither: they are the
    /// payout's): a snapshot whose entry names another is refused.
    @Test(arguments: [("nobody", 1_000_001, "unknown account nobody"), ("acme", 7, "unknown payout 7"),
                      ("other", 1_000_001, "a ledger entry of payout 1000001 in another account than the payout's")])
    func aLedgerEntryOfAnotherAccountOrPayoutIsRefused(account: String, payoutID: Int, problem: String) throws {
        let live = Replay.bank(Replay.Receiver())
        _ = try live.updateAccount(id: "other", creatingFrom: Account(id: "other", dialect: "test", balance: .zero)) { _ in nil }
        _ = try live.createPayout(PayoutRequest(dialect: "test", account: "acme", reference: "o-1", country: "BR", currency: "USD",
                                                amount: Money("10.00")!, callbackURL: "http://hook"))
        var bytes = Self.encoded(live.snapshot())
        func entry(_ account: String, _ payoutID: Int) -> [UInt8] {
            var entry: [UInt8] = []
            BinaryWriter.append(account, to: &entry)
            BinaryWriter.append(payoutID, to: &entry)
            BinaryWriter.append(false, to: &entry)  // a debit
            return entry
        }
        let written = try #require(bytes.firstRange(of: entry("acme", 1_000_001)))
        bytes.replaceSubrange(written, with: entry(account, payoutID))
        let error = try #require(throws: BinaryReader.Malformed.self) { try Self.decoded(bytes) }
        #expect(error.reason.contains(problem))
    }

    /// Snapshots whose parts do not hold together are refused with what is wrong, not restored.
    @Test(arguments: Breakage.allCases)
    func aSnapshotThatDoesNotHoldTogetherIsRefused(breakage: Breakage) throws {
        let live = Replay.bank(Replay.Receiver())
        _ = try live.createPayout(PayoutRequest(dialect: "test", account: "acme", reference: "o-1", country: "BR", currency: "USD",
                                                amount: Money("10.00")!, callbackURL: "http://hook"))
        var snapshot = live.snapshot()
        breakage.apply(&snapshot.state)
        let error = try #require(throws: BinaryReader.Malformed.self) { try Self.decoded(Self.encoded(snapshot)) }
        #expect(error.reason.contains(breakage.problem))
    }
}
