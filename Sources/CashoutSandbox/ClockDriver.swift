import Foundation
import SandboxBank
import Synchronization

/// Runs the bank's due events as a real-time clock moves: checks every 10 ms on its own thread.
final class ClockDriver: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(bank: Bank) {
        Thread.detachNewThread { [self] in
            while !stopped.load(ordering: .acquiring) {
                bank.runDueEvents()
                usleep(10_000)
            }
            finished.signal()
        }
    }

    /// Stops the thread and waits for it to end.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
    }
}
