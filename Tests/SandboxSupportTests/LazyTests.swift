import Dispatch
@testable import SandboxSupport
import Synchronization
import Testing

@Suite struct LazyTests {
    @Test func aValueIsMadeOnceByItsFirstReadWhicheverThreadsRead() {
        let makes = Mutex(0)
        let lazy = Lazy { () -> [Int] in
            makes.withLock { $0 += 1 }
            return Array(0 ..< 1000)
        }
        #expect(makes.withLock { $0 } == 0)  // nothing made before a read
        let sums = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let sum = lazy.value.reduce(0, +)
            sums.withLock { $0.append(sum) }
        }
        #expect(makes.withLock { $0 } == 1)
        #expect(sums.withLock { $0 } == Array(repeating: 499_500, count: 16))
    }
}
