import CashoutSandbox
import SandboxBank
import SandboxHTTP
import SandboxObservability
import SandboxSupport

/// The clock waiting for the app under `test --serve` and `explore` (the Testing your app guide,
/// "Real time and virtual time"): an advance runs the bank's events one instant at a time and stops
/// until the app has had its turn.
///
/// - **Pushed**: a notification was sent to the app at the instant. The stop ends once the app has
///   been quiet for the quiet period since the instant ended, or sooner, once nothing is in flight
///   and the app has read each notified payout since its notification went out (a follow-up).
/// - **Polled**: a payout the app reads but is not notified of (it has no notification URL of the
///   app's, as every Mannco cashout) changed status, and the app has read it before. The clock
///   waits until the app has read it again: before the payout changes again, and before the
///   advance ends. Changes of several payouts the app polls are waited for together.
/// - **Owed**: a scenario's fault answered one of the app's requests instead of the API (a lost
///   answer, an error, a closed connection): the sandbox's own doing, which the app owes itself a
///   retry of. No instant passes, no step reads what the app did and the ledger is not read until
///   the app has had a real answer about what that request was about (the same request again, a
///   lookup by its reference, the create sent again), or has refused a notification of that payout
///   since (its retry is then the bank's redelivery, which needs the clock).
///
/// Each wait is bounded by the quiet limit (an owed retry's, from the last request a fault answered
/// about the same: a retry answered by a fault again was made); past it the clock moves on, and the
/// step notes it. Instants that concern none of these pass without a stop.
struct AppTurns {
    let sandbox: Sandbox
    let quietPeriod: Duration
    let quietLimit: Duration
    /// The request log id the app's requests were read up to.
    private var checked = 0
    /// The turn of the app's last read of each payout it read (``Sandbox/AppRequest``).
    private var lastRead: [Int: Int] = [:]
    /// The app's requests a fault answered, whose retry it owes itself, oldest first.
    private var owed: [Owed] = []
    /// The turn the app's refusals of notifications were read up to.
    private var refusalsChecked = 0
    /// What to note of the retries the app never made (their quiet limit passed).
    private var unpaid: [String] = []
    /// How many stops the clock made for a notification or a change of the app's.
    private(set) var stops = 0

    /// A request of the app's a fault answered, when the wait for its retry began (`AppActivity.now()`),
    /// and when the first of the retries a fault answered again was (its chain: bounded too).
    private struct Owed {
        let request: Sandbox.AppRequest
        let since: Int64
        let first: Int64

        /// Given up: no retry for the quiet limit since the last, or its chain went on three times that.
        func isGivenUp(at now: Int64, limit: Int64) -> Bool { now - since >= limit || now - first >= 3 * limit }
    }

    init(sandbox: Sandbox, quietPeriod: Duration, quietLimit: Duration) {
        self.sandbox = sandbox
        self.quietPeriod = quietPeriod
        self.quietLimit = quietLimit
    }

    /// Moves the clock to `target` (nil: to the next event, and what is due then), stopping for the
    /// app as it goes; what to note when the app kept the clock waiting for the whole quiet limit,
    /// nil otherwise.
    mutating func advance(to target: VirtualTime?) -> String? {
        let bank = sandbox.bank
        var note: String?
        // The payouts the app polls that changed since it last read them, each with the turn after its change.
        var unread: [Int: Int] = [:]
        func wait(_ pushes: [AppActivity.Push]?) {
            if let missed = stop(pushes: pushes, changed: unread) { note = note ?? missed }
            unread = [:]
        }
        while let next = bank.nextEventAt, next <= (target ?? next) {
            readWhatCame()
            unread = unread.filter { lastRead[$0.key, default: 0] <= $0.value }
            // A payout the app has not read since it changed is read before it changes again.
            if unread.keys.contains(where: { bank.scheduledSteps(payoutID: $0).first.map { $0.at <= next } ?? false }) { wait([]) }
            if !owed.isEmpty, let missed = stop(pushes: [], changed: [:], counted: false) { note = note ?? missed }
            // What the instant may concern: the payouts the app reads and is not notified of.
            let polled = lastRead.keys.compactMap { id in bank.payout(id: id) }.filter { !sandbox.notifiesApp($0) }
            let before = (turn: sandbox.activity.turn, deliveries: sandbox.activity.deliveriesBegun,
                          changes: Dictionary(uniqueKeysWithValues: polled.map { ($0.id, $0.history.count) }))
            bank.advance(to: next)
            let after = sandbox.activity.turn
            for payout in polled where (bank.payout(id: payout.id)?.history.count ?? 0) > before.changes[payout.id, default: 0] {
                unread[payout.id] = after
            }
            if sandbox.activity.deliveriesBegun != before.deliveries {
                wait(sandbox.activity.pushes(after: before.turn, count: before.deliveries))
            }
            if target == nil { break }
        }
        if let target {
            readWhatCame()
            if !owed.isEmpty, let missed = stop(pushes: [], changed: [:], counted: false) { note = note ?? missed }
            bank.advance(to: target)
        }
        if !unread.isEmpty { wait([]) }
        return note
    }

