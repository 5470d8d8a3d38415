// `timespec` is Glibc's, but under MemberImportVisibility the compiler credits it to whichever
// C module it met it in first: CSystem in a release build, SwiftOverlayShims in a debug one.
import CSystem
import Glibc
import SwiftOverlayShims

/// The two clocks the sandbox reads from the system, without Foundation (`clock_gettime(2)`):
/// the monotonic one, which no change of the date moves, for deadlines and durations; the wall
/// one, for what is stamped with a date. Each is read here and nowhere else.
package enum SystemClock {
    /// Nanoseconds on the monotonic clock (since an arbitrary start: only differences mean anything).
    package static func monotonicNanoseconds() -> Int64 { read(CLOCK_MONOTONIC) }

    /// Nanoseconds since 1970 on the wall clock.
    package static func wallNanoseconds() -> Int64 { read(CLOCK_REALTIME) }

    private static func read(_ clock: clockid_t) -> Int64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
