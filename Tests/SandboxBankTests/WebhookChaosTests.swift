import Synchronization
import TestHelpers
import Testing
@testable import SandboxBank

/// Webhook chaos in the bank: each kind does what it says on the virtual clock, copies never
/// touch the notification's own delivery (that the plan survives a journal's replay and a snapshot:
/// SandboxPersistenceTests' `WebhookChaosJournalTests`).
struct WebhookChaosTests {
    static let start = VirtualTime(iso8601: "2026-01-05T09:00:00Z")!
    static let acme = Account.merchant(login: "acme", pass: "p", secret: "s", readOnlyKey: "r", balance: Money("100000.00")!)

    /// What a receiver got: each notification as sent (its id and whether it was forged), in order.
    final class Receiver: Sendable {
        let received = Mutex<[(id: Int, forged: Bool)]>([])
        /// Answers by notification id (default 200).
        let answers: Mutex<[Int: [Int]]>

        init(answers: [Int: [Int]] = [:]) {
            self.answers = Mutex(answers)
        }

        func deliver(_ notification: StatusNotification) -> DeliveryOutcome {
            received.withLock { $0.append((notification.id, notification.forged)) }
            let status = answers.withLock { answers in answers[notification.id]?.isEmpty == false ? answers[notification.id]!.removeFirst() : 200 }
            return DeliveryOutcome(status: status, body: status == 200 ? "ok" : "no")
        }

        var log: [String] { received.withLock { $0.map { "\($0.id)\($0.forged ? "F" : "")" } } }
    }

    static let rule = ChaosRule(index: 0, name: "r")

    /// A bank whose payouts go DELIVERED after 5 s and COMPLETED 10 s later, with `plan` chosen for
    /// each notification by its status.
    static func bank(_ receiver: Receiver, _ plans: @escaping @Sendable (PayoutStatus) -> ChaosPlan?) -> Bank {
        var configuration = Bank.Configuration()
        configuration.chaos = ChaosPolicy(identity: "test") { notification, _, _ in plans(notification.status) }
        return Bank(clock: VirtualClock(mode: .manual, start: start), configuration: configuration, accounts: [Self.acme]) {
            receiver.deliver($0)
        }
    }

    static func create(_ bank: Bank) throws {
        _ = try bank.createPayout(PayoutRequest(dialect: "test", account: "acme", reference: "o-1", country: "BR", currency: "USD",
                                                amount: Money("10.00")!, callbackURL: "http://hook"))
    }

    static func copy(_ kind: ChaosKind, after: Duration = .zero) -> ChaosPlan {
        ChaosPlan(copies: [ChaosPlan.Copy(kind: kind, after: after, rule: rule)], matched: [0])
    }

    /// Each attempt as "at+seconds kind status" for one notification.
    static func attempts(_ bank: Bank, _ id: Int) -> [String] {
        bank.notification(id: id)!.attempts.map { attempt in
            let seconds = (attempt.at.milliseconds - start.milliseconds) / 1000
            return "+\(seconds) \(attempt.chaos?.kind.rawValue ?? "own") \(attempt.outcome.status ?? 0)"
        }
    }

    @Test func aDuplicateIsSentAfterTheFirstAttemptAndTouchesNothingOfTheOriginal() throws {
        let receiver = Receiver(answers: [1: [200, 500]])
        let bank = Self.bank(receiver) { $0 == .delivered ? Self.copy(.duplicate, after: .seconds(30)) : nil }
        try Self.create(bank)
        bank.advance(by: .seconds(5))
        #expect(Self.attempts(bank, 1) == ["+5 own 200"])
        bank.advance(by: .seconds(29))
        #expect(Self.attempts(bank, 1) == ["+5 own 200"])
        bank.advance(by: .seconds(1))
        // The copy's 500 is journaled, never retried, and the notification stays delivered.
        #expect(Self.attempts(bank, 1) == ["+5 own 200", "+35 duplicate 500"])
        let notification = try #require(bank.notification(id: 1))
        #expect(notification.state == .delivered && notification.nextAttemptAt == nil)
        #expect(notification.attempts[1].chaos == ChaosMark(kind: .duplicate, rule: Self.rule, copy: 0, copyOf: 1, delay: .seconds(30)))
        #expect(!notification.attempts[1].isRetry(in: notification) && !notification.attempts[1].manual)
        #expect(notification.scheduledAttempts == 1)  // the copy is not one of the schedule's
        _ = bank.redeliver(notificationID: 1)
        let redelivered = try #require(bank.notification(id: 1))
        #expect(redelivered.attempts.count == 3 && redelivered.attempts[2].manual && redelivered.scheduledAttempts == 1)
        #expect(redelivered.scheduledAttempts == redelivered.attempts.count(where: \.isScheduled))
        bank.advance(by: .seconds(86400))
        #expect(receiver.log == ["1", "2", "1", "1"])
    }

