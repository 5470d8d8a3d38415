import Foundation
import Glibc
import Synchronization

/// What the app under test is doing with the sandbox, as far as the sandbox can see: the requests
/// to a payout API not yet answered, the webhook deliveries to it not yet answered, and when the
/// last of either ended. `cashout-sandbox test --serve` waits for the app to go quiet before the
/// clock moves (the Testing your app guide, "Real time and virtual time"), so that an app that
/// answers a notification first and asks for the status a moment later is judged on what it did.
///
/// Two counters and a time, atomics only: every journaled request passes here twice.
///
/// ```swift
/// if !sandbox.activity.waitUntilQuiet(for: .milliseconds(200), atMost: .seconds(10)) { print("still busy") }
/// ```
public final class AppActivity: Sendable {
    private let busy = Atomic<Int>(0)
    /// When the last request or delivery ended, in nanoseconds of the monotonic clock; 0: none yet.
    private let lastEnd = Atomic<Int64>(0)

    init() {}

    /// The app's requests and the deliveries to it not yet answered.
    public var inFlight: Int { busy.load(ordering: .acquiring) }

    /// A request or a delivery starts.
    func begin() {
        busy.add(1, ordering: .relaxed)
    }

    /// It ended (answered, refused, timed out): the app was active until now.
    func end() {
        lastEnd.store(Self.now(), ordering: .relaxed)
        busy.subtract(1, ordering: .releasing)
    }

    /// It turned out not to concern the app (a notification to the built-in sink, answered in
    /// process): forgotten, without counting as activity.
    func cancel() {
        busy.subtract(1, ordering: .releasing)
    }

    /// Waits until nothing has been in flight for `period` of real time, checking at most every
    /// 10 ms (sleeping to the moment the period would end when nothing is in flight); gives up
    /// after `limit`. True: quiet; false: still busy after `limit`.
    public func waitUntilQuiet(for period: Duration, atMost limit: Duration) -> Bool {
        let periodNanos = Self.nanoseconds(period)
        let deadline = Self.now() + Self.nanoseconds(limit)
        while true {
            let now = Self.now()
            let inFlight = busy.load(ordering: .acquiring)
            let quietSince = lastEnd.load(ordering: .relaxed)
            let left = quietSince + periodNanos - now
            if inFlight == 0, left <= 0 { return true }
            guard now < deadline else { return false }
            let nap = inFlight == 0 ? min(left, deadline - now) : min(10_000_000, deadline - now)
            Thread.sleep(forTimeInterval: Double(max(nap, 1_000_000)) / 1e9)
        }
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
