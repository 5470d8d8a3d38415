import CashoutSandbox
import SandboxBank
import SandboxHTTP
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
///
/// Either wait is bounded by the quiet limit; past it the clock moves on, and the step notes it.
/// Instants that concern neither pass without a stop.
struct AppTurns {
    let sandbox: Sandbox
    let quietPeriod: Duration
    let quietLimit: Duration
    /// The journal id the app's reads were read up to.
    private var checked = 0
    /// The turn of the app's last read of each payout it read (``Sandbox/AppRead``).
    private var lastRead: [Int: Int] = [:]
    /// How many stops the clock made for the app.
    private(set) var stops = 0

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
        if let target { bank.advance(to: target) }
        if !unread.isEmpty { wait([]) }
        return note
    }

    /// Waits until the app has had its turn: having read each payout in `changed` since the turn
    /// given with it and, when a notification went to it (`pushes` not empty; nil: more than are
    /// kept), quiet for the quiet period since now, or with nothing in flight and each payout in
    /// `pushes` read since its delivery began. What to note when the quiet limit came first.
    private mutating func stop(pushes: [AppActivity.Push]?, changed: [Int: Int]) -> String? {
        stops += 1
        let activity = sandbox.activity
        let started = AppActivity.now()
        let deadline = started + AppActivity.nanoseconds(quietLimit)
        while true {
            readWhatCame()
            let unread = changed.filter { lastRead[$0.key, default: 0] <= $0.value }.keys.sorted()
            var nap: Int64? = unread.isEmpty ? nil : 10_000_000
            if pushes?.isEmpty != true {
                let followedUp = activity.inFlight == 0 && pushes.map { $0.allSatisfy { lastRead[$0.payoutID, default: 0] > $0.turn } } == true
                if !followedUp, let left = activity.quietLeft(for: quietPeriod, since: started) { nap = min(nap ?? left, left) }
            }
            guard let nap else { return nil }
            let now = AppActivity.now()
            guard now < deadline else {
                let limit = DurationText.format(quietLimit)
                guard !unread.isEmpty else { return "the app was still busy after \(limit); the clock moved anyway" }
                return "the app had not read cashout\(unread.count == 1 ? "" : "s") \(unread.map(String.init).joined(separator: ", ")) "
                    + "since \(unread.count == 1 ? "it" : "they") changed, after \(limit); the clock moved anyway"
            }
            OSThread.sleep(nanoseconds: max(min(nap, deadline - now), 1_000_000))
        }
    }

    /// Takes in the reads journaled since the last look.
    private mutating func readWhatCame() {
        let (reads, newest) = sandbox.appReads(after: checked)
        checked = newest
        for read in reads {
            for id in read.payoutIDs { lastRead[id] = max(lastRead[id, default: 0], read.turn) }
        }
    }
}
