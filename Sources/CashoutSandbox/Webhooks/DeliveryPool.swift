import Dispatch
import SandboxSupport
import Synchronization

/// Runs webhook deliveries side by side, each on a thread of its own while it waits for its
/// receiver, on at most `limit` threads; more wait their turn, in order. So receivers that hang
/// hold up only their own deliveries, up to `limit` of them at once. Threads are started as
/// needed and end after 30 s without work.
final class DeliveryPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        var jobs: [Job] = []
        var threads = 0
        var busy = 0
    }

    /// The most deliveries on their way at once.
    package let limit: Int
    private let state = Mutex(State())
    /// One signal per job queued.
    private let queued = DispatchSemaphore(value: 0)

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `job` on a pool thread, as soon as one is free.
    package func run(_ job: @escaping Job) {
        let startThread = state.withLock { s -> Bool in
            s.jobs.append(job)
            guard s.jobs.count > s.threads - s.busy, s.threads < limit else { return false }  // else a waiting thread takes it
            s.threads += 1
            return true
        }
        queued.signal()
        if startThread { OSThread.detach { self.work() } }
    }

    private func work() {
        while true {
            if queued.wait(timeout: .now() + .seconds(30)) == .timedOut {
                // Ends unless a job came meanwhile (its signal is then there to take).
                if state.withLock({ s -> Bool in
                    guard s.jobs.isEmpty else { return false }
                    s.threads -= 1
                    return true
                }) { return }
                continue
            }
            let job = state.withLock { s -> Job in
                s.busy += 1
                return s.jobs.removeFirst()
            }
            job()
            state.withLock { $0.busy -= 1 }
        }
    }
}
