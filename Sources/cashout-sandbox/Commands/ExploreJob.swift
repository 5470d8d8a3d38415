import CashoutSandbox
import Dispatch
import FoundationEssentials
import Glibc
import SandboxWire
import SandboxRunner
import SandboxSupport
import Synchronization
import SandboxContract

/// One of `explore --jobs N`'s N servings: a run at a time, each with a fresh CMD (`ExternalCommand`)
/// stopped after `--timeout`, and a `CASHOUT_SANDBOX_RUN_DIR` of its own (`RunDirectory`).
final class ExploreJob: Sendable {
    private let command: String
    private let timeout: Duration
    private let grace: Duration
    /// The current run: its CMD and folder once started, and whether the run stopped it (then a CMD not
    /// started yet never starts: a run may end before CMD is spawned).
    private struct Current {
        var command: ExternalCommand?
        var directory: RunDirectory?
        var stopped = false
    }

    private let current = Mutex(Current())
    /// Set by `stopAll`: no CMD starts any more.
    private static let stopping = Atomic(false)

    init(command: String, timeout: Duration, grace: Duration) {
        self.command = command
        self.timeout = timeout
        self.grace = grace
    }

    /// Where its runs run: a sandbox on a free port, threads as `serve` has (the app may call concurrently).
    func serving(quietPeriod: Duration?, quietLimit: Duration) -> ScenarioRunner.Serving {
        ScenarioRunner.Serving(
            port: 0, threads: Sandbox.Configuration().server.threads, quietPeriod: quietPeriod, quietLimit: quietLimit,
            beside: { [self] sandbox in run(beside: sandbox) },
            stepFailed: { [self] _ in stop(grace: grace) },
            // Nothing a run's CMD started outlives the run, nor what it kept in its folder.
            ended: { [self] in
                stop(grace: grace)
                current.withLock { current in
                    current.directory?.remove()
                    current = Current()
                }
            })
    }

    /// CMD beside `sandbox`, to its end or `timeout`.
    private func run(beside sandbox: Sandbox) -> CommandOutcome {
        let run = ExternalCommand(command, echo: false)
        let directory = RunDirectory()
        let started = current.withLock { current in
            guard !Self.stopping.load(ordering: .acquiring), !current.stopped else { return false }
            (current.command, current.directory) = (run, directory)
            return true
        }
        guard started else {
            directory.remove()
            return CommandOutcome(command: command, ending: .notStarted("the run was stopped before it started"), output: "")
        }
        let timedOut = Atomic(false)
        let watchdog = DispatchWorkItem {
            guard run.isRunning else { return }
            timedOut.store(true, ordering: .relaxed)
            run.stop(grace: self.grace)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(clamping: timeout.wholeMilliseconds)), execute: watchdog)
        defer { watchdog.cancel() }
        var outcome = run.run(environment: TestCommand.commandEnvironment(sandbox, runDirectory: directory))
        outcome.timedOut = timedOut.load(ordering: .relaxed)
        return outcome
    }

    /// Stops the current run's CMD and what it started, or keeps it from starting.
    private func stop(grace: Duration) {
        current.withLock { current in
            current.stopped = true
            return current.command
        }?.stop(grace: grace)
    }

    /// On SIGINT or SIGTERM: no CMD starts any more, and each job's is stopped at once (SIGTERM,
    /// SIGKILL 5 s later) and its folder removed.
    static func stopAll(_ jobs: [ExploreJob]) {
        stopping.store(true, ordering: .releasing)
        let stoppers = jobs.map { job in
            OSThread(name: nil) {
                job.stop(grace: .seconds(5))
                job.current.withLock { $0.directory?.remove() }
            }
        }
        for stopper in stoppers { stopper.join() }
    }

    /// The default of `--jobs`: four times the cores this process may use (a run mostly waits for
    /// the app's quiet periods: on 2 cores, 8 at once ran 6 times as many runs a minute), fewer
    /// where the memory available (the cgroup's, or the system's) is under `memoryPerJob` a job,
    /// at most 16.
    static func defaultCount() -> Int {
        let memory = Self.availableMemory().map { Int($0 / memoryPerJob) } ?? .max
        return max(1, min(4 * usableCores(), memory, 16))
    }

    /// What one run may take: the sandbox, the app beside it and the shell, with room to spare.
    static let memoryPerJob: UInt64 = 256 << 20

    /// The cores this process may run on (its CPU affinity), or the cgroup's CPU quota (`cpu.max`,
    /// rounded up) where it is fewer.
    static func usableCores() -> Int {
        let online = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let quota = Self.read("/sys/fs/cgroup/cpu.max")?.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard let quota, quota.count == 2, quota[1] > 0 else { return online }
        return max(1, min(online, (quota[0] + quota[1] - 1) / quota[1]))
    }

    /// `MemAvailable` of /proc/meminfo, or what the cgroup's `memory.max` leaves where that is less.
    static func availableMemory() -> UInt64? {
        let meminfo = Self.read("/proc/meminfo")?.split(separator: "\n").first { $0.hasPrefix("MemAvailable:") }
        let system = meminfo?.split(separator: " ").dropFirst().first.flatMap { UInt64($0) }.map { $0 * 1024 }
        let limit = Self.number("/sys/fs/cgroup/memory.max")
        let used = Self.number("/sys/fs/cgroup/memory.current") ?? 0
        let cgroup = limit.map { $0 > used ? $0 - used : 0 }
        return [system, cgroup].compactMap { $0 }.min()
    }

    private static func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The number a file of one holds (`max`, or none: nil).
    private static func number(_ path: String) -> UInt64? {
        read(path)?.split(whereSeparator: \.isWhitespace).first.flatMap { UInt64($0) }
    }
}

/// `CASHOUT_SANDBOX_RUN_DIR`: a folder of CMD's own for one run (`mkdtemp` in `$TMPDIR`, else
/// /tmp), for an app that keeps files; removed with what it holds once the run ends.
final class RunDirectory: Sendable {
    static let variable = "CASHOUT_SANDBOX_RUN_DIR"
    /// nil when none could be made (CMD then gets no variable).
    let path: String?

    init() {
        let parent = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(parent)/cashout-sandbox-run-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) }
    }

    func remove() {
        if let path { try? FileManager.default.removeItem(atPath: path) }
    }
}
