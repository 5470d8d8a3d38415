import CashoutSandbox
import SandboxBank
import SandboxWire
import SandboxSupport

/// The clock waiting for the app under `test --serve` and `explore` (the Testing your app guide,
/// "App shapes and what the clock waits for"): an advance runs the bank's events one instant at a
/// time and stops until the app has had its turn.
///
/// - **Pushed**: a notification was sent to the app at the instant. The stop ends once the app has
///   been quiet for the quiet period since the instant ended, or sooner, once nothing is in flight
///   and the app has read each notified payout since its notification went out (a follow-up).
/// - **Polled**: a payout the app reads but is not notified of (it has no notification URL of the
///   app's, as every Mannco cashout) changed status, and the app has read it before. The clock
///   waits until the app has read it again: before the payout changes again, and before the
///   advance ends. Changes of several payouts the app polls are waited for together. A read a fault
///   answered was a read all the same: the wait for the next is bounded from it.
/// - **Owed**: a scenario's fault answered one of the app's requests instead of the API: the
///   sandbox's own doing, which leaves the app owing itself that request's retry
///   (``OwedRequests``). No instant passes, no step reads what the app did or the bank holds, and
///   the ledger is not read until it comes.
/// - **Settled**: where the app says whether it has work pending (``AppSettled``), the stops for it
///   (pushed, owed, before a step) end when it says 0, with no real-time guess; a polled payout's
///   read is still waited for, which the app cannot know it owes.
///
/// Each wait is bounded by the quiet limit (an owed retry's, from the last request a fault answered
/// about the same); past it the clock moves on, and the step notes it. Instants that concern none of
/// these pass without a stop.
struct AppTurns {
    let sandbox: Sandbox
    let quietPeriod: Duration
    let quietLimit: Duration
    /// The app's word on its pending work, where it offers one.
    private var settled: AppSettled?
    /// The request log id the app's requests were read up to.
    private var checked = 0
    /// The turn of the app's last read of each payout it read (``Sandbox/AppRequest``).
    private var lastRead: [Int: Int] = [:]
    /// When a fault last answered a read of each payout (`AppActivity.now()`).
    private var faultedRead: [Int: Int64] = [:]
    /// The app's requests a fault answered, whose retry it owes itself.
    private var owed = OwedRequests()
    /// How many of the app's refusals of notifications, and of the notifications to it, were read.
    private var refusalsChecked = 0
    private var pushesChecked = 0
    /// The turns of the notifications that went to the app, by payout.
    private var notified: [Int: [Int]] = [:]
    /// The payouts whose notifications a stop gave up waiting on after the quiet period, each with
    /// the turn of its notification and when (wall-clock milliseconds) the stop began: a follow-up
    /// that comes later is noted as late.
    private var quietEnded: [Int: (turn: Int, began: Int64)] = [:]
    /// The follow-ups that came after the stop for their notification ended by the quiet period:
    /// how long after (milliseconds), by payout.
    private var lateFollowUps: [Int: Int64] = [:]
    /// What to note: retries the app never made (their quiet limit passed).
    private var notes: [String] = []
    /// How many stops the clock made for a notification or a change of the app's.
    private(set) var stops = 0