    @Test func aDuplicateOfAFailingNotificationLeavesItsRetriesAsTheyWere() throws {
        let receiver = Receiver(answers: [1: [500, 200, 200]])
        let bank = Self.bank(receiver) { $0 == .delivered ? Self.copy(.duplicate) : nil }
        try Self.create(bank)
        bank.advance(by: .seconds(5))
        let notification = try #require(bank.notification(id: 1))
        #expect(Self.attempts(bank, 1) == ["+5 own 500", "+5 duplicate 200"])
        #expect(notification.state == .pending && notification.nextAttemptAt == Self.start.adding(.seconds(305)))
        bank.advance(by: .seconds(300))
        #expect(Self.attempts(bank, 1) == ["+5 own 500", "+5 duplicate 200", "+305 own 200"])
        let retried = try #require(bank.notification(id: 1))
        #expect(retried.attempts.map { $0.isRetry(in: retried) } == [false, false, true])
    }

    @Test func aForgedCopyIsHandedToTheSenderMarkedForged() throws {
        let receiver = Receiver()
        let bank = Self.bank(receiver) { $0 == .completed ? Self.copy(.forged) : nil }
        try Self.create(bank)
        bank.advance(by: .seconds(15))
        #expect(receiver.log == ["1", "2", "2F"])
        #expect(bank.notification(id: 2)!.attempts.map(\.chaos?.kind) == [nil, .forged])
        #expect(bank.notifications().allSatisfy { !$0.forged })
    }

    @Test func aDelayedFirstAttemptIsTheNotificationsOwnAndIsRetried() throws {
        let receiver = Receiver(answers: [1: [500]])
        let bank = Self.bank(receiver) { $0 == .delivered ? ChaosPlan(shift: .delay(.seconds(120)), shiftRule: Self.rule, matched: [0]) : nil }
        try Self.create(bank)
        #expect(bank.advance(by: .seconds(5)) == 1)  // the step only: the moved attempt is not an event that ran
        #expect(bank.notification(id: 1)!.nextAttemptAt == Self.start.adding(.seconds(125)))
        #expect(Self.attempts(bank, 1).isEmpty)
        bank.advance(by: .seconds(120))
        #expect(Self.attempts(bank, 1) == ["+125 delayed 500"])
        #expect(bank.notification(id: 1)!.attempts[0].chaos == ChaosMark(kind: .delayed, rule: Self.rule, delay: .seconds(120)))
        bank.advance(by: .seconds(300))
        #expect(Self.attempts(bank, 1) == ["+125 delayed 500", "+425 own 200"])
        #expect(bank.notification(id: 1)!.state == .delivered)
    }

    @Test func anOutOfOrderNotificationWaitsForTheNextOneOfItsPayout() throws {
        let receiver = Receiver()
        let bank = Self.bank(receiver) { $0 == .delivered ? ChaosPlan(shift: .hold(atMost: .seconds(600)), shiftRule: Self.rule, matched: [0]) : nil }
        try Self.create(bank)
        bank.advance(by: .seconds(5))
        #expect(receiver.log.isEmpty)
        #expect(bank.notification(id: 1)!.nextAttemptAt == Self.start.adding(.seconds(605)))
        bank.advance(by: .seconds(10))
        #expect(receiver.log == ["2", "1"])
        #expect(Self.attempts(bank, 1) == ["+15 out_of_order 200"])
        #expect(bank.notification(id: 1)!.attempts[0].chaos == ChaosMark(kind: .outOfOrder, rule: Self.rule, after: 2))
        #expect(bank.notification(id: 1)!.chaos?.releasedBy == 2)
        bank.advance(by: .seconds(3600))
        #expect(receiver.log == ["2", "1"])  // the bound's attempt is gone
    }