    /// Waits until the app owes itself no retry and has been quiet for the quiet period: before a
    /// step that moves the clock or reads what the app did, and before its ledger is read. Whether
    /// the app was still busy at the quiet limit.
    mutating func settle() -> Bool {
        let activity = sandbox.activity
        let deadline = AppActivity.now() + AppActivity.nanoseconds(quietLimit)
        let record = StopRecord(sandbox, waitedFor: "the app to go quiet", payouts: [])
        let unpaidBefore = unpaid.count
        var retried: (text: String, payouts: [Int])?
        while true {
            readWhatCame()
            if retried == nil, !owed.isEmpty { retried = (retries, owedPayouts) }
            let now = AppActivity.now()
            payOff(now)
            // A retry owed waits out its own limit, counted from when it was owed (past the step's).
            if !owed.isEmpty {
                OSThread.sleep(nanoseconds: 10_000_000)
                continue
            }
            guard let left = activity.quietLeft(for: quietPeriod, since: 0, now: now) else {
                record.end(unpaid.count > unpaidBefore ? .limit : .quiet, retries: retried)
                return false
            }
            guard now < deadline else {
                record.end(.limit, retries: retried)
                return true
            }
            OSThread.sleep(nanoseconds: max(min(left, deadline - now), 1_000_000))
        }
    }

    /// A stop of the clock as the timeline shows it (``TimelineRecorder/Stop``): begun when made, kept when it ends.
    private struct StopRecord {
        let sandbox: Sandbox
        let began = VirtualClock.wallMilliseconds()
        let turn: Int
        let at: VirtualTime
        let waitedFor: String
        let payouts: [Int]

        init(_ sandbox: Sandbox, waitedFor: String, payouts: [Int]) {
            self.sandbox = sandbox
            turn = sandbox.activity.turn
            at = sandbox.bank.clock.now
            self.waitedFor = waitedFor
            self.payouts = payouts
        }

        /// Keeps it, ended so; `retries`: what the app came to owe while it lasted, which it waited for too.
        func end(_ ending: TimelineRecorder.Stop.Ending, retries: (text: String, payouts: [Int])? = nil) {
            let waited = retries.map { waitedFor.contains($0.text) ? waitedFor : "\(waitedFor); then for \($0.text)" } ?? waitedFor
            sandbox.timelines.record(TimelineRecorder.Stop(began: began, turn: turn, at: at, waitedFor: waited,
                                                           payouts: Array(Set(payouts + (retries?.payouts ?? []))).sorted(), ended: ending,
                                                           lasted: VirtualClock.wallMilliseconds() - began))
        }
    }

    /// The payouts of the retries owed.
    private var owedPayouts: [Int] { Array(Set(owed.flatMap(\.request.payoutIDs))).sorted() }

    /// `the app's retry of POST /v3/cashout/status, answered by an injected fault`: what the retries owed wait for.
    private var retries: String {
        let names = Array(Set(owed.map(\.request.name))).sorted().joined(separator: ", ")
        return "the app's retry of \(names), answered by an injected fault"
    }

    /// What to note of the retries the app did not make within the quiet limit since the last look.
    mutating func takeUnpaid() -> [String] {
        defer { unpaid = [] }
        return unpaid
    }

    /// Waits until the app has had its turn: owing itself no retry, having read each payout in
    /// `changed` since the turn given with it and, when a notification went to it (`pushes` not
    /// empty; nil: more than are kept), quiet for the quiet period since now, or with nothing in
    /// flight and each payout in `pushes` read since its delivery began. What to note when the
    /// quiet limit came first. `counted`: a stop for a notification or a change (JUnit's `clock_stops`).
    private mutating func stop(pushes: [AppActivity.Push]?, changed: [Int: Int], counted: Bool = true) -> String? {
        if counted { stops += 1 }
        let activity = sandbox.activity
        let started = AppActivity.now()
        let deadline = started + AppActivity.nanoseconds(quietLimit)
        let record = StopRecord(sandbox, waitedFor: waitedFor(pushes: pushes, changed: changed),
                                payouts: Array(Set((pushes ?? []).map(\.payoutID) + changed.keys + owedPayouts)).sorted())
        let unpaidBefore = unpaid.count
        var retried: (text: String, payouts: [Int])?
        while true {
            readWhatCame()
            if retried == nil, !owed.isEmpty { retried = (retries, owedPayouts) }
            let now = AppActivity.now()
            payOff(now)
            let unread = changed.filter { lastRead[$0.key, default: 0] <= $0.value }.keys.sorted()
            var nap: Int64? = unread.isEmpty ? nil : 10_000_000
            var ending = TimelineRecorder.Stop.Ending.answered
            if pushes?.isEmpty != true {
                let followedUp = activity.inFlight == 0 && pushes.map { $0.allSatisfy { lastRead[$0.payoutID, default: 0] > $0.turn } } == true
                if !followedUp {
                    if let left = activity.quietLeft(for: quietPeriod, since: started, now: now) {
                        nap = min(nap ?? left, left)
                    } else {
                        ending = .quiet
                    }
                }
            }
            // A retry owed waits out its own limit, counted from when it was owed: while one is,
            // the app is not late for the rest (the retry it owes is its follow-up).
            if !owed.isEmpty { nap = min(nap ?? 10_000_000, 10_000_000) }
            guard let nap else {
                record.end(unpaid.count > unpaidBefore ? .limit : ending, retries: retried)
                return nil
            }
            guard now < deadline || !owed.isEmpty else {
                record.end(.limit, retries: retried)
                let limit = DurationText.format(quietLimit)
                guard !unread.isEmpty else { return "the app was still busy after \(limit); the clock moved anyway" }
                return "the app had not read cashout\(unread.count == 1 ? "" : "s") \(unread.map(String.init).joined(separator: ", ")) "
                    + "since \(unread.count == 1 ? "it" : "they") changed, after \(limit); the clock moved anyway"
            }
            OSThread.sleep(nanoseconds: max(min(nap, max(deadline - now, 10_000_000)), 1_000_000))
        }
    }

