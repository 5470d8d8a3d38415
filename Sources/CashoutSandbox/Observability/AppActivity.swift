import Glibc
import SandboxWire
import SandboxSupport
import Synchronization

/// What the app under test is doing with the sandbox, as far as the sandbox can see: the requests
/// to a payout API not yet answered, the webhook deliveries to it not yet answered, and when the
/// last of either ended. `cashout-sandbox test --serve` waits for the app to go quiet before the
/// clock moves, and stops the clock for it after each instant that concerns it (the Testing your
/// app guide, "Real time and virtual time"), so that an app that answers a notification first and
/// asks for the status a moment later is judged on what it did.
///
/// Each request and delivery takes a turn as it begins, a number counting up: a request whose
/// turn is after a delivery's came after that delivery began, whatever the threads did. Counters
/// and a time, atomics only on the request path: every logged request passes here twice.
///
/// ```swift
/// if !sandbox.activity.waitUntilQuiet(for: .milliseconds(200), atMost: .seconds(10)) { print("still busy") }
/// ```
public final class AppActivity: Sendable {
    private let busy = Atomic<Int>(0)
    /// When the last request or delivery ended, in nanoseconds of the monotonic clock; 0: none yet.
    private let lastEnd = Atomic<Int64>(0)
    /// The last turn given.
    private let turns = Atomic<Int>(0)
    /// The deliveries to the app that began, and those it refused (answered other than 2xx).
    private let pushes = Mutex(Pushes())
    private let refusals = Mutex(Pushes())

    /// A delivery to the app: its turn (as it began, or for a refusal as it was answered) and its payout.
    package struct Push: Sendable, Equatable {
        package let turn: Int
        package let payoutID: Int
    }

    /// Deliveries, newest last: at most `limit` kept, and how many in all.
    private struct Pushes {
        private(set) var kept: [Push] = []
        private(set) var count = 0
        private static let limit = 4096

        mutating func append(_ push: Push) {
            count += 1
            kept.append(push)
            if kept.count > 2 * Self.limit { kept.removeFirst(kept.count - Self.limit) }
        }

        /// Those after `turn`, when `count` had come; nil when more came since than are kept.
        func after(_ turn: Int, count before: Int) -> [Push]? {
            let new = kept.filter { $0.turn > turn }
            return new.count >= count - before ? new : nil
        }

        /// Those appended after the first `count`, in the order they were (which is not always their turns' order: each
        /// is appended by the thread that delivered it), as many as are kept; and how many have come in all.
        func since(_ count: Int) -> (pushes: [Push], count: Int) {
            (Array(kept.suffix(min(self.count - count, kept.count))), self.count)
        }
    }

    init() {}

    /// The app's requests and the deliveries to it not yet answered.
    public var inFlight: Int { busy.load(ordering: .acquiring) }

    /// The last turn given: what began after now has a greater one.
    package var turn: Int { turns.load(ordering: .acquiring) }

    /// A request or a delivery begins: its turn.
    @discardableResult
    func begin() -> Int {
        busy.add(1, ordering: .relaxed)
        return turns.add(1, ordering: .acquiringAndReleasing).newValue
    }

    /// The delivery that began at `turn` (``begin()``) is one to the app, of a notification of `payoutID`.
    func pushed(turn: Int, payoutID: Int) {
        pushes.withLock { $0.append(Push(turn: turn, payoutID: payoutID)) }
    }

    /// The app refused a delivery of a notification of `payoutID` (an answer other than 2xx, or
    /// none): it asks to be told again. Takes a turn, before the delivery ends (``end()``).
    func refused(payoutID: Int) {
        let turn = turns.add(1, ordering: .acquiringAndReleasing).newValue
        refusals.withLock { $0.append(Push(turn: turn, payoutID: payoutID)) }
    }

    /// It ended (answered, refused, timed out): the app was active until now.
    package func end() {
        lastEnd.store(Self.now(), ordering: .relaxed)
        busy.subtract(1, ordering: .releasing)
    }

    /// It turned out not to concern the app (a notification to the built-in sink, answered in
    /// process): forgotten, without counting as activity.
    func cancel() {
        busy.subtract(1, ordering: .releasing)
    }

    /// How many deliveries to the app began in all.
    package var deliveriesBegun: Int { pushes.withLock { $0.count } }

    /// The deliveries to the app that began after `turn`, when `count` had begun (``deliveriesBegun``);
    /// nil when more began since than are kept.
    package func pushes(after turn: Int, count: Int) -> [Push]? {
        pushes.withLock { $0.after(turn, count: count) }
    }

    /// The deliveries to the app recorded after the first `count` (``pushed(turn:payoutID:)``), those kept (the last
    /// 4,096 at least), and how many have been recorded in all: where the next look starts.
    package func pushes(since count: Int) -> (pushes: [Push], count: Int) {
        pushes.withLock { $0.since(count) }
    }

    /// The refusals (``refused(payoutID:)``) recorded after the first `count`, those kept, and how many in all.
    package func refusals(since count: Int) -> (pushes: [Push], count: Int) {
        refusals.withLock { $0.since(count) }
    }

    /// Waits until nothing has been in flight for `period` of real time, measured from the end of
    /// the last request or delivery and from `since` (a moment of `AppActivity.now()`, such as a step's
    /// start), checking at most every 10 ms (sleeping to the moment the period would end when
    /// nothing is in flight); gives up after `limit`.
    ///
    /// - Parameters:
    ///   - period: How long nothing must be in flight.
    ///   - limit: How long to wait at most.
    /// - Returns: True when quiet; false when still busy after `limit`.
    public func waitUntilQuiet(for period: Duration, atMost limit: Duration) -> Bool {
        waitUntilQuiet(for: period, atMost: limit, since: 0)
    }

    package func waitUntilQuiet(for period: Duration, atMost limit: Duration, since: Int64) -> Bool {
        let deadline = Self.now() + Self.nanoseconds(limit)
        while true {
            let now = Self.now()
            guard let left = quietLeft(for: period, since: since, now: now) else { return true }
            guard now < deadline else { return false }
            OSThread.sleep(nanoseconds: max(min(left, deadline - now), 1_000_000))
        }
    }

    /// Nil when nothing has been in flight for `period` since the last end and since `since`;
    /// else how long to look again after, in nanoseconds (10 ms while something is in flight).
    package func quietLeft(for period: Duration, since: Int64, now: Int64 = now()) -> Int64? {
        let inFlight = busy.load(ordering: .acquiring)
        let left = max(lastEnd.load(ordering: .relaxed), since) + Self.nanoseconds(period) - now
        if inFlight == 0, left <= 0 { return nil }
        return inFlight == 0 ? left : 10_000_000
    }

    /// The monotonic clock, in nanoseconds: what `since` is measured in.
    package static func now() -> Int64 {
        SystemClock.monotonicNanoseconds()
    }

    package static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
