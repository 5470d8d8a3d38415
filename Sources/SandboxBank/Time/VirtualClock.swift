import Glibc
import Synchronization
import SandboxSupport

/// The one clock every bank timeline, webhook retry and limit runs on.
///
/// `real` follows wall time (times `timeScale`, so 60 makes a minute pass each second);
/// `manual` stands still until advanced. Both can be moved forward, never back (but for `set`,
/// which restoring a snapshot uses).
///
/// ```swift
/// let clock = VirtualClock(mode: .manual, start: VirtualTime(iso8601: "2026-01-05T09:00:00Z")!)
/// clock.advance(by: .seconds(90))
/// clock.now.iso8601  // "2026-01-05T09:01:30Z"
/// ```
public final class VirtualClock: Sendable {
    /// How the clock moves.
    public enum Mode: String, Sendable, CaseIterable {
        /// With wall time, scaled.
        case real
        /// Only when told.
        case manual
    }

    private struct State {
        /// Virtual time at `realAnchor`.
        var virtualAnchor: Int64
        /// Wall time (milliseconds) when `virtualAnchor` was set.
        var realAnchor: Int64
    }

    /// How the clock moves.
    package let mode: Mode
    /// Virtual milliseconds per real millisecond in `real` mode.
    package let timeScale: Double

    /// The largest time scale: a virtual year passes in about 30 real seconds.
    package static let maximumTimeScale: Double = 1_000_000

    /// The latest time the clock reaches (year 9999): advancing stops there instead of overflowing.
    package static let end = VirtualTime(milliseconds: 253_402_300_799_999)
    private let state: Mutex<State>

    /// A clock starting at `start` (default: now, to the second).
    package init(mode: Mode, timeScale: Double = 1, start: VirtualTime? = nil) {
        self.mode = mode
        self.timeScale = timeScale.isFinite ? min(max(timeScale, 0), Self.maximumTimeScale) : 1
        let wall = Self.wallMilliseconds()
        state = Mutex(State(virtualAnchor: start?.milliseconds ?? wall / 1000 * 1000, realAnchor: wall))
    }

    /// The current virtual time.
    package var now: VirtualTime {
        state.withLock { current($0) }
    }

    /// Moves the clock forward by `duration` (negative durations are ignored).
    @discardableResult
    func advance(by duration: Duration) -> VirtualTime {
        let (seconds, attoseconds) = duration.components
        let limit = Self.end.milliseconds
        let milliseconds = seconds > limit / 1000 ? limit : max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        return state.withLock { state in
            let now = min(current(state).milliseconds, limit - milliseconds) + milliseconds
            state = State(virtualAnchor: now, realAnchor: realAnchor())
            return VirtualTime(milliseconds: now)
        }
    }

    /// Moves the clock forward to `time`; a time in the past leaves it where it is.
    @discardableResult
    func advance(to time: VirtualTime) -> VirtualTime {
        state.withLock { state in
            let now = max(current(state).milliseconds, min(time.milliseconds, Self.end.milliseconds))
            state = State(virtualAnchor: now, realAnchor: realAnchor())
            return VirtualTime(milliseconds: now)
        }
    }

    /// Puts the clock at `time`, back included: a restored snapshot takes its clock with it.
    package func set(to time: VirtualTime) {
        state.withLock { $0 = State(virtualAnchor: min(time.milliseconds, Self.end.milliseconds), realAnchor: realAnchor()) }
    }

    /// The wall time a new anchor is set at: a manual clock never reads it (nor asks the system
    /// for it, as it steps to each of the bank's events).
    private func realAnchor() -> Int64 {
        mode == .real ? Self.wallMilliseconds() : 0
    }

    private func current(_ state: State) -> VirtualTime {
        guard mode == .real else { return VirtualTime(milliseconds: state.virtualAnchor) }
        let elapsed = Double(Self.wallMilliseconds() - state.realAnchor) * timeScale
        let room = Double(Self.end.milliseconds - state.virtualAnchor)
        return VirtualTime(milliseconds: state.virtualAnchor + Int64(min(max(elapsed, 0), room)))
    }

    /// The wall clock, in milliseconds since 1970 (what the real mode runs on, and logs stamp lines with).
    package static func wallMilliseconds() -> Int64 {
        SystemClock.wallNanoseconds() / 1_000_000
    }
}
