import Glibc

/// The journal's file operations, in one place: `open`, `write`, `sync` (`fdatasync`, and the
/// `fsync` of the folder), `rename` and `truncate`. The system's by default; a test hands the
/// journal one whose `fault` makes any of them fail with any errno, to see that a failed write
/// loses nothing acknowledged and keeps nothing refused (Running it, "When the disk fails").
///
/// ```swift
/// let full = JournalFiles { operation in operation == .write ? ENOSPC : nil }
/// ```
package struct JournalFiles: Sendable {
    enum Operation: String, Sendable, CaseIterable {
        case open, write, sync, rename, truncate
    }

    /// Asked before each operation: an errno makes it fail with that errno, undone; nil lets it run.
    private let fault: (@Sendable (Operation) -> Int32?)?

    init(fault: (@Sendable (Operation) -> Int32?)? = nil) {
        self.fault = fault
    }

    /// The system's calls, unchanged.
    package static let system = JournalFiles()

    /// Whether the fault fails `operation`: then errno is set and true.
    private func fails(_ operation: Operation) -> Bool {
        guard let code = fault?(operation) else { return false }
        errno = code
        return true
    }

    func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        fails(.open) ? -1 : Glibc.open(path, flags, mode)
    }

    /// `mkdir` (a fault on `open` fails it too: both make a name in a folder).
    func makeFolder(_ path: String) -> Int32 {
        fails(.open) ? -1 : mkdir(path, 0o755)
    }

    /// `pwrite` at `offset`, or `write` at the file position when nil.
    func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, at offset: Int?) -> Int {
        if fails(.write) { return -1 }
        return offset.map { pwrite(fd, buffer, count, off_t($0)) } ?? Glibc.write(fd, buffer, count)
    }

    /// `fdatasync`, or `fsync` for a folder (`full`).
    func sync(_ fd: Int32, full: Bool = false) -> Int32 {
        fails(.sync) ? -1 : (full ? fsync(fd) : fdatasync(fd))
    }

    func rename(_ from: String, _ to: String) -> Int32 {
        fails(.rename) ? -1 : Glibc.rename(from, to)
    }

    func truncate(_ fd: Int32, _ size: Int) -> Int32 {
        fails(.truncate) ? -1 : ftruncate(fd, off_t(size))
    }
}
