import Dispatch
import Glibc
@testable import CashoutSandbox
import Synchronization
import Testing

/// What the pool's jobs write, read back once they ran.
private final class Tally: Sendable {
    let state = Mutex((running: 0, most: 0, done: 0))
}

/// A delivery pool runs jobs side by side, never more than its limit at once, and runs them all.
@Suite struct DeliveryPoolTests {
    @Test func noMoreThanItsLimitRunAtOnceAndEveryJobRuns() {
        let pool = DeliveryPool(limit: 3)
        let tally = Tally()
        let finished = DispatchSemaphore(value: 0)
        let jobs = 12
        for _ in 0 ..< jobs {
            pool.run {
                tally.state.withLock { $0.running += 1; $0.most = max($0.most, $0.running) }
                usleep(20_000)  // a receiver taking its time
                tally.state.withLock { $0.running -= 1; $0.done += 1 }
                finished.signal()
            }
        }
        for _ in 0 ..< jobs { #expect(finished.wait(timeout: .now() + 10) == .success) }
        let state = tally.state.withLock { $0 }
        #expect(state.done == jobs)
        #expect(state.most <= 3 && state.most >= 2)
    }

    @Test func aLimitBelowOneIsOne() {
        #expect(DeliveryPool(limit: 0).limit == 1)
    }
}