    /// `settledURL`: the app's `app.settled`, `${NAME}` expanded, asked through `answers`; nil when it offers none.
    init(sandbox: Sandbox, quietPeriod: Duration, quietLimit: Duration, settledURL: String? = nil, answers: (any AppAnswers)? = nil) {
        self.sandbox = sandbox
        self.quietPeriod = quietPeriod
        self.quietLimit = quietLimit
        settled = settledURL.map { AppSettled(url: $0, answers: answers ?? AppOverHTTP(sandbox: sandbox)) }
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

    /// Waits until the app owes itself no retry and has been quiet for the quiet period, or, where it
    /// offers `app.settled`, says it has no work pending: before a step that moves the clock or reads
    /// what the app did (`quiet`), and before its ledger is read; before a step that reads the bank
    /// (not `quiet`), only for the retries owed and the app's word. Why the app was not done at the
    /// quiet limit (`was still busy`), nil when it was.
    mutating func settle(quiet: Bool = true) -> String? {
        let activity = sandbox.activity
        let started = AppActivity.now()
        let limit = AppActivity.nanoseconds(quietLimit)
        readWhatCame()
        guard quiet || !owed.isEmpty || settled != nil else { return nil }
        let record = StopRecord(sandbox, waitedFor: "the app to go quiet", payouts: [])
        let notesBefore = notes.count
        var retried: (text: String, payouts: [Int])?
        // The last moment a retry was owed: the quiet limit of the rest counts from it too.
        var owedUntil = started
        settled?.beginWait()
        while true {
            readWhatCame()
            if retried == nil, !owed.isEmpty { retried = (owed.waitedFor, owed.payouts) }
            let now = AppActivity.now()
            notes += owed.giveUp(at: now, limit: quietLimit, cap: started)
            if !owed.isEmpty { owedUntil = now }
            // A retry owed waits out its own limit; the rest, the quiet limit since the wait began or a retry was last owed.
            let overdue = owed.isEmpty && now >= min(max(started, owedUntil) + limit, started + 3 * limit)
            var nap: Int64 = 10_000_000, done = false, ending = TimelineRecorder.Stop.Ending.quiet
            switch settled?.word(activity, now: now) ?? .notOffered {
            case .pending(0):
                owed.forgive()
                (done, ending) = (true, .settled)
            case .pending(let pending):
                if overdue {
                    record.end(.limit, retries: retried)
                    return "still said it had \(pending) pending (app.settled)"
                }
            case .busy:
                if overdue {
                    record.end(.limit, retries: retried)
                    return "was still busy"
                }
            case .notOffered:
                if owed.isEmpty {
                    if quiet, let left = activity.quietLeft(for: quietPeriod, since: 0, now: now) {
                        if overdue {
                            record.end(.limit, retries: retried)
                            return "was still busy"
                        }
                        nap = max(min(left, 10_000_000), 1_000_000)
                    } else {
                        done = true
                    }
                }
            }
            // Done, unless what ended meanwhile was answered by a fault (a retry owed now).
            if done {
                readWhatCame()
                if owed.isEmpty {
                    record.end(notes.count > notesBefore ? .limit : ending, retries: retried)
                    return nil
                }
            }
            OSThread.sleep(nanoseconds: nap)
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

    /// What to note since the last look: the retries the app did not make within the quiet limit,
    /// an `app.settled` not in its form.
    mutating func takeNotes() -> [String] {
        if let unreadable = settled?.takeUnreadable() { notes.append(unreadable) }
        defer { notes = [] }
        return notes
    }

    /// What to note of the follow-ups of `payouts` (those a failure names) that came after the clock
    /// had moved on: the knob that would have waited for them.
    func lateFollowUpNotes(of payouts: Set<Int>) -> [String] {
        lateFollowUps.filter { payouts.contains($0.key) }.sorted { $0.key < $1.key }.map { id, after in
            "cashout \(id): the app's follow-up came \(after) ms after the clock stopped for its notification; --quiet-period is "
                + "\(DurationText.format(quietPeriod)), so the clock had moved on and the follow-up was judged late "
                + "(a longer --quiet-period, or app.settled, waits for it)"
        }
    }

    /// Waits until the app has had its turn: owing itself no retry, having read each payout in
    /// `changed` since the turn given with it and, when a notification went to it (`pushes` not
    /// empty; nil: more than are kept), saying it is settled, else quiet for the quiet period since
    /// now, or with nothing in flight and each payout in `pushes` read since its delivery began. What
    /// to note when the quiet limit came first. `counted`: a stop for a notification or a change
    /// (JUnit's `clock_stops`).
    private mutating func stop(pushes: [AppActivity.Push]?, changed: [Int: Int], counted: Bool = true) -> String? {
        if counted { stops += 1 }
        let activity = sandbox.activity
        let started = AppActivity.now()
        let limit = AppActivity.nanoseconds(quietLimit)
        let record = StopRecord(sandbox, waitedFor: waitedFor(pushes: pushes, changed: changed),
                                payouts: Array(Set((pushes ?? []).map(\.payoutID) + changed.keys + owed.payouts)).sorted())
        let notesBefore = notes.count
        var retried: (text: String, payouts: [Int])?
        // The last moment a retry was owed: the quiet limit of the rest counts from it too.
        var owedUntil = started
        settled?.beginWait()
        while true {
            readWhatCame()
            if retried == nil, !owed.isEmpty { retried = (owed.waitedFor, owed.payouts) }
            let now = AppActivity.now()
            notes += owed.giveUp(at: now, limit: quietLimit, cap: started)
            if !owed.isEmpty { owedUntil = now }
            let unread = changed.filter { lastRead[$0.key, default: 0] <= $0.value }.keys.sorted()
            // The app's own part: its word where it gives one; else its retries owed and its follow-ups.
            var done = false, nap: Int64 = 10_000_000, pending: Int?
            var ending = TimelineRecorder.Stop.Ending.answered
            switch settled?.word(activity, now: now) ?? .notOffered {
            case .pending(0):
                owed.forgive()
                (done, ending) = (true, .settled)
            case .pending(let count):
                pending = count
            case .busy:
                break
            case .notOffered:
                done = owed.isEmpty
                let followedUp = activity.inFlight == 0 && pushes.map { $0.allSatisfy { lastRead[$0.payoutID, default: 0] > $0.turn } } == true
                if pushes?.isEmpty != true, !followedUp {
                    if let left = activity.quietLeft(for: quietPeriod, since: started, now: now) {
                        done = false
                        nap = min(nap, left)
                    } else if done {
                        ending = .quiet
                    }
                }
            }
            // Done, unless what ended meanwhile was answered by a fault (a retry owed now).
            if done, unread.isEmpty {
                readWhatCame()
                if owed.isEmpty {
                    if ending == .quiet {
                        for push in pushes ?? [] where lastRead[push.payoutID, default: 0] <= push.turn {
                            quietEnded[push.payoutID] = (push.turn, record.began)
                        }
                    }
                    record.end(notes.count > notesBefore ? .limit : ending, retries: retried)
                    return nil
                }
            }
            // A retry owed waits out its own limit; the rest, the quiet limit since the stop began or a retry was last
            // owed, or for a payout the app polls since a fault answered its last read of it; never past three times the
            // limit since the stop began.
            let lastFault = unread.compactMap { faultedRead[$0] }.max() ?? started
            if owed.isEmpty, now >= min(max(started, owedUntil, lastFault) + limit, started + 3 * limit) {
                record.end(.limit, retries: retried)
                let limitText = "--quiet-limit \(DurationText.format(quietLimit))"
                if !unread.isEmpty {
                    return "the app had not read cashout\(unread.count == 1 ? "" : "s") \(unread.map(String.init).joined(separator: ", ")) "
                        + "since \(unread.count == 1 ? "it" : "they") changed, after \(limitText); the clock moved anyway"
                }
                if let pending { return "the app still said it had \(pending) pending (app.settled) after \(limitText); the clock moved anyway" }
                return "the app was still busy after \(limitText); the clock moved anyway"
            }
            OSThread.sleep(nanoseconds: max(nap, 1_000_000))
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
        if !owed.isEmpty { what.append(owed.waitedFor) }
        return what.isEmpty ? "the app" : what.joined(separator: "; ")
    }

    /// Takes in what came since the last look: the notifications that went to the app, its requests
    /// (what they read, the retries they came to owe and those they made, follow-ups that came after
    /// the clock had moved on), and its refusals of notifications.
    private mutating func readWhatCame() {
        let activity = sandbox.activity
        let (pushes, pushCount) = activity.pushes(since: pushesChecked)
        pushesChecked = pushCount
        for push in pushes { notified[push.payoutID, default: []].append(push.turn) }
        let (requests, newest) = sandbox.appRequests(after: checked)
        checked = newest
        let now = AppActivity.now()
        for request in requests {
            for id in request.read {
                lastRead[id] = max(lastRead[id, default: 0], request.turn)
                if let late = quietEnded[id], request.turn > late.turn {
                    quietEnded[id] = nil
                    lateFollowUps[id] = request.receivedAt - late.began
                }
            }
            if request.fault != nil { for id in request.meantToRead { faultedRead[id] = now } }
            owed.take(request, now: now) { [notified] payouts, after, before in
                payouts.contains { id in notified[id]?.contains { $0 > after && $0 < before } ?? false }
            }
        }
        let (refusals, refusalCount) = activity.refusals(since: refusalsChecked)
        refusalsChecked = refusalCount
        for refusal in refusals { owed.refused(payoutID: refusal.payoutID, turn: refusal.turn) }
    }
}
