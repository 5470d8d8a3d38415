@testable import CashoutSandbox
@testable import SandboxContract
@testable import SandboxWire
@testable import SandboxRunner
import Testing

/// What pays off a request a fault answered (`OwedRequests`, the Testing your app guide's "App
/// shapes and what the clock waits for"): that request's retry, whichever thread sent what first;
/// never another operation's answer about the same payout, nor a request in flight beside it.
@Suite struct OwedRequestsTests {
    /// A request of the app's to D24, `turn` as it began, answered at `turn + 1` unless said.
    static func request(_ name: String, turn: Int, answered: Int? = nil, role: RequestFacts.Action = .statusQuery, reference: String? = nil,
                        content: String? = nil, payouts: [Int] = [], read: [Int]? = nil, listing: Bool = false, fault: FaultKind? = nil,
                        account: String = "d24 sandbox_login") -> Sandbox.AppRequest {
        Sandbox.AppRequest(turn: turn, answeredTurn: answered ?? turn + 1, receivedAt: 0, name: name, account: account, role: role,
                           reference: reference, content: content, amount: content.map { String($0.split(separator: " ").last ?? "") },
                           payoutIDs: payouts, read: read ?? (fault == nil ? payouts : []), meantToRead: fault == nil ? [] : payouts,
                           isListing: listing, fault: fault, succeeded: fault == nil)
    }

    static let create = "POST /v3/cashout", status = "POST /v3/cashout/status", history = "GET /user/getCashoutHistory"

    /// The create of 109.00 to `reference`, which made cashout 1000009 unless `payouts` says.
    static func create(turn: Int, answered: Int? = nil, reference: String = "order-109", amount: String = "109.00", payouts: [Int] = [1000009],
                       fault: FaultKind? = nil) -> Sandbox.AppRequest {
        request(create, turn: turn, answered: answered, role: .create(beneficiary: "BR/1/001/2", amount: amount), reference: reference,
                content: "BR/1/001/2 \(amount)", payouts: payouts, read: fault == nil ? payouts : [], fault: fault)
    }

    /// The debts left after `requests`, in order; `notifications`: the turns a notification of cashout 1000009 went to the app.
    static func owed(after requests: [Sandbox.AppRequest], notifications: [Int] = []) -> [Int] {
        var owed = OwedRequests()
        for request in requests {
            owed.take(request, now: 0) { payouts, after, before in
                payouts.contains(1000009) && notifications.contains { $0 > after && $0 < before }
            }
        }
        return owed.debts.map(\.request.turn)
    }

    @Test func aLostCreateIsOwedUntilItIsSentAgain() {
        let lost = Self.create(turn: 3, answered: 4, fault: .dropAfterCommit)
        #expect(Self.owed(after: [lost]) == [3])
        // The same reference again (D24 answers 412, code 511: a real answer).
        #expect(Self.owed(after: [lost, Self.create(turn: 5, payouts: [1000009])]).isEmpty)
        // A new reference for the same beneficiary and amount: a retry (the report calls it a duplicate).
        #expect(Self.owed(after: [lost, Self.create(turn: 5, reference: "order-109-retry", payouts: [1000010])]).isEmpty)
    }

    /// A create whose answer a `truncate` fault cut off is a lost answer as a `drop_after_commit`'s is (the app read
    /// no whole answer, though the payout was made): owed until it is sent again or looked up by its reference.
    @Test func aCreateCutOffIsOwedAsALostOneIs() {
        let cut = Self.create(turn: 3, answered: 4, fault: .truncate)
        #expect(Self.owed(after: [cut]) == [3])
        #expect(Self.owed(after: [cut, Self.create(turn: 5, payouts: [1000009])]).isEmpty)
        #expect(Self.owed(after: [cut, Self.request(Self.status, turn: 8, reference: "order-109", payouts: [1000009])]).isEmpty)
    }

    /// Nine creates at once: those answered after the lost one, of other amounts or begun before its
    /// answer, are not its retry, whatever order the workers sent them in.
    @Test func theCreatesBesideALostOneAreNotItsRetry() {
        let lost = Self.create(turn: 3, answered: 4, fault: .dropAfterCommit)
        let others = (5 ... 9).map { Self.create(turn: $0, reference: "order-10\($0 - 4)", amount: "10\($0 - 4).00", payouts: [1000000 + $0]) }
        #expect(Self.owed(after: [lost] + others) == [3])
        // Begun before its answer came: in flight beside it, however it is worded.
        #expect(Self.owed(after: [lost, Self.create(turn: 4, answered: 9, payouts: [1000009])]) == [3])
        #expect(Self.owed(after: [Self.create(turn: 2, answered: 6, payouts: [1000009]), lost]) == [3])
    }