    /// What a stop waits for, in words: the app's turn after notifications, its read of payouts it polls, its retries owed.
    private func waitedFor(pushes: [AppActivity.Push]?, changed: [Int: Int]) -> String {
        /// `cashout 1000001`, `cashouts 1000001, 1000002`, `cashouts 1000001, 1000002 and 4 more`.
        func cashouts(_ ids: [Int]) -> String {
            let listed = ids.sorted().prefix(2).map(String.init).joined(separator: ", ")
            return "cashout\(ids.count == 1 ? "" : "s") \(listed)" + (ids.count > 2 ? " and \(ids.count - 2) more" : "")
        }
        var what: [String] = []
        if let pushes, !pushes.isEmpty {
            what.append("the app's follow-up of the notifications of \(cashouts(Array(Set(pushes.map(\.payoutID)))))")
        } else if pushes == nil {
            what.append("the app's follow-up of notifications")
        }
        if !changed.isEmpty { what.append("the app to read \(cashouts(Array(changed.keys))) again, which it polls, after a change") }
        if !owed.isEmpty { what.append(retries) }
        return what.isEmpty ? "the app" : what.joined(separator: "; ")
    }

    /// Takes in the app's requests logged since the last look, and its refusals of notifications:
    /// what it read, the retries it came to owe, and those it made.
    private mutating func readWhatCame() {
        let (requests, newest) = sandbox.appRequests(after: checked)
        checked = newest
        for request in requests {
            for id in request.read { lastRead[id] = max(lastRead[id, default: 0], request.turn) }
            if request.fault != nil {
                guard request.concernsPayouts else { continue }
                // A retry a fault answered again: the app did retry, and is owed from now, in the same chain.
                let now = AppActivity.now()
                let retried = owed.filter { $0.request.turn < request.turn && !$0.request.about.isDisjoint(with: request.about) }
                owed.removeAll { $0.request.turn < request.turn && !$0.request.about.isDisjoint(with: request.about) }
                owed.append(Owed(request: request, since: now, first: retried.map(\.first).min() ?? now))
            } else {
                // A real answer about the same, to a request that began after the one it answers for.
                owed.removeAll { $0.request.turn < request.turn && !$0.request.about.isDisjoint(with: request.about) }
            }
        }
        guard !owed.isEmpty else { return }
        let refusals = sandbox.activity.refusals(after: refusalsChecked)
        refusalsChecked = refusals.last?.turn ?? refusalsChecked
        for refusal in refusals {
            owed.removeAll { $0.request.turn < refusal.turn && $0.request.about.contains(Sandbox.AppRequest.about(payoutID: refusal.payoutID)) }
        }
    }

    /// Gives up the retries owed past the quiet limit, each noted.
    private mutating func payOff(_ now: Int64) {
        let limit = AppActivity.nanoseconds(quietLimit)
        for debt in owed where debt.isGivenUp(at: now, limit: limit) {
            let request = debt.request
            let subject = request.payoutIDs.isEmpty ? "a create of \(request.amount ?? "")"
                : "cashout\(request.payoutIDs.count == 1 ? "" : "s") \(request.payoutIDs.map(String.init).joined(separator: ", "))"
            let retried = debt.first < debt.since
            unpaid.append("\(subject): \(request.name) was answered by an injected fault (\(request.fault ?? "")), and the app had no "
                          + "real answer about it within \(DurationText.format(retried ? quietLimit * 3 : quietLimit)) "
                          + "(\(retried ? "its retries were answered by injected faults too" : "no retry")); the clock moved anyway")
        }
        owed.removeAll { $0.isGivenUp(at: now, limit: limit) }
    }
}
