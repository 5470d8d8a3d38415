import Dispatch
import Synchronization
import TestHelpers
import Testing
@testable import SandboxBank
@testable import SandboxPersistence

/// A crash can stop the process after any record: every prefix of a journal, cut at each record
/// boundary, replays without error to the state the live bank had when it wrote that record. The
/// live bank here runs everything that is journaled, the way the server runs it: receivers that
/// answer at once, later from other threads, or fail (so retries are scheduled); deliveries whose
/// answers are recorded in order by advances and as they arrive by a clock driver, with answers
/// still on their way when records are written; holds, releases, cancels and forced changes;
/// advances by, to and to the next event; redeliveries; merchant changes; a reset.
struct JournalPrefixTests {
    typealias Replay = BankReplayTests

    /// Answers from a seeded sequence: at once, or from another thread a little later; 200, 500 or a timeout.
    final class Receiver: Sendable {
        private let random: Mutex<SplitMix64>
        let late = DispatchGroup()

        init(seed: UInt64) {
            random = Mutex(SplitMix64(seed: seed))
        }

        func deliver(_ notification: StatusNotification, done: @escaping @Sendable (DeliveryOutcome) -> Void) -> DeliveryOutcome? {
            let (pick, delay) = random.withLock { ($0.next() % 4, $0.next() % 3) }
            let outcome = switch pick {
            case 0: DeliveryOutcome(status: 500, body: "try later")
            case 1: DeliveryOutcome(error: "timed out")
            default: DeliveryOutcome(status: 200)
            }
            guard delay > 0 else { return outcome }
            late.enter()
            DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int(delay) * 300)) {
                done(outcome)
                self.late.leave()
            }
            return nil
        }
    }

    /// Everything a user can see and every event still to come, but for which attempts happen to
    /// be queued: an attempt on its way is off the queue live and back on it in a replay (a crash
    /// then means it is sent again), so pending notifications stand for their attempts.
    static func view(_ s: Bank.State) -> [String] {
        let steps = s.queue.events.filter {
            if case .timeline = $0.kind { return !s.isStale($0) }
            return false
        }
        return ["\(s.accountOrder.map { s.accounts[$0]! })"] + s.payouts.all.map { "\($0) \(s.payouts.decision($0.id)!)" } + s.ledger.map { "\($0)" }
            + s.notifications.map { "\($0)" } + ["\(s.usage.sorted { $0.key < $1.key }.map { ($0.key, $0.value.sorted { $0.key < $1.key }) })",
                                                 "\(steps)", "\(s.chaosCounts.sorted { $0.key < $1.key })"]
    }

    static func drive(_ live: Bank, _ receiver: Receiver, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var created: [Int] = []
        let redeliveries = DispatchGroup()
        for step in 0 ..< 200 {
            switch random.next() % 12 {
            case 0 ... 3:
                if let id = Replay.createRandomPayout(live, &random, step: step) { created.append(id) }
            case 4:
                if random.next() % 2 == 0 {
                    Replay.changeRandomPayout(live, &random, among: created)
                } else {
                    Replay.executeRandomPayout(live, &random, among: created)
                }
            case 5:
                live.advance(by: .seconds(Int64(random.next() % 4000)))
            case 6:
                live.advance(to: live.clock.now.adding(.seconds(Int64(random.next() % 600))))
            case 7:
                live.advanceToNextEvent()
            case 8:
                live.clock.advance(by: .seconds(Int64(random.next() % 400)))  // time passing by itself, as a real clock's
                live.startDueEvents()  // the driver: answers recorded as they arrive, interleaved with what follows
            case 9:
                let count = live.notifications().count
                guard count > 0 else { continue }
                redeliveries.enter()
                live.redeliver(notificationID: 1 + Int(random.next() % UInt64(count))) { _ in redeliveries.leave() }
            case 10:
                _ = try? live.updateAccount(id: "acme", creatingFrom: nil) { $0.callbackURL = "http://hook/m\(step)"; return nil }
            default:
                if step == 120 { live.reset(accounts: [.sandboxDefault, Replay.acme], configuration: Replay.configuration()) }
                live.runDueEvents()
            }
        }
        redeliveries.wait()
        receiver.late.wait()
        live.runDueEvents()
        live.advance(by: .zero)  // journals the clock, which time passing by itself (case 8) moved
        #expect(created.count > 30)
    }

    @Test(arguments: [11, 12, 13] as [UInt64])
    func everyPrefixReplaysToTheStateTheLiveBankHadAtThatRecord(seed: UInt64) throws {
        try everyPrefixReplays(seed: seed, chaos: nil)
    }

    /// The same with webhook chaos of every kind: its plans, copies, holds and releases.
    @Test(arguments: [14, 15] as [UInt64])
    func everyPrefixWithWebhookChaosReplaysToTheStateTheLiveBankHadAtThatRecord(seed: UInt64) throws {
        try everyPrefixReplays(seed: seed, chaos: WebhookChaosJournalTests.everyKind())
    }

    private func everyPrefixReplays(seed: UInt64, chaos: ChaosPolicy?) throws {
        let receiver = Receiver(seed: seed)
        let live = Bank(clock: VirtualClock(mode: .manual, start: Replay.start), configuration: Replay.configuration(chaos: chaos),
                        accounts: [.sandboxDefault, Replay.acme]) { receiver.deliver($1, done: $2) }
        // Under the bank's lock, in record order: the bytes, and the whole state each record left.
        let journal = Mutex<(bytes: [UInt8], views: [[String]])>(([], []))
        live.startRecording { record in journal.withLock { record.encode(into: &$0.bytes) } }
        live.state.withLock { $0.afterRecord = { s in journal.withLock { $0.views.append(Self.view(s)) } } }
        Self.drive(live, receiver, seed: seed)
        if chaos != nil {
            let kinds = Set(live.notifications().flatMap { $0.attempts.compactMap(\.chaos?.kind) })
            #expect(kinds == Set(ChaosKind.allCases))
        }
        let (bytes, views) = journal.withLock { ($0.bytes, $0.views) }
        #expect(views.count > 300)

        // Replaying records one at a time is replaying each prefix: the state after record k is
        // the state a journal cut after record k starts with.
        let replayed = Bank(clock: VirtualClock(mode: .manual, start: Replay.start), configuration: Replay.configuration(chaos: chaos),
                            accounts: [.sandboxDefault, Replay.acme]) { _ in DeliveryOutcome(status: 200) }
        try bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            for (index, expected) in views.enumerated() {
                let record = try BankRecord(decoding: &reader)
                try replayed.replay(record, resetConfiguration: Replay.configuration())
                let actual = replayed.state.withLock { Self.view($0) }
                if actual != expected {
                    let line = actual.indices.first { $0 >= expected.count || actual[$0] != expected[$0] } ?? actual.count
                    let (replayedLine,
                         liveLine) = (line < actual.count ? actual[line] : "nothing", line < expected.count ? expected[line] : "nothing")
                    Issue.record("after record \(index + 1) (\(record.kind)): replayed \(replayedLine)\nlive: \(liveLine)")
                    return
                }
            }
            #expect(reader.isAtEnd)
        }
        replayed.finishReplay()
        #expect(replayed.clock.now == live.clock.now)
    }

    /// A journal written before 0.2 records `eventRan` where this one records what ran; a process
    /// stopped while sending a delivery it had taken off the queue left no attempt, and the next
    /// process queued it again before its own records. Such a journal replays, sessions and all.
    @Test func aJournalOfAnEarlierVersionReplaysAcrossTheRestartsItHolds() throws {
        let bank = Replay.bank(Replay.Receiver())
        let start = Replay.start
        let request = PayoutRequest(dialect: "test", account: "acme", reference: "o-1", country: "BR", currency: "USD", amount: Money("1.00")!,
                                    callbackURL: "http://hook")
        let timeline = [TimelineStep(after: .seconds(5), status: .delivered), TimelineStep(after: .seconds(10), status: .completed)]
        let records: [BankRecord] = [
            .created(request, at: start, settlement: Money("1.00")!, timeline: timeline),
            .eventRan(at: start.adding(.seconds(5))),  // DELIVERED
            .eventRan(at: start.adding(.seconds(5))),  // its delivery taken off the queue: then the process stopped
            // The next process queued the delivery again, and sent it: its own records.
            .eventRan(at: start.adding(.seconds(5))),
            .attempt(notificationID: 1, at: start.adding(.seconds(5)), outcome: DeliveryOutcome(status: 200), scheduled: true),
            .eventRan(at: start.adding(.seconds(15))),  // COMPLETED
            .clock(to: start.adding(.seconds(20))),
        ]
        for record in records { try bank.replay(record, resetConfiguration: Replay.configuration()) }
        bank.finishReplay()
        let payout = try #require(bank.payout(id: 1_000_001))
        #expect(payout.status == .completed)
        #expect(bank.notifications().map(\.state) == [.delivered, .pending])
        #expect(bank.notifications()[0].attempts.count == 1)
    }
}