    @Test func anOutOfOrderNotificationWithNoLaterOneGoesAtItsBound() throws {
        let receiver = Receiver()
        let bank = Self.bank(receiver) { $0 == .completed ? ChaosPlan(shift: .hold(atMost: .seconds(600)), shiftRule: Self.rule, matched: [0]) : nil }
        try Self.create(bank)
        bank.advance(by: .seconds(614))
        #expect(receiver.log == ["1"])
        bank.advance(by: .seconds(1))
        #expect(Self.attempts(bank, 2) == ["+615 out_of_order 200"])
        #expect(bank.notification(id: 2)!.attempts[0].chaos == ChaosMark(kind: .outOfOrder, rule: Self.rule, delay: .seconds(600)))
    }

    @Test func aReplayFollowsTheDeliveryOfALaterNotificationAndNeverComesWithoutOne() throws {
        let receiver = Receiver(answers: [2: [500, 200]])
        let bank = Self.bank(receiver) { _ in Self.copy(.replay, after: .seconds(60)) }
        try Self.create(bank)
        bank.advance(by: .seconds(15))
        #expect(receiver.log == ["1", "2"])  // COMPLETED failed: not delivered yet
        bank.advance(by: .seconds(300))  // its retry succeeds at +315: the replay of DELIVERED a minute later
        #expect(receiver.log == ["1", "2", "2"])
        bank.advance(by: .seconds(60))
        #expect(Self.attempts(bank, 1) == ["+5 own 200", "+375 replay 200"])
        #expect(bank.notification(id: 1)!.attempts[1].chaos == ChaosMark(kind: .replay, rule: Self.rule, copy: 0, copyOf: 1, delay: .seconds(60),
                                                                         after: 2))
        bank.advance(by: .seconds(86400))
        #expect(Self.attempts(bank, 2) == ["+15 own 500", "+315 own 200"])  // the last notification has nothing later
    }

    @Test func copiesAddUpAndChaosIsDecidedOnceWithItsMatchesCounted() throws {
        let receiver = Receiver()
        let decided = Mutex<[[Int: Int]]>([])
        var configuration = Bank.Configuration()
        configuration.chaos = ChaosPolicy(identity: "test") { _, _, counts in
            decided.withLock { $0.append(counts) }
            return ChaosPlan(copies: [ChaosPlan.Copy(kind: .duplicate, after: .zero, rule: Self.rule),
                                      ChaosPlan.Copy(kind: .forged, after: .zero, rule: ChaosRule(index: 1, name: nil))], matched: [0, 1])
        }
        let bank = Bank(clock: VirtualClock(mode: .manual, start: Self.start), configuration: configuration, accounts: [Self.acme]) {
            receiver.deliver($0)
        }
        try Self.create(bank)
        bank.advance(by: .seconds(15))
        #expect(receiver.log == ["1", "1", "1F", "2", "2", "2F"])
        #expect(decided.withLock { $0 } == [[:], [0: 1, 1: 1]])
        // Another policy counts from zero; the same one goes on.
        bank.reconfigure { $0.chaos = configuration.chaos }
        #expect(bank.state.withLock { $0.chaosCounts } == [0: 2, 1: 2])
        bank.reconfigure { $0.chaos = ChaosPolicy(identity: "other") { _, _, _ in nil } }
        #expect(bank.state.withLock { $0.chaosCounts }.isEmpty)
    }

    @Test func aCopySentByHandIsManualAndLeavesTheNotificationAlone() throws {
        let receiver = Receiver(answers: [1: [500, 200]])
        let bank = Self.bank(receiver) { _ in nil }
        try Self.create(bank)
        bank.advance(by: .seconds(5))
        let forged = try #require(bank.sendChaos(notificationID: 1, kind: .forged))
        #expect(receiver.log == ["1", "1F"])
        #expect(forged.state == .pending && forged.nextAttemptAt == Self.start.adding(.seconds(305)))
        #expect(forged.attempts[1].manual && forged.attempts[1].chaos == ChaosMark(kind: .forged, rule: nil, copyOf: 1))
        bank.advance(by: .seconds(300))
        #expect(Self.attempts(bank, 1) == ["+5 own 500", "+5 forged 200", "+305 own 200"])
    }
}
