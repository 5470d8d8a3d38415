import Glibc
@testable import SandboxBank
import Testing

@Suite struct VirtualClockTests {
    @Test func manualClockMovesOnlyWhenAdvanced() throws {
        let start = try #require(VirtualTime(iso8601: "2026-01-31T23:59:59Z"))
        let clock = VirtualClock(mode: .manual, start: start)
        usleep(20_000)
        #expect(clock.now == start)
        #expect(clock.advance(by: .seconds(1)).iso8601 == "2026-02-01T00:00:00Z")
        clock.advance(by: .milliseconds(-5000))  // never backwards
        #expect(clock.now.iso8601 == "2026-02-01T00:00:00Z")
        clock.advance(by: .seconds(86_400 * 28) + .milliseconds(250))
        #expect(clock.now.iso8601 == "2026-03-01T00:00:00.250Z")
    }

    @Test func realClockFollowsWallTimeTimesTheScale() throws {
        // The wall time around the clock's start and around the reading bounds what it may say,
        // however long the test's thread was held up in between.
        let beforeStart = VirtualClock.wallMilliseconds()
        let clock = VirtualClock(mode: .real, timeScale: 60, start: VirtualTime(iso8601: "2026-01-05T09:00:00Z"))
        let afterStart = VirtualClock.wallMilliseconds()
        usleep(200_000)  // 0.2 s real = 12 s virtual
        let beforeReading = VirtualClock.wallMilliseconds()
        let elapsed = clock.now.milliseconds - VirtualTime(iso8601: "2026-01-05T09:00:00Z")!.milliseconds
        let afterReading = VirtualClock.wallMilliseconds()
        #expect(elapsed >= 11_000)
        #expect(elapsed >= 60 * (beforeReading - afterStart) && elapsed <= 60 * (afterReading - beforeStart),
                "\(elapsed) ms virtual for \(beforeReading - afterStart)–\(afterReading - beforeStart) ms real")
    }

    @Test func hugeAdvancesAndScalesStopAtTheEndOfTimeInsteadOfTrapping() {
        let manual = VirtualClock(mode: .manual, start: VirtualTime(milliseconds: 0))
        manual.advance(by: .seconds(Int64.max))
        #expect(manual.now == VirtualClock.end)
        manual.advance(by: .seconds(1))
        #expect(manual.now.iso8601 == "9999-12-31T23:59:59.999Z")
        let fast = VirtualClock(mode: .real, timeScale: 1e300)
        #expect(fast.timeScale == VirtualClock.maximumTimeScale)
        usleep(5000)
        #expect(fast.now <= VirtualClock.end)
    }

    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0), ("2000-02-29T12:34:56Z", 951_827_696_000), ("2026-11-21T23:55:00.123Z", 1_795_305_300_123),
        ("1969-12-31T23:59:59Z", -1000), ("2100-03-01T00:00:00Z", 4_107_542_400_000),
    ])
    func iso8601RoundTrips(text: String, milliseconds: Int64) throws {
        let time = try #require(VirtualTime(iso8601: text))
        #expect(time.milliseconds == milliseconds)
        #expect(time.iso8601 == text)
    }

    @Test(arguments: ["2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01 00:00:00Z", "2026-01-01T24:00:00Z",
                      "2026-01-01T00:00:00", "2026-01-01T00:00:00+01:00", "", "2026-01-01T00:00:00.1Z"])
    func invalidTimesAreRefused(text: String) {
        #expect(VirtualTime(iso8601: text) == nil)
    }
}
