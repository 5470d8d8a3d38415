import Dispatch
import FoundationEssentials
import Glibc
import SandboxWire
import SandboxRunner
import SandboxSupport
import Synchronization

/// The command `test --serve --exec CMD` runs beside a suite's steps (the user's app, or its
/// tests): `/bin/sh -c CMD`, with our environment and the sandbox's (`Sandbox.environment`). What
/// it writes goes through to our standard output and error as it comes, and the end of it is kept
/// for the report.
///
/// It is spawned with `posix_spawn` rather than Foundation's `Process`, which on Linux leaves the
/// child with the signals ignored that we ignore (SIGPIPE, for the server): a shell pipeline in
/// CMD would then end with "Broken pipe" errors instead of quietly. The child starts with every
/// signal at its default and none blocked, in a process group of its own (as `Process` puts it),
/// so that `stop()` reaches the programs it started too; its standard input is `/dev/null`, as a
/// program of a background group that read the terminal would be stopped.
///
/// ```swift
/// let command = ExternalCommand("npm test")
/// let outcome = command.run(environment: sandbox.environment)   // on another thread: command.stop()
/// ```
final class ExternalCommand: Sendable {
    /// The command line, as given to `/bin/sh -c`.
    let line: String
    /// Whether what it writes goes through to our output as it comes (else only kept).
    private let echo: Bool
    private let state = Mutex(State.notStarted)
    private let output = OutputTail(limit: CommandOutcome.outputLimit)

    private enum State {
        case notStarted, running(pid_t)
        /// `/bin/sh` ended; what it started may still run in its process group, numbered `group`.
        case ended(group: pid_t)
        /// `stop()` came first: it is not started.
        case stopped
    }

    init(_ line: String, echo: Bool = true) {
        self.line = line
        self.echo = echo
    }

    /// Runs `/bin/sh` to its end; how it ended, with the end of its output. What it left running in
    /// its process group (a server started in the background) runs on until `stop(grace:)`.
    func run(environment: [(name: String, value: String)]) -> CommandOutcome {
        let variables = ProcessInfo.processInfo.environment.merging(environment.map { ($0.name, $0.value) }) { $1 }
        let (out, err) = (Self.pipe(), Self.pipe())
        let spawned: Result<pid_t, Errno> = state.withLock { state in
            guard case .notStarted = state else { return .failure(Errno(EINTR)) }
            let spawned = Self.spawn(["/bin/sh", "-c", line], environment: variables.map { "\($0)=\($1)" }, stdout: out.write, stderr: err.write)
            if case .success(let pid) = spawned { state = .running(pid) }
            return spawned
        }
        close(out.write)
        close(err.write)
        guard case .success(let pid) = spawned else {
            close(out.read)
            close(err.read)
            let reason = if case .failure(let error) = spawned, error.code != EINTR { String(cString: strerror(error.code)) } else { "interrupted" }
            return CommandOutcome(command: line, ending: .notStarted(reason), output: "")
        }
        let relays = DispatchGroup()
        relay(out.read, to: STDOUT_FILENO, relays)
        relay(err.read, to: STDERR_FILENO, relays)
        let status = wait(pid)
        // What it wrote last may still be in the pipes; but a program it left running in the
        // background can hold them open for ever, so the wait is short.
        _ = relays.wait(timeout: .now() + 2)
        // Exited: the status in bits 8-15; killed: the signal in bits 0-6 (glibc's WIFEXITED...).
        let ending: CommandOutcome.Ending = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
        return CommandOutcome(command: line, ending: ending, output: output.text)
    }

    /// Whether `/bin/sh` was started and has not ended.
    var isRunning: Bool {
        state.withLock { if case .running = $0 { true } else { false } }
    }

