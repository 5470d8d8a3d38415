import Synchronization
import TestHelpers
import Testing
@testable import SandboxBank
@testable import SandboxPersistence

/// Replaying the records a bank made, through their binary form, onto a fresh bank gives the same
/// payouts, ledger, notifications, merchants and scheduled events; and both banks then go on alike.
struct BankReplayTests {
    static let start = VirtualTime(iso8601: "2026-01-05T09:00:00Z")!
    static let acme = Account.merchant(login: "acme", pass: "p", secret: "s", readOnlyKey: "r", balance: Money("100000.00")!)

    /// A receiver that answers from a seeded sequence: some failures, so retries happen.
    final class Receiver: Sendable {
        let random = Mutex(SplitMix64(seed: 99))
        func reseed(_ seed: UInt64) { random.withLock { $0 = SplitMix64(seed: seed) } }
        func answer(_ notification: StatusNotification) -> DeliveryOutcome {
            random.withLock { random in
                switch random.next() % 4 {
                case 0: DeliveryOutcome(status: 500, body: "try later")
                case 1: DeliveryOutcome(error: "timed out")
                default: DeliveryOutcome(status: 200)
                }
            }
        }
    }

    static func configuration(chaos: ChaosPolicy? = nil) -> Bank.Configuration {
        var configuration = Bank.Configuration()
        configuration.chaos = chaos
        // Timelines (and what chose them) that depend on the payout, so a replay that asked the
        // scenario again would be caught.
        configuration.timeline = { payout in
            if payout.fields["method"] == "sepa" {  // details added when executed: the timeline chosen again
                return DecidedTimeline([TimelineStep(after: .seconds(1), status: .delivered),
                                        TimelineStep(after: .seconds(2), status: .rejected, reasonCode: "802")],
                                       decision: TimelineDecision(kind: .magicValue, scenario: "built-in", rule: "SEPA 802", index: 4))
            }
            let rule = Int(payout.amount.hundredths % 4)
            let steps: [TimelineStep] = switch rule {
            case 0: [TimelineStep(after: .seconds(60), status: .delivered), TimelineStep(after: .seconds(3600), status: .completed),
                     TimelineStep(after: .seconds(86400), status: .rejected, reasonCode: "826")]
            case 1: [TimelineStep(after: .seconds(5), status: .delivered), TimelineStep(after: .seconds(5), status: .rejected, reasonCode: "801")]
            case 2: [TimelineStep(after: .zero, status: .delivered), TimelineStep(after: .seconds(10), status: .completed)]
            default: []
            }
            return DecidedTimeline(steps, decision: rule == 3 ? .defaultTimeline(of: "replay")
                : TimelineDecision(kind: .rule, scenario: "replay", rule: rule == 0 ? "late return" : nil, index: rule, outcome: rule == 1 ? 1 : nil))
        }
        return configuration
    }

    static func bank(_ receiver: Receiver, chaos: ChaosPolicy? = nil) -> Bank {
        Bank(clock: VirtualClock(mode: .manual, start: start), configuration: configuration(chaos: chaos),
             accounts: [.sandboxDefault, acme]) { receiver.answer($0) }
    }

    /// What must be equal: everything a user can see, and the events still to come.
    static func view(_ bank: Bank) -> [String] {
        bank.state.withLock { s in
            let live = s.queue.events.filter { !s.isStale($0) }
            return ["\(s.accountOrder.map { s.accounts[$0]! })"] + s.payouts.all.map { "\($0) \(s.payouts.decision($0.id)!)" }
                + s.ledger.map { "\($0)" } + s.notifications.map { "\($0)" }
                + ["\(s.usage.sorted { $0.key < $1.key }.map { ($0.key, $0.value.sorted { $0.key < $1.key }) })",
                   "\(live)", "\(bank.clock.now)",
                   "\(s.chaosCounts.sorted { $0.key < $1.key })"]
        }
    }

    /// Creates a payout of "acme" or the default merchant (some held, some without a URL); its id, unless refused.
    static func createRandomPayout(_ live: Bank, _ random: inout SplitMix64, step: Int) -> Int? {
        let merchant = random.next() % 2 == 0 ? "acme" : "sandbox_login"
        var request = PayoutRequest(dialect: "test", account: merchant, reference: "e-\(step)", country: "BR", currency: "USD",
                                    amount: Money(hundredths: Int64(100 + random.next() % 5000)),
                                    status: [.onHold, .staged, .awaitingDetails, .pending, .pending, .pending, .pending,
                                             .pending][Int(random.next() % 8)],
                                    callbackURL: random.next() % 5 == 0 ? nil : "http://hook/\(step)")
        request.fields["beneficiary_name"] = "Ana \(step)"
        if request.status.awaitsExecution, random.next() % 2 == 0 { request.expiresAfter = .seconds(Int64(1 + random.next() % 7200)) }
        return try? live.createPayout(request).id
    }

