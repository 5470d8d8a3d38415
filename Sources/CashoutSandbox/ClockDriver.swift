import Dispatch
import SandboxBank
import SandboxWire
import SandboxSupport
import Synchronization

/// Runs the bank's due events on a thread of its own: at once when something falls due now (a
/// hold or cancel notified, a step after `0s`), on either clock, and every 10 ms on a real-time
/// clock, whose time moves by itself.
///
/// On a real-time clock the deliveries it sends are answered in their own time, and a receiver
/// that hangs holds nothing else up. On a manual clock it waits for their answers, as an advance
/// does, so that the journal does not depend on how fast receivers answer.
final class ClockDriver: Sendable {
    private let stopped = Atomic<Bool>(false)
    /// Set when the bank woke the driver and it has not run since (wakes coalesce).
    private let woken = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// `mayRun`: whether events may run now (not while the journal cannot write: what they change
    /// could not be saved; `wake` once they may again).
    init(bank: Bank, mayRun: @escaping @Sendable () -> Bool = { true }) {
        let realTime = bank.clock.mode == .real
        bank.whenDue { [weak self] in self?.signal() }
        OSThread.detach { [self] in
            while !stopped.load(ordering: .acquiring) {
                woken.store(false, ordering: .releasing)
                if !mayRun() {
                    _ = wake.wait(timeout: .now() + .milliseconds(10))
                } else if realTime {
                    bank.startDueEvents()
                    _ = wake.wait(timeout: .now() + .milliseconds(10))
                } else {
                    bank.runDueEvents(yieldingToAdvances: true)
                    wake.wait()
                }
            }
            finished.signal()
        }
    }

    /// Runs what is due now (once the journal writes again, say).
    func runDue() { signal() }

    /// Wakes the thread, unless it was woken already and has not run since.
    private func signal() {
        if !woken.exchange(true, ordering: .acquiringAndReleasing) { wake.signal() }
    }

    /// Stops the thread and waits for it to end.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        finished.wait()
    }
}