    /// Sends its process group SIGTERM, and SIGKILL if anything of it (`/bin/sh`, or what it
    /// started) is still running `grace` later; returns once all of it has ended (or at once when
    /// it was not started: then it never is).
    func stop(grace: Duration = .seconds(5)) {
        let group: pid_t? = state.withLock { state in
            switch state {
            case .notStarted:
                state = .stopped
                return nil
            case .running(let pid), .ended(let pid):
                return pid
            case .stopped:
                return nil
            }
        }
        guard let group, Self.groupIsAlive(group) || isRunning else { return }
        kill(-group, SIGTERM)
        let deadline = ContinuousClock.now + grace
        while ContinuousClock.now < deadline {
            if !isRunning && !Self.groupIsAlive(group) { return }
            usleep(20_000)
        }
        kill(-group, SIGKILL)
        let killed = ContinuousClock.now + .seconds(5)  // a process stuck in the kernel dies when it leaves it
        while (isRunning || Self.groupIsAlive(group)) && ContinuousClock.now < killed { usleep(10_000) }
    }

    /// Whether a process of the group numbered `group` is still running: one in `/proc` whose
    /// `stat` names the group and that is not a zombie (an orphan whose reaper never reaps, as a
    /// container's first process may not, has ended all the same). A group's number is not given
    /// to another process while any process of it lives.
    private static func groupIsAlive(_ group: pid_t) -> Bool {
        guard kill(-group, 0) == 0 else { return false }
        guard let processes = opendir("/proc") else { return true }
        defer { closedir(processes) }
        while let entry = readdir(processes) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.first?.isNumber == true, let stat = Self.contents("/proc/\(name)/stat"), let close = stat.lastIndex(of: ")") else { continue }
            // "pid (comm) state ppid pgrp ...": the command may hold spaces and parentheses, the rest not.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 2, fields[2] == "\(group)", fields[0] != "Z" { return true }
        }
        return false
    }

    /// The start of a file of `/proc` (whose size reads as 0, so read as a stream), nil when it cannot be read.
    private static func contents(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { Glibc.close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    /// Waits for `pid` to end: its wait status. It is marked ended before it is reaped, so that
    /// `stop()` never takes a process group whose number was given to another for this one.
    private func wait(_ pid: pid_t) -> Int32 {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        state.withLock { $0 = .ended(group: pid) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    /// Copies what `source` carries to `descriptor` and to the kept output, on a thread of its
    /// own, until its end; then closes it.
    private func relay(_ source: Int32, to descriptor: Int32, _ group: DispatchGroup) {
        let (output, echo) = (self.output, self.echo)
        group.enter()
        OSThread.detach {
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                let bytes = Array(buffer[..<count])
                if !echo {
                } else if descriptor == STDOUT_FILENO { StandardOutput.write(bytes) } else { CLI.writeError(bytes) }
                output.append(bytes)
            }
            close(source)
            group.leave()
        }
    }

    /// A pipe whose ends are closed on exec (the child gets its write end by `dup2`, which clears that).
    private static func pipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        _ = Glibc.pipe(&ends)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Starts `arguments` with `environment` ("NAME=value"), its standard output and error on
    /// `stdout` and `stderr`, its input `/dev/null`, its signals at their defaults and unblocked,
    /// in a new process group.
    private static func spawn(_ arguments: [String], environment: [String], stdout: Int32, stderr: Int32) -> Result<pid_t, Errno> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, stderr, STDERR_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        return code == 0 ? .success(pid) : .failure(Errno(code))
    }
}

/// An `errno` value, as an error.
private struct Errno: Error {
    let code: Int32
    init(_ code: Int32) { self.code = code }
}

/// The last `limit` bytes written to it.
private final class OutputTail: Sendable {
    private let bytes = Mutex<[UInt8]>([])
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    func append(_ more: [UInt8]) {
        bytes.withLock { bytes in
            bytes += more
            if bytes.count > limit { bytes.removeFirst(bytes.count - limit) }
        }
    }

    /// As UTF-8, without a character the cut at the start left in pieces.
    var text: String {
        bytes.withLock { bytes in String(decoding: bytes.drop { (0x80 ... 0xBF).contains($0) }, as: UTF8.self) }
    }
}