    /// A status query by the app's own reference is a lookup, before the app was notified of the
    /// payout; after a notification, it may be that notification's follow-up, and pays nothing off.
    @Test func aLookupByTheReferencePaysOffALostCreateUntilTheAppIsNotified() {
        let lost = Self.create(turn: 3, answered: 4, fault: .dropAfterCommit)
        let lookup = Self.request(Self.status, turn: 8, reference: "order-109", payouts: [1000009])
        #expect(Self.owed(after: [lost, lookup]).isEmpty)
        #expect(Self.owed(after: [lost, lookup], notifications: [6]) == [3])
        // By the sandbox's id, learnt from a notification: the notification's follow-up.
        #expect(Self.owed(after: [lost, Self.request(Self.status, turn: 8, payouts: [1000009])], notifications: [6]) == [3])
        // Of another payout: nothing to do with it.
        #expect(Self.owed(after: [lost, Self.request(Self.status, turn: 8, reference: "order-108", payouts: [1000008])]) == [3])
    }

    /// A follow-up whose answer was lost is owed until the same payout is asked again, or the app
    /// refuses that payout's notification (the bank sends it again).
    @Test func aLostFollowUpIsOwedUntilThatPayoutIsAskedAgain() {
        let lost = Self.request(Self.status, turn: 10, payouts: [1000009], fault: .dropAfterCommit)
        #expect(Self.owed(after: [lost, Self.request(Self.status, turn: 12, payouts: [1000008])]) == [10])
        #expect(Self.owed(after: [lost, Self.request(Self.status, turn: 12, reference: "order-109", payouts: [1000009])]).isEmpty)
        var owed = OwedRequests()
        owed.take(lost, now: 0) { _, _, _ in false }
        owed.refused(payoutID: 1000008, turn: 12)
        #expect(owed.debts.count == 1)
        owed.refused(payoutID: 1000009, turn: 12)
        #expect(owed.isEmpty)
    }

    /// A refused notification is no retry of a lost create: the app may refuse it for not knowing the payout yet.
    @Test func aRefusedNotificationPaysNoCreateOff() {
        var owed = OwedRequests()
        owed.take(Self.create(turn: 3, answered: 4, fault: .dropAfterCommit), now: 0) { _, _, _ in false }
        owed.refused(payoutID: 1000009, turn: 9)
        #expect(owed.debts.count == 1)
    }

    /// A poller's read a fault answered is owed until its next read of the same account; a Mannco
    /// create whose answer was lost, until the account's history is read (its lookup: Mannco's
    /// creates carry no reference) or it is sent again.
    @Test func aPollersFaultedReadIsOwedUntilItsNextRead() {
        let user = "mannco 76561198000000101"
        let read = Self.request(Self.history, turn: 20, listing: true, fault: .error, account: user)
        #expect(Self.owed(after: [read, Self.request(Self.history, turn: 22, listing: true, account: "mannco 76561198000000102")]) == [20])
        #expect(Self.owed(after: [read, Self.request(Self.history, turn: 22, read: [1000003], listing: true, account: user)]).isEmpty)
        let lost = Self.request("POST /cashout/process", turn: 3, answered: 4, role: .create(beneficiary: "payoneer/", amount: "10900"),
                                content: "payoneer/ 10900", fault: .dropAfterCommit, account: user)
        #expect(Self.owed(after: [lost, Self.request(Self.history, turn: 6, read: [1000001], listing: true, account: user)]).isEmpty)
    }

    /// A retry a fault answered again is owed in the first one's place, its chain kept.
    @Test func aRetryAnsweredByAFaultAgainTakesThePlaceOfTheFirst() {
        var owed = OwedRequests()
        owed.take(Self.request(Self.status, turn: 10, payouts: [1000009], fault: .error), now: 5) { _, _, _ in false }
        owed.take(Self.request(Self.status, turn: 12, payouts: [1000009], fault: .close), now: 9) { _, _, _ in false }
        #expect(owed.debts.map(\.request.turn) == [12])
        #expect(owed.debts.map(\.first) == [5])
        #expect(owed.giveUp(at: 9 + 999_999_999, limit: .seconds(1), cap: 9).isEmpty)
        #expect(owed.giveUp(at: 9 + 1_000_000_000, limit: .seconds(1), cap: 9)
            == ["cashout 1000009: POST /v3/cashout/status was answered by an injected fault (close), and the app had no real answer about "
                + "it within --quiet-limit 1s (since its last retry, which an injected fault answered too); the run went on anyway"])
        #expect(owed.isEmpty)
    }

    /// A request a `rate_limit` fault answered asked the app to wait (`Retry-After`): it may not retry sooner, so the
    /// wait for its retry is not given up until that wait and the quiet limit have both passed.
    @Test func aRetryAfterLengthensTheWaitForTheRetry() {
        var owed = OwedRequests()
        var limited = Self.request(Self.status, turn: 3, payouts: [1000009], fault: .rateLimit)
        limited.retryAfter = .seconds(30)
        owed.take(limited, now: 0) { _, _, _ in false }
        #expect(owed.giveUp(at: 39_999_999_999, limit: .seconds(10), cap: 0).isEmpty)  // 10 s past the quiet limit alone
        #expect(owed.giveUp(at: 40_000_000_000, limit: .seconds(10), cap: 0).count == 1)
        #expect(owed.isEmpty)
    }
}
