import Dispatch
import Glibc
@testable import SandboxSupport
import Synchronization
import Testing

/// What a test's jobs write, read back once they ran.
private final class Shared<Value: Sendable>: Sendable {
    let value: Mutex<Value>

    init(_ value: Value) {
        self.value = Mutex(value)
    }

    func update(_ change: (inout Value) -> Void) {
        value.withLock { change(&$0) }
    }

    var current: Value { value.withLock { $0 } }
}

/// A background worker runs its jobs one at a time, in the order queued, off the caller's thread.
@Suite struct BackgroundWorkerTests {
    @Test func jobsRunOneAtATimeInTheOrderQueued() {
        let worker = BackgroundWorker(name: "test.worker")
        let log = Shared<[Int]>([])
        let running = Shared(0)
        let overlapped = Shared(false)
        let done = DispatchSemaphore(value: 0)
        let jobs = 50
        for number in 0 ..< jobs {
            worker.run {
                running.update { $0 += 1 }
                if running.current > 1 { overlapped.update { $0 = true } }
                log.update { $0.append(number) }
                running.update { $0 -= 1 }
                if number == jobs - 1 { done.signal() }
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(log.current == Array(0 ..< jobs))
        #expect(!overlapped.current)
    }

    @Test func aJobQueuedAfterTheWorkerWentIdleStillRuns() {
        let worker = BackgroundWorker(name: "test.worker")
        for round in 0 ..< 3 {
            let done = DispatchSemaphore(value: 0)
            let ran = Shared(-1)
            worker.run {
                ran.update { $0 = round }
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(ran.current == round)
            OSThread.sleep(nanoseconds: 5_000_000)  // its thread ends once no job is left
        }
    }

    @Test func itsThreadRunsNicerThanTheCaller() {
        let worker = BackgroundWorker(name: "test.worker")
        let done = DispatchSemaphore(value: 0)
        let niceness = Shared<Int32>(0)
        worker.run {
            niceness.update { $0 = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(niceness.current >= BackgroundWorker.niceness)
    }
}
