import Synchronization
import Testing
@testable import SandboxBank
@testable import SandboxPersistence

/// A bank read back from its journal or its snapshot holds its payouts as compactly as the bank
/// that made them: the payouts of a rule share its timeline, the payouts of a callback URL share
/// its string, and a payout shares its fixed part with its notifications. Otherwise a restart, or
/// a `PUT /sandbox/snapshot`, of 100,000 cashouts took 30 % more memory than the running state.
struct RestoredSharingTests {
    typealias Replay = BankReplayTests

    /// One rule's timeline for every payout, as the scenario engine hands out a rule's steps.
    static let steps = [TimelineStep(after: .seconds(60), status: .delivered), TimelineStep(after: .seconds(3600), status: .completed),
                        TimelineStep(after: .seconds(86400), status: .rejected, reasonCode: "826", reason: "returned")]
    static let url = "http://127.0.0.1:9/sandbox/sink/acme"  // longer than a string kept inline

    static func bank() -> Bank {
        var configuration = Bank.Configuration()
        configuration.timeline = { _ in DecidedTimeline(steps, decision: TimelineDecision(kind: .rule, scenario: "load", index: 0)) }
        return Bank(clock: VirtualClock(mode: .manual, start: Replay.start), configuration: configuration, accounts: [Replay.acme]) { _ in
            DeliveryOutcome(status: 200)
        }
    }

    /// A bank that made 50 payouts (each notified three times), and its journal.
    static func live() throws -> (Bank, [UInt8]) {
        let journal = Mutex<[UInt8]>([])
        let live = bank()
        live.startRecording { record in journal.withLock { record.encode(into: &$0) } }
        for index in 0 ..< 50 {
            var request = PayoutRequest(dialect: "test", account: "acme", reference: "o-\(index)", country: "BR", currency: "USD",
                                        amount: Money("10.00")!, callbackURL: "\(url)")  // a string of its own, as a request's is
            request.fields = ["amount": "10.00", "beneficiary": "Ana Lima \(index)"]
            _ = try live.createPayout(request)
        }
        live.advance(by: .seconds(2 * 86400))
        return (live, journal.withLock { $0 })
    }

    /// How many distinct timelines, callback URL strings and fixed parts its payouts and
    /// notifications hold between them (by where their storage is).
    static func distinct(_ bank: Bank) -> (timelines: Int, urls: Int, shared: Int) {
        bank.state.withLock { s in
            let timelines = Set(s.payouts.allPlans.map { $0.timeline.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } })
            let urls = Set(s.payouts.all.map { $0.callbackURL!.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } })
            let shared = Set(s.payouts.all.map { ObjectIdentifier($0.shared) } + s.notifications.map { ObjectIdentifier($0.payout) })
            return (timelines.count, urls.count, shared.count)
        }
    }

    @Test func aReplayedJournalSharesWhatTheLiveBankShares() throws {
        let (live, journal) = try Self.live()
        let replayed = Self.bank()
        try journal.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            while !reader.isAtEnd { try replayed.replay(try BankRecord(decoding: &reader), resetConfiguration: Bank.Configuration()) }
        }
        replayed.finishReplay()
        #expect(replayed.notifications().count == 150)
        #expect(Self.distinct(live) == (timelines: 1, urls: 1, shared: 50))
        #expect(Self.distinct(replayed) == Self.distinct(live))
    }

    @Test func aRestoredSnapshotSharesWhatTheLiveBankShares() throws {
        let (live, _) = try Self.live()
        let bytes = BankSnapshotTests.encoded(live.snapshot())
        let restored = Self.bank()
        restored.restore(try BankSnapshotTests.decoded(bytes))
        #expect(restored.notifications().count == 150)
        #expect(Self.distinct(restored) == Self.distinct(live))
        #expect(BankSnapshotTests.encoded(restored.snapshot()) == bytes)
    }

    @Test func fieldsReadBackKeepTheirOrderAndTheLastValueOfARepeatedName() throws {
        var bytes: [UInt8] = []
        BinaryWriter.append(UInt64(3), to: &bytes)
        for text in ["beneficiary", "Ana", "amount", "10.00", "beneficiary", "Bea"] { BinaryWriter.append(text, to: &bytes) }
        let fields = try bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            return try reader.fields()
        }
        #expect(fields.map(\.name) == ["beneficiary", "amount"])
        #expect(fields["beneficiary"] == "Bea")
    }
}