    /// Changes one of `created` to a random status, by the merchant or the admin (the lifecycle may refuse it).
    static func changeRandomPayout(_ live: Bank, _ random: inout SplitMix64, among created: [Int]) {
        guard let id = created.randomElement(using: &random) else { return }
        let status = [PayoutStatus.onHold, .pending, .cancelled, .delivered, .completed, .rejected][Int(random.next() % 6)]
        _ = try? live.changeStatus(payoutID: id, to: status, by: random.next() % 2 == 0 ? "merchant" : "admin",
                                   reasonCode: status == .rejected ? "807" : nil)
    }

    /// Executes one of `created` if it is staged or awaits details, some with details that choose
    /// its timeline again and send its notifications elsewhere.
    static func executeRandomPayout(_ live: Bank, _ random: inout SplitMix64, among created: [Int]) {
        guard let id = created.randomElement(using: &random) else { return }
        let details = random.next() % 2 == 0 ? PayoutDetails() : PayoutDetails(fields: ["method": "sepa"], callbackURL: "http://hook/x\(id)")
        _ = try? live.execute(payoutID: id, by: "merchant", adding: details)
    }

    /// Four hundred random commands: creates (some held, staged or awaiting details, some without
    /// a URL), status changes by the merchant and the admin, executions, advances, redeliveries and
    /// merchant changes.
    static func drive(_ live: Bank, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var created: [Int] = []
        for step in 0 ..< 400 {
            switch random.next() % 10 {
            case 0 ... 3:
                if let id = createRandomPayout(live, &random, step: step) { created.append(id) }
            case 4:
                if random.next() % 2 == 0 { changeRandomPayout(live, &random,
                                                               among: created) } else { executeRandomPayout(live, &random, among: created) }
            case 5 ... 7:
                live.advance(by: .seconds(Int64(random.next() % 4000)))
            case 8:
                live.advanceToNextEvent()
                _ = live.nextEventAt  // a read that drops stale events: the replay does not see it
            default:
                if random.next() % 3 == 0 {
                    _ = live.redeliver(notificationID: 1 + Int(random.next() % UInt64(max(1, live.notifications().count))))
                } else {
                    _ = try? live.updateAccount(id: "acme", creatingFrom: nil) { $0.callbackURL = "http://hook/m\(step)"; return nil }
                }
            }
        }
        #expect(created.count > 100)
        #expect(live.notifications().contains { $0.attempts.count > 1 })
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aReplayedJournalRebuildsTheSameBank(seed: UInt64) throws {
        let journal = Mutex<[UInt8]>([])
        let (liveReceiver, replayReceiver) = (Receiver(), Receiver())
        let live = Self.bank(liveReceiver)
        live.startRecording { record in journal.withLock { record.encode(into: &$0) } }
        Self.drive(live, seed: seed)

        let replayed = Self.bank(replayReceiver)
        let records = try journal.withLock { bytes in
            try bytes.withUnsafeBytes { buffer throws -> Int in
                var reader = BinaryReader(buffer)
                var count = 0
                while !reader.isAtEnd {
                    try replayed.replay(try BankRecord(decoding: &reader), resetConfiguration: Self.configuration())
                    count += 1
                }
                return count
            }
        }
        replayed.finishReplay()
        #expect(records > 800)
        Self.expectSameFuture(replayed, replayReceiver, live, liveReceiver, seed: seed)
    }

    /// The two banks hold the same now, and go on the same way: the same events at the same
    /// times, given the same answers.
    static func expectSameFuture(_ copy: Bank, _ copyReceiver: Receiver, _ live: Bank, _ liveReceiver: Receiver, seed: UInt64,
                                 sourceLocation: SourceLocation = #_sourceLocation) {
        let (a, b) = (view(copy), view(live))
        #expect(a.count == b.count, sourceLocation: sourceLocation)
        if let first = a.indices.first(where: { $0 < b.count && a[$0] != b[$0] }) {
            Issue.record("copy: \(a[first])\nlive: \(b[first])", sourceLocation: sourceLocation)
        }
        liveReceiver.reseed(seed)
        copyReceiver.reseed(seed)
        #expect(live.advance(by: .seconds(30 * 86400)) == copy.advance(by: .seconds(30 * 86400)), sourceLocation: sourceLocation)
        #expect(view(copy) == view(live), sourceLocation: sourceLocation)
    }

    @Test func aJournalThatDoesNotFitTheBankIsRefused() {
        let bank = Self.bank(Receiver())
        #expect(throws: Bank.ReplayError.self) {
            try bank.replay(.statusChanged(payoutID: 1_000_001, to: TimelineStep(after: .zero, status: .cancelled), by: "admin", at: Self.start),
                            resetConfiguration: Self.configuration())
        }
        #expect(throws: Bank.ReplayError.self) { try bank.replay(.eventRan(at: Self.start), resetConfiguration: Self.configuration()) }
    }
}
