import CashoutSandbox
import SandboxBank
import SandboxContract
import SandboxWire

/// The requests of the app's that a scenario's fault answered instead of the API, each leaving the
/// app owing itself **that request's** retry (the Testing your app guide, "App shapes and what the
/// clock waits for"): the sandbox's own doing, so no judgement the retry could change closes until
/// it comes (``AppTurns``).
///
/// What pays a debt off is a request that began after the fault's answer (its turn is greater than
/// the faulted request's `answeredTurn`: a request in flight beside it cannot be its retry, whatever
/// the app's threads did), of the same API account, and answered by the API:
/// - the same operation about the same: a create of the same reference or the same content (a new
///   reference for the same beneficiary and amount is a retry too, and the report's
///   `duplicate_after_lost_response`); a request about the same payout; a listing of the same
///   account; a login or any other call of the same account;
/// - for a create or a status query, a lookup: a status query answered 2xx by the app's own
///   reference, or a listing that shows the payout (for an API whose creates carry no reference:
///   any listing of the account), made before a notification of that payout went to the app since
///   the fault; after one, a status query may be that notification's follow-up, which pays
///   nothing off;
/// - for a request about a payout that is not a create: the app's refusal of a notification of that
///   payout since (its retry is then the bank's redelivery, which needs the clock).
///
/// An answer a `truncate` fault cut off is answered by a fault too: the app read no whole answer,
/// and owes the same retry or lookup as after a `drop_after_commit` (the request log's exchange
/// counts it as lost, `LoggedExchange.dropped`, so it never reads as succeeded).
///
/// A retry the fault answers again is a debt in its place, in the same chain. A debt is given up,
/// with a note, when no retry came for the quiet limit since the last, its chain went on three
/// times that, or the wait for it did; and forgiven when the app says it has no work pending
/// (``AppSettled``).
struct OwedRequests {
    /// A request a fault answered, when the wait for its retry began (`AppActivity.now()`), and when
    /// the first of the chain of retries a fault answered again was.
    struct Debt {
        let request: Sandbox.AppRequest
        let since: Int64
        let first: Int64

        /// The wait its answer asked for before a retry (`Retry-After`), in nanoseconds: the app may not retry sooner,
        /// so each bound on the wait for it is that much longer.
        var asked: Int64 { request.retryAfter.map(AppActivity.nanoseconds) ?? 0 }

        /// Given up: no retry for `limit` (after the wait its answer asked for) since the last, or its chain went on
        /// three times that.
        func isGivenUp(at now: Int64, limit: Int64) -> Bool { now - since >= limit + asked || now - first >= 3 * limit + asked }
    }

    private(set) var debts: [Debt] = []

    var isEmpty: Bool { debts.isEmpty }

    /// The payouts the debts are about.
    var payouts: [Int] { Array(Set(debts.flatMap(\.request.payoutIDs))).sorted() }

    /// `the app's retry of POST /v3/cashout/status, answered by an injected fault`: what the debts wait for.
    var waitedFor: String {
        let names = Array(Set(debts.map(\.request.name))).sorted().joined(separator: ", ")
        return "the app's retry of \(names), answered by an injected fault"
    }

    /// Takes in one of the app's requests, at `now`; `notified(payouts, after, before)`: whether a
    /// notification of one of `payouts` went to the app at a turn between the two.
    mutating func take(_ request: Sandbox.AppRequest, now: Int64, notified: (_ payouts: [Int], _ after: Int, _ before: Int) -> Bool) {
        if request.fault != nil {
            // A retry a fault answered again: the app did retry, and owes it from now, in the same chain.
            let chain = debts.filter { Self.isRetry(request, of: $0.request, notified: notified, answered: false) }
            debts.removeAll { Self.isRetry(request, of: $0.request, notified: notified, answered: false) }
            debts.append(Debt(request: request, since: now, first: chain.map(\.first).min() ?? now))
        } else {
            debts.removeAll { Self.isRetry(request, of: $0.request, notified: notified, answered: true) }
        }
    }

