import Foundation
import Glibc
import Synchronization
import TestHelpers

/// The `cashout-sandbox` executable built beside this test bundle, run as a child process.
final class RunningBinary: Sendable {
    static let path = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "")
        .deletingLastPathComponent().appendingPathComponent("cashout-sandbox").path

    private let process: Process
    private let stdoutText = OutputBuffer()
    private let stderrText = OutputBuffer()

    /// Starts the binary with `arguments`, directly or `under` a wrapper command such as
    /// `["/usr/bin/unshare", "--pid", "--fork"]`.
    init(_ arguments: [String], under wrapper: [String] = []) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrapper.first ?? Self.path)
        process.arguments = wrapper.isEmpty ? arguments : wrapper.dropFirst() + [Self.path] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        self.process = process
        Self.collect(out, into: stdoutText)
        Self.collect(err, into: stderrText)
        try process.run()
    }

    private static func collect(_ pipe: Pipe, into buffer: OutputBuffer) {
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                buffer.ended.store(true, ordering: .releasing)
                return
            }
            buffer.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
    }

    var stdout: String { stdoutText.text.withLock { $0 } }
    var stderr: String { stderrText.text.withLock { $0 } }
    var pid: Int32 { process.processIdentifier }

    /// The first stdout line starting with `prefix`, waiting for it up to ``Waiting/limit``.
    func line(startingWith prefix: String) -> String? {
        Waiting.value { self.stdout.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init) }
    }

    /// The URL of `serve`'s `listening on URL` line, waiting for it up to ``Waiting/limit``.
    var url: String? {
        line(startingWith: "listening on ").map { String($0.dropFirst("listening on ".count)) }
    }

    /// Stops `serve` with SIGTERM; its exit status (nil if it is still running after ``Waiting/limit``).
    func terminate() -> Int32? {
        kill(SIGTERM)
        return exitStatus()
    }

    /// The first stdout line containing `text` (in any `--log-format`), waiting for it up to ``Waiting/limit``.
    func line(containing text: String) -> String? {
        Waiting.value { self.stdout.split(separator: "\n").first { $0.contains(text) }.map(String.init) }
    }

    /// The exit status, waiting for the exit up to ``Waiting/limit``; nil if still running. Once
    /// it has exited, what it wrote is read to the pipes' end first, so `stdout` and `stderr` hold
    /// all of it (a child it left running may hold a pipe open: then up to the limit as well).
    func exitStatus() -> Int32? {
        guard let status = Waiting.value({ self.process.isRunning ? nil : self.process.terminationStatus }) else { return nil }
        _ = Waiting.until { self.stdoutText.ended.load(ordering: .acquiring) && self.stderrText.ended.load(ordering: .acquiring) }
        return status
    }

    /// Whether the process is still running now.
    var isRunning: Bool { process.isRunning }

    func kill(_ signal: Int32) { Glibc.kill(process.processIdentifier, signal) }

    deinit {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    /// Runs the binary to completion: (status, stdout, stderr).
    static func run(_ arguments: [String]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // A command that hangs is killed, so the test fails instead of waiting for ever.
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Waiting.seconds)) {
            if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        }
        // Both pipes are read to their end at once: a child blocked on a full pipe would never exit.
        let errors = Mutex(Data())
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errors.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() } }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors.withLock { $0 }, as: UTF8.self))
    }
}

/// Text a pipe's handler thread appends to while the test reads it, and whether it reached the end.
private final class OutputBuffer: Sendable {
    let text = Mutex("")
    let ended = Atomic(false)
}
