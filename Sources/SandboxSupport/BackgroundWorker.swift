import Glibc
import Synchronization

/// Runs jobs one at a time, in order, on a thread of its own at a lower CPU priority than the event
/// loops (nice 10): on a small container's one or two cores, a long job (a report over a large
/// journal) takes what the loops leave, and every other client is answered as fast as without it.
///
/// The thread starts with the first job and ends when none is left, so an idle sandbox (or one of
/// the many a test suite starts and stops) holds no thread for it.
///
/// ```swift
/// let worker = BackgroundWorker(name: "cashout-sandbox.report")
/// worker.run { answer(makeReport()) }
/// ```
package final class BackgroundWorker: Sendable {
    private struct Jobs {
        var waiting: [@Sendable () -> Void] = []
        var running = false
    }

    /// The nice value of its thread (Linux's `setpriority` of the calling thread; 0 is the loops').
    static let niceness: Int32 = 10
    private let name: String
    private let jobs = Mutex(Jobs())

    package init(name: String) {
        self.name = name
    }

    /// Queues `job`; it runs after every job queued before it.
    package func run(_ job: @escaping @Sendable () -> Void) {
        let start = jobs.withLock { jobs in
            jobs.waiting.append(job)
            defer { jobs.running = true }
            return !jobs.running
        }
        guard start else { return }
        OSThread.detach(name: name) { [self] in
            // This thread only, on Linux; a sandbox started nicer than that stays as nice.
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            if getpriority(which, 0) < Self.niceness { _ = setpriority(which, 0, Self.niceness) }
            while let next = jobs.withLock({ jobs in
                if jobs.waiting.isEmpty { jobs.running = false }
                return jobs.waiting.isEmpty ? nil : jobs.waiting.removeFirst()
            }) {
                next()
            }
        }
    }
}