    /// The app refused a notification of `payoutID` at `turn`: a request about that payout (not a
    /// create) it owes is the bank's to send again.
    mutating func refused(payoutID: Int, turn: Int) {
        debts.removeAll { !$0.request.isCreate && $0.request.answeredTurn < turn && $0.request.payoutIDs.contains(payoutID) }
    }

    /// Gives up the debts past `limit` at `now`, and every one once a wait that began at `cap` has lasted three times the
    /// limit (the app may owe retries one after another for ever): what to note of each.
    mutating func giveUp(at now: Int64, limit: Duration, cap began: Int64) -> [String] {
        let nanoseconds = AppActivity.nanoseconds(limit)
        let capped = now - began >= 3 * nanoseconds + (debts.map(\.asked).max() ?? 0)
        let given = debts.filter { capped || $0.isGivenUp(at: now, limit: nanoseconds) }
        debts.removeAll { capped || $0.isGivenUp(at: now, limit: nanoseconds) }
        return given.map { debt in
            let request = debt.request
            let within = if now - debt.first >= 3 * nanoseconds {
                "\(DurationText.format(limit * 3)) (3 × --quiet-limit \(DurationText.format(limit))), its retries answered by injected faults too"
            } else if capped {
                "the wait's 3 × --quiet-limit \(DurationText.format(limit)), the app owing retries one after another"
            } else {
                "--quiet-limit \(DurationText.format(limit)) (" + (debt.first < debt.since ? "since its last retry, which an injected fault "
                    + "answered too" : "no retry") + ")"
            }
            return "\(Self.subject(of: request)): \(request.name) was answered by an injected fault (\(request.fault?.rawValue ?? "")), and the app "
                + "had no real answer about it within \(within); the run went on anyway"
        }
    }

    /// Forgets every debt: the app said it has no work pending (``AppSettled``).
    mutating func forgive() {
        debts = []
    }

    /// `cashout 1000009`, `a create of 109.00`, `account mannco 76561198000000101`: what a note says a request was about.
    static func subject(of request: Sandbox.AppRequest) -> String {
        if !request.payoutIDs.isEmpty {
            return "cashout\(request.payoutIDs.count == 1 ? "" : "s") \(request.payoutIDs.map(String.init).joined(separator: ", "))"
        }
        if let amount = request.amount { return "a create of \(amount)" }
        return "account \(request.account)"
    }

    /// Whether `request` is a retry of `owed` (the rules above); `answered`: it has the API's answer
    /// (a lookup counts only then).
    static func isRetry(_ request: Sandbox.AppRequest, of owed: Sandbox.AppRequest,
                        notified: (_ payouts: [Int], _ after: Int, _ before: Int) -> Bool, answered: Bool) -> Bool {
        guard request.turn > owed.answeredTurn, request.account == owed.account else { return false }
        if request.name == owed.name, isSameSubject(request, owed) { return true }
        // A lookup of a create or a status query: answered 2xx by the app's reference, or a listing that shows the payout
        // (for an API whose creates carry no reference, any listing of the account).
        guard answered, owed.isCreate || owed.role == .statusQuery, request.role == .statusQuery, request.succeeded else { return false }
        let byReference = owed.reference != nil && request.reference == owed.reference
        let showing = request.isListing && !Set(request.read).isDisjoint(with: owed.payoutIDs)
        let listing = request.isListing && owed.reference == nil && owed.isCreate
        guard byReference || showing || listing else { return false }
        return owed.payoutIDs.isEmpty || !notified(owed.payoutIDs, owed.answeredTurn, request.turn)
    }

    /// The same operation's subject: a create's reference or content, a payout, a listing's account.
    private static func isSameSubject(_ request: Sandbox.AppRequest, _ owed: Sandbox.AppRequest) -> Bool {
        if owed.isCreate {
            return (owed.reference != nil && request.reference == owed.reference) || (owed.content != nil && request.content == owed.content)
        }
        if owed.isListing { return request.isListing }
        if !owed.payoutIDs.isEmpty { return !Set(request.payoutIDs).isDisjoint(with: owed.payoutIDs) }
        if let reference = owed.reference { return request.reference == reference }
        return true
    }
}
