import Foundation
import Synchronization
import Testing
@testable import SandboxBank
@testable import SandboxPersistence

/// Webhook chaos through the bank's binary form: the plan survives a journal's replay and a
/// snapshot, and what a sandbox before webhook chaos wrote is read.
struct WebhookChaosJournalTests {
    typealias Replay = BankReplayTests
    static let start = Replay.start


    /// Every kind, on notifications in turn, with matches counted.
    static func everyKind() -> ChaosPolicy {
        ChaosPolicy(identity: "every kind") { notification, _, counts in
            let rule = { (index: Int) in ChaosRule(index: index, name: "r\(index)") }
            var plan = ChaosPlan(matched: [0])
            if (counts[0] ?? 0) % 4 == 3 { plan.copies.append(ChaosPlan.Copy(kind: .forged, after: .seconds(10), rule: rule(5))) }
            switch notification.id % 6 {
            case 0: plan.copies.append(ChaosPlan.Copy(kind: .duplicate, after: .seconds(30), rule: rule(0)))
            case 1: plan.copies.append(ChaosPlan.Copy(kind: .forged, after: .zero, rule: rule(1)))
            case 2: (plan.shift, plan.shiftRule) = (.delay(.seconds(90)), rule(2))
            case 3:
                (plan.shift, plan.shiftRule) = (.hold(atMost: .seconds(600)), rule(3))
                plan.copies.append(ChaosPlan.Copy(kind: .replay, after: .seconds(5), rule: rule(4)))
            case 4: plan.copies.append(ChaosPlan.Copy(kind: .replay, after: .zero, rule: rule(4)))
            default: break
            }
            return plan
        }
    }

    @Test(arguments: [21, 22] as [UInt64])
    func aJournalWithChaosReplaysToTheSameBank(seed: UInt64) throws {
        let journal = Mutex<[UInt8]>([])
        let (liveReceiver, replayReceiver) = (Replay.Receiver(), Replay.Receiver())
        let live = Replay.bank(liveReceiver, chaos: Self.everyKind())
        live.startRecording { record in journal.withLock { record.encode(into: &$0) } }
        Replay.drive(live, seed: seed)
        #expect(live.notifications().contains { $0.attempts.contains { $0.chaos?.kind == .forged } })
        #expect(live.notifications().contains { $0.attempts.contains { $0.chaos?.kind == .outOfOrder } })

        let replayed = Replay.bank(replayReceiver, chaos: Self.everyKind())
        try journal.withLock { bytes in
            try bytes.withUnsafeBytes { buffer in
                var reader = BinaryReader(buffer)
                while !reader.isAtEnd { try replayed.replay(try BankRecord(decoding: &reader), resetConfiguration: Replay.configuration()) }
            }
        }
        replayed.finishReplay()
        #expect(replayed.state.withLock { $0.chaosCounts } == live.state.withLock { $0.chaosCounts })
        Replay.expectSameFuture(replayed, replayReceiver, live, liveReceiver, seed: seed)
    }

    @Test func aSnapshotKeepsChaosStillToCome() throws {
        let (liveReceiver, copyReceiver) = (Replay.Receiver(), Replay.Receiver())
        let live = Replay.bank(liveReceiver, chaos: Self.everyKind())
        // Timelines of DELIVERED at once and COMPLETED 10 s later, or DELIVERED and REJECTED 5 s apart.
        for index in 0 ..< 12 {
            _ = try live.createPayout(PayoutRequest(dialect: "test", account: "acme", reference: "o-\(index)", country: "BR", currency: "USD",
                                                    amount: Money(hundredths: Int64(1001 + index % 2)), callbackURL: "http://hook"))
            live.advance(by: .seconds(1))
        }
        // Held, delayed and copies due or waiting are all in it.
        let plans = live.notifications().compactMap(\.chaos)
        #expect(plans.contains { $0.copies.contains { if case .due = $0.progress { true } else { false } } })
        #expect(plans.contains { $0.copies.contains { $0.progress == .waiting } })
        #expect(live.notifications().contains { $0.chaos?.holds($0) == true })
        let bytes = BankSnapshotTests.encoded(live.snapshot())
        let copy = Replay.bank(copyReceiver, chaos: Self.everyKind())
        copy.restore(try BankSnapshotTests.decoded(bytes))
        #expect(BankSnapshotTests.encoded(copy.snapshot()) == bytes)
        #expect(copy.state.withLock { $0.chaosWatch } == live.state.withLock { $0.chaosWatch })
        Replay.expectSameFuture(copy, copyReceiver, live, liveReceiver, seed: 7)
    }

    /// What a sandbox before webhook chaos left (format 4, written by its code: Fixtures/bank-format-4.*,
    /// payouts with retries pending, a hold, a redelivery): its journal replays, and its snapshot
    /// restores, to the same bank, which goes on as one that never stopped.
    @Test func aJournalAndASnapshotOfFormat4AreRead() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let format = BankFormat(version: 4, legacyDialect: "", legacySettings: { _, _ in [:] })
        let account = Account(id: "acme", dialect: "test", currency: "USD", balance: Money("100000.00")!,
                              settings: ["pass": "p", "secret": "s", "read_only_key": "r"])
        let (replayReceiver, restoreReceiver) = (Replay.Receiver(), Replay.Receiver())
        let replayed = Bank(clock: VirtualClock(mode: .manual, start: Self.start), accounts: [account]) { replayReceiver.answer($0) }
        try Array(Data(contentsOf: fixtures.appendingPathComponent("bank-format-4.journal"))).withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            while !reader.isAtEnd { try replayed.replay(try BankRecord(decoding: &reader, format: format), resetConfiguration: Bank.Configuration()) }
        }
        replayed.finishReplay()
        let restored = Bank(clock: VirtualClock(mode: .manual, start: Self.start)) { restoreReceiver.answer($0) }
        try Array(Data(contentsOf: fixtures.appendingPathComponent("bank-format-4.snapshot"))).withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            restored.restore(try BankSnapshot(decoding: &reader, format: format))
            #expect(reader.isAtEnd)
        }
        #expect(restored.clock.now == VirtualTime(iso8601: "2026-01-05T09:04:02Z"))
        #expect(restored.notifications().map(\.state) == [.delivered, .delivered, .pending, .delivered, .delivered, .pending, .delivered,
                                                          .delivered, .noURL, .noURL])
        #expect(restored.notifications().allSatisfy { $0.chaos == nil && $0.attempts.allSatisfy { $0.chaos == nil } })
        Replay.expectSameFuture(restored, restoreReceiver, replayed, replayReceiver, seed: 3)
    }
}
