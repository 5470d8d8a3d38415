package import SandboxBank
import SandboxSupport
import Synchronization

/// What a payout's timeline (``Timeline``) needs beside the bank's records and the request log:
/// when, in real time, each status change and delivery attempt happened (the bank keeps virtual
/// times only), and the clock's stops for the app under `test --serve` and `explore` (the Testing
/// your app guide, "Why a run failed"). Each is kept with the app's turn (``AppActivity/turn``) it
/// came in: requests and deliveries take turns as they begin, so a change, the notification it
/// makes and the app's follow-up stay in order within a millisecond.
///
/// Both are rings, as the request log is: a long-running sandbox keeps the last `capacity` of
/// each, and a timeline shows "—" for a real time pushed out. Recording is one short lock, from
/// the bank's observer (already called for every event, under the bank's lock) and from a run's
/// clock stops, never on a request's path.
///
/// ```swift
/// let recorder = TimelineRecorder(capacity: 4000)
/// bank.observe { recorder.record($0) }
/// recorder.realTime(of: .change(payout: 1000001, index: 1))   // wall-clock milliseconds, or nil
/// ```
package final class TimelineRecorder: Sendable {
    /// A bank event a real time is kept for.
    package enum Key: Hashable, Sendable {
        /// The payout's `index`th status (0: the status it was created in).
        case change(payout: Int, index: Int)
        /// A notification's attempt `number`: when it was answered (or failed).
        case attempt(notification: Int, number: Int)
        /// When that attempt was sent (a timeline shows a notification when it went out).
        case sent(notification: Int, number: Int)
    }

    /// One stop of the clock for the app (``AppTurns`` in SandboxRunner), as it ended.
    package struct Stop: Sendable, Equatable {
        /// How the wait ended: the app went quiet, had what it waited for (a follow-up, a read, a
        /// retry answered), said it had no work pending (`app.settled`), or the quiet limit came
        /// first and the clock moved anyway.
        package enum Ending: String, Sendable, CaseIterable {
            case quiet, answered, settled, limit
        }

        /// When it began: wall-clock milliseconds, the app's turn, and the virtual time the clock stood at.
        let began: Int64
        let turn: Int
        package let at: VirtualTime
        /// What the clock waited for, in words (`the app's follow-up of the notifications of cashout 1000003`).
        let waitedFor: String
        /// The payouts it waited for the app about (none: the app as a whole, such as before a step).
        let payouts: [Int]
        package let ended: Ending
        /// How long it lasted, in milliseconds of real time.
        let lasted: Int64

        package init(began: Int64, turn: Int, at: VirtualTime, waitedFor: String, payouts: [Int], ended: Ending, lasted: Int64) {
            self.began = began
            self.turn = turn
            self.at = at
            self.waitedFor = waitedFor
            self.payouts = payouts
            self.ended = ended
            self.lasted = lasted
        }
    }

    /// When a bank event happened: wall-clock milliseconds, and the app's turn then.
    typealias Moment = (real: Int64, turn: Int)

    struct Kept {
        var times: [Key: Moment] = [:]
        var order: Ring<Key>
        var stops: Ring<Stop>
        var stopsKept = 0
    }

    /// When the sandbox started (wall-clock milliseconds): a timeline's real times count from it.
    package let started: Int64
    /// How many bank events' times, and how many stops, it keeps.
    let capacity: Int
    /// The app's last turn given (``AppActivity/turn``).
    private let turn: @Sendable () -> Int
    let kept: Mutex<Kept>

    /// Keeps the real times of the last `capacity` bank events and the last `capacity` stops (0: none).
    init(capacity: Int, started: Int64 = VirtualClock.wallMilliseconds(), turn: @escaping @Sendable () -> Int = { 0 }) {
        self.started = started
        self.turn = turn
        self.capacity = max(0, capacity)
        kept = Mutex(Kept(order: Ring(capacity: capacity), stops: Ring(capacity: capacity)))
    }

    /// Notes the real time of a status change or a delivery attempt (quick: the bank's observer).
    package func record(_ event: BankEvent) {
        let key: Key
        switch event {
        case .created(let payout): key = .change(payout: payout.id, index: 0)
        case .statusChanged(let payout, _, _, _): key = .change(payout: payout.id, index: payout.history.count - 1)
        case .deliveryAttempt(let notification, let attempt): key = .attempt(notification: notification.id, number: attempt.number)
        case .clockAdvanced: return
        }
        keep(key)
    }

    /// Notes that `notification`'s next attempt is being sent, as the delivery that took `turn` (quick: called as each
    /// delivery begins).
    func sending(_ notification: StatusNotification, turn: Int) {
        keep(.sent(notification: notification.id, number: notification.attempts.count + 1), turn: turn)
    }

    /// Keeps the moment of `key`: now, in `turn` (nil: the app's last turn given).
    private func keep(_ key: Key, turn given: Int? = nil) {
        guard capacity > 0 else { return }
        let moment = (VirtualClock.wallMilliseconds(), given ?? turn())
        kept.withLock { kept in
            if let old = kept.order.append(key) { kept.times[old] = nil }
            kept.times[key] = moment
        }
    }

    /// Keeps a stop of the clock for the app.
    package func record(_ stop: Stop) {
        kept.withLock { kept in
            _ = kept.stops.append(stop)
            kept.stopsKept += 1
        }
    }

    /// How many stops it was given since it was made: what a timeline's version counts.
    var stopsKept: Int {
        kept.withLock { $0.stopsKept }
    }

    /// Forgets what it kept (a reset: cashout ids are given again).
    func clear() {
        let dropped = kept.withLock { kept in
            kept.times = [:]
            return (kept.order.removeAll(), kept.stops.removeAll())
        }
        _ = dropped  // freed here, outside the lock
    }

    /// The moment of a bank event, nil when it was not kept (or pushed out).
    func moment(of key: Key) -> Moment? {
        kept.withLock { $0.times[key] }
    }

    /// The stops kept, oldest first.
    var stops: [Stop] {
        kept.withLock { $0.stops.inOrder }
    }
}
