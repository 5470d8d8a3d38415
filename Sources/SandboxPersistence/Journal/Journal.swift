import Dispatch
import Glibc
import Synchronization
import SandboxSupport

/// An append-only journal file with group commit and compaction.
///
/// `append` adds a record to the next batch; one thread writes each batch with a single `write`
/// and `fdatasync`, then calls the `whenDurable` callbacks it makes due. While a batch is being synced,
/// new records gather into the next one, so many concurrent writers share each sync (see
/// Journal+Writer). The file is filled with zeros a little ahead of its records, so that a sync
/// need not write its size (see Journal+Reservation).
///
/// Compaction replaces the file with a shorter one that starts with records standing for
/// everything before them (a snapshot), while appends go on: see `beginCompaction`.
///
/// ```swift
/// let (journal, recovery) = try Journal.open(path: "state/journal.log") { payload, version in apply(payload) }
/// journal.append({ $0 += Array("hello".utf8) }) { error in respond(error == nil ? 200 : 500) }
/// ```
package final class Journal: Sendable {
    /// What `open` found: the records replayed, and the tail it dropped, if any.
    package struct Recovery: Sendable, Equatable {
        /// Whole records replayed.
        package var records = 0
        /// Bytes of whole records (the header included).
        var validBytes = 0
        /// Bytes after the last whole record that were cut off the file.
        var droppedBytes = 0
        /// Why they were dropped, and where the dropped bytes were kept (`<path>.dropped-<offset>`).
        package var problem: String?
        /// The file's version as opened. One older than `JournalFormat.currentVersion` must be
        /// compacted (rewritten in the current one) before anything is appended to it.
        package var version = JournalFormat.currentVersion
    }

    /// A `whenDurable` callback: due once `count` records are on disk; `answers` say how many
    /// clients wait on it (see `writeBatches`).
    struct Waiter {
        let count: Int
        let answers: Int
        let done: @Sendable (JournalError?) -> Void
    }

    struct Batch {
        var bytes: [UInt8] = []
        /// Every callback not yet due, whichever batch it waits for (see `writeBatches`).
        var waiters: [Waiter] = []
        var writing = false
        /// Why the journal cannot write now (see Journal+Failure); nil while it can.
        var failure: JournalError?
        /// What the journal keeps while it fails, and of failures past (see Journal+Failure).
        var failing = Failing()
        /// The file's size up to its last durable record: where a failed write is cut back to.
        var durableBytes = 0
        /// With a compaction under way: the bytes of the records appended since it began that are
        /// not in the new file yet.
        var kept: [UInt8]?
        /// The file's size once the bytes taken so far are written (the end of its records).
        var fileBytes = 0
        /// Where the zeros written ahead of the records end (see Journal+Reservation).
        var reservedEnd = 0
        /// Called once the file grows past `growthLimit` (see `whenLarger`).
        var growthLimit = Int.max
        var growthHandler: (@Sendable () -> Void)?
        /// What the journal's thread keeps while it is stopped (see `writeBatches`).
        var writer = WriterState()
        /// What each batch's callbacks run inside (see `runCallbacks(in:)`). A field, not a
        /// `Mutex` of its own: a function stored as a generic value is rewrapped in a thunk at
        /// each `withLock`, one more each time.
        var callbackScope: @Sendable (_ callbacks: () -> Void) -> Void = { callbacks in callbacks() }
    }

    /// The file's path.
    package let path: String
    /// The open file; replaced by a compaction, on the journal's thread.
    let fd: Mutex<Int32>
    let batch = Mutex(Batch())
    let writer = DispatchQueue(label: "journal-writer")
    let syncs = Mutex(SyncHistogram())
    /// Records appended since opening, and how many of them are on disk: changed under `batch`'s
    /// lock, read without it (every durable answer reads them, on the event loops).
    let appended = Atomic<Int>(0)
    let durable = Atomic<Int>(0)
    /// Set with `Batch.failure`, under the lock, and read without it (see `failure`).
    let hasFailed = Atomic<Bool>(false)
    /// The highest count of records refused after a failed write (see `fate(of:)`), read without the lock.
    let refusedThrough = Atomic<Int>(0)
    /// The file operations (the system's, or a test's that fails them).
    let files: JournalFiles

    private init(path: String, fd: Int32, size: Int, files: JournalFiles) {
        self.path = path
        self.fd = Mutex(fd)
        self.files = files
        batch.withLock { batch in
            batch.fileBytes = size
            batch.reservedEnd = size
            batch.durableBytes = size
        }
    }

    deinit { fd.withLock { _ = Glibc.close($0) } }

    /// Opens (or creates) the journal at `path` and passes each whole record's payload to `replay`,
    /// in order (reading the file a chunk at a time: `JournalReader`), with the file's version (`JournalFormat.readableVersions`; a new file gets the
    /// current one; a file of a version this build does not read is refused, untouched). A torn or corrupt tail is reported in the
    /// `Recovery`, copied to `<path>.dropped-<offset>` and cut off, so appends continue after the last whole record.
    /// A whole record that `replay` refuses (by throwing, having changed nothing) is not skipped:
    /// the opening fails with `JournalError.unreplayable`, which says where, unless `recover` is
    /// set: then that record and every one after it are copied to `<path>.unreplayed-<offset>`
    /// and cut off, as a torn tail is. A compaction's unfinished file (`<path>.compacting`) is removed.
    static func open(path: String, files: JournalFiles = .system, recover: Bool = false,
                            replay: (_ payload: UnsafeRawBufferPointer, _ version: UInt32) throws -> Void) throws -> (Journal, Recovery) {
        let fd = files.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw JournalError.system("open \(path)", errno) }
        var closeOnFailure = true
        defer { if closeOnFailure { Glibc.close(fd) } }
        unlink("\(path).compacting")  // a compaction the last process did not finish
        var recovery = Recovery()
        if try fileSize(fd, path: path) == 0 {
            do {
                try writeAll(fd, JournalFormat.header, at: 0, path: path, files: files)
                try sync(fd, path: path, files: files)
                try syncDirectory(of: path, files: files)
            } catch {
                unlink(path)  // no journal of one torn header left behind
                throw error
            }
        }
        let header = try JournalReader.header(of: fd, path: path)
        guard let version = JournalFormat.version(of: header) else { throw JournalError.notAJournal(path) }
        guard JournalFormat.readableVersions.contains(version) else { throw JournalError.unreadableVersion(path: path, version: version) }
        recovery.version = version
        var refused: String?  // why the record where the replay stopped cannot be replayed
        var records = JournalReader(fd: fd, path: path, from: header.count)
        let (offset, problem) = try records.forRecords { payload -> Bool in
            do {
                try replay(payload, version)
            } catch {
                refused = "\(error)"
                return false
            }
            recovery.records += 1
            return true
        }
        if let refused, !recover {
            throw JournalError.unreplayable(path: path, record: recovery.records + 1, offset: offset, reason: refused)
        }
        recovery.validBytes = offset
        if refused == nil, problem != nil, try Reservation.holds(fd, from: offset, path: path) {
            // Zeros reserved ahead of the records, which a crash left (see Journal+Reservation).
            guard files.truncate(fd, offset) == 0 else { throw JournalError.system("truncate \(path)", errno) }
        } else if refused != nil || problem != nil {
            let kept = "\(path).\(refused == nil ? "dropped" : "unreplayed")-\(offset)"
            let size = try fileSize(fd, path: path)
            recovery.droppedBytes = size - offset
            let what = refused.map { "record \(recovery.records + 1) cannot be replayed (\($0))" } ?? "\(problem!)"
            recovery.problem = "\(what) at byte \(offset) after record \(recovery.records); "
                + "dropped the last \(recovery.droppedBytes) bytes (kept in \(kept))"
            try keep(fd, from: offset, to: size, at: kept, path: path, files: files)
            guard files.truncate(fd, offset) == 0 else { throw JournalError.system("truncate \(path)", errno) }
            try sync(fd, path: path, files: files)
        }
        closeOnFailure = false
        return (Journal(path: path, fd: fd, size: offset, files: files), recovery)
    }

    /// Adds a record holding the bytes `write` appends, to the next batch, and calls `whenDurable`
    /// (on the journal's thread) once it is on disk, or with the error that keeps it from getting
    /// there once it is refused (while the journal fails, the record is not added, though it is
    /// counted in `counts.appended`, and refused once its owner has undone it: Journal+Failure).
    /// Records reach the file in the order `append` was called.
    package func append(_ write: (inout [UInt8]) -> Void, whenDurable: (@Sendable (JournalError?) -> Void)? = nil) {
        withoutActuallyEscaping(write) { enqueue($0, whenDurable: whenDurable) }
    }

    /// Calls `done` (on the journal's thread) once every record appended so far is on disk, or with
    /// the error that keeps them from getting there once they are refused (at once, on the calling
    /// thread, when their fate is known already). Does not wait.
    func whenDurable(_ done: @escaping @Sendable (JournalError?) -> Void) {
        enqueue(nil, whenDurable: done)
    }

    /// Calls `done` once the first `count` records appended are on disk (`count` at most
    /// `counts.appended`, read after appending them): on the journal's thread right after the sync
    /// that writes the last of them, even if that sync had begun before this call; at once, on the
    /// calling thread, when they already are, or when they were refused (with the error: Journal+Failure).
    /// `answers` is about how many clients wait on it: syncs are spaced while several do (see
    /// `writeBatches`). (Records a compaction's switch writes make their waits due on the thread
    /// that finishes the compaction.)
    func whenDurable(count: Int, answers: Int, _ done: @escaping @Sendable (JournalError?) -> Void) {
        let due = batch.withLock { batch in
            Self.wait(for: count, answers: answers, done, in: &batch, decided: decided(batch))
        }
        if due { done(refusal(of: count)) }
    }

    /// Blocks until every record appended so far is on disk (or refused); returns the error, if any.
    @discardableResult
    package func waitUntilDurable() -> JournalError? {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<JournalError?>(nil)
        enqueue(nil) { error in
            result.withLock { $0 = error }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
    }

    /// Adds the record (if any) to the next batch, starting the writer if idle, and the callback,
    /// due once everything appended so far is on disk or refused (at once when it is).
    private func enqueue(_ write: ((inout [UInt8]) -> Void)?, whenDurable: (@Sendable (JournalError?) -> Void)?) {
        let (start, due, failed) = batch.withLock { batch -> (start: Bool, due: Bool, failed: Failed?) in
            if batch.failure != nil {
                // Counted, not written: it is refused once what it changed is undone (Journal+Failure).
                if write != nil { appended.add(1, ordering: .relaxed) }
                let failed = write == nil ? nil : unwrittenAppended(&batch)
                let due = whenDurable.map { Self.wait(for: appended.load(ordering: .relaxed), answers: 1, $0, in: &batch, decided: decided(batch)) }
                return (false, due ?? false, failed)
            }
            if let write {
                let start = batch.bytes.count
                JournalFormat.appendRecord(to: &batch.bytes, write)
                appended.add(1, ordering: .relaxed)
                batch.kept?.append(contentsOf: batch.bytes[start...])
            }
            let due = whenDurable.map {
                Self.wait(for: appended.load(ordering: .relaxed), answers: 1, $0, in: &batch, decided: decided(batch))
            } ?? false
            guard !batch.writing, !batch.bytes.isEmpty else { return (false, due, nil) }
            batch.writing = true
            return (true, due, nil)
        }
        failed?.tell()
        if due { whenDurable?(refusal(of: appended.load(ordering: .relaxed))) }
        if start { writer.async { self.writeBatches() } }
    }

    /// Adds a waiter for `count` records to `batch` unless their fate is `decided` already (on
    /// disk, or refused): then true (call it now).
    static func wait(for count: Int, answers: Int, _ done: @escaping @Sendable (JournalError?) -> Void,
                     in batch: inout Batch, decided: Int) -> Bool {
        guard count > decided else { return true }
        batch.waiters.append(Waiter(count: count, answers: answers, done: done))
        return false
    }

    /// Why the journal cannot write now, if it cannot (see Journal+Failure). Read without the lock
    /// while it can (a response held for a sync asks).
    package var failure: JournalError? {
        hasFailed.load(ordering: .acquiring) ? batch.withLock { $0.failure } : nil
    }

    /// Records appended since opening, and how many of them are on disk. A record the caller
    /// appended is counted in the first; it is durable once the second reaches that count.
    package var counts: (appended: Int, durable: Int) {
        (appended.load(ordering: .relaxed), durable.load(ordering: .acquiring))
    }

    /// How long each `fdatasync` has taken since opening, as a histogram (for metrics).
    package var syncHistogram: SyncHistogram { syncs.withLock { $0 } }

    /// Counts of `fdatasync` durations: `counts[i]` is how many took at most `bounds[i]` seconds
    /// (and more than the bound before); the last count is the rest.
    package struct SyncHistogram: Sendable, Equatable {
        package static let bounds: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]
        package var counts = [UInt64](repeating: 0, count: bounds.count + 1)
        package var sum: Double = 0
        package var count: UInt64 { counts.reduce(0, +) }

        mutating func add(_ seconds: Double) {
            counts[Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count] += 1
            sum += seconds
        }
    }

    // MARK: - Compaction

    /// The file's size, counting the records taken for writing.
    package var size: Int { batch.withLock { $0.fileBytes } }

    /// Calls `handler` once, on the journal's thread, when the file grows past `bytes` (to start
    /// a compaction, for instance, elsewhere: `finishCompaction` waits for the journal's thread).
    func whenLarger(than bytes: Int, _ handler: @escaping @Sendable () -> Void) {
        batch.withLock { batch in
            batch.growthLimit = bytes
            batch.growthHandler = handler
        }
    }

    /// Marks where the first records of a compacted file will stand: they replace every record
    /// appended before this call, and the records appended after it follow them. Call it where
    /// appends are ordered with the state those records describe (under the lock the appends
    /// are made under). False when a compaction is already under way.
    func beginCompaction() -> Bool {
        batch.withLock { batch in
            guard batch.kept == nil else { return false }
            batch.kept = []
            return true
        }
    }

    /// Replaces the file with one holding the records `firstRecords` hands to its argument (whole
    /// records, as `JournalFormat.appendRecord` frames them, a part at a time: each part is written
    /// as it comes, so a large snapshot is never in memory whole) and then every record appended
    /// since `beginCompaction`, and appends to it from then on. The new file is written next to the
    /// old one while appends go on, synced, and renamed over it: a crash at any moment leaves one
    /// whole journal or the other. On failure the old file stays in use. Returns the new file's
    /// size. (Should the folder fail to sync after the rename, the journal fails as a failed
    /// `fdatasync` would: what only the new file holds is cut and refused, and the folder is
    /// synced before the journal writes again: Journal+Failure.)
    @discardableResult
    func finishCompaction(firstRecords: (_ write: ([UInt8]) -> Void) -> Void) throws(JournalError) -> Int {
        let temporary = "\(path).compacting"
        let newFD = files.open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard newFD >= 0 else {
            batch.withLock { $0.kept = nil }
            throw .system("open \(temporary)", errno)
        }
        var keepNew = false
        defer {
            if !keepNew {
                Glibc.close(newFD)
                unlink(temporary)
                batch.withLock { $0.kept = nil }
            }
        }
        try Self.writeAll(newFD, JournalFormat.header, at: nil, path: temporary, files: files)
        var written = JournalFormat.header.count
        var failure: JournalError?
        firstRecords { part in
            guard failure == nil else { return }
            do throws(JournalError) {
                try Self.writeAll(newFD, part, at: nil, path: temporary, files: files)
                written += part.count
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        // Outside the journal's thread, while syncs go on: the records appended meanwhile (each
        // part as it is taken off `kept`), then a sync of it all. The switch, which holds up every
        // sync, then writes and syncs only what came after.
        while true {
            let part = batch.withLock { batch -> [UInt8] in
                guard let kept = batch.kept else { return [] }
                batch.kept = []
                return kept
            }
            if part.isEmpty { break }
            try Self.writeAll(newFD, part, at: nil, path: temporary, files: files)
            written += part.count
            if part.count < Self.catchUpEnough { break }
        }
        try Self.sync(newFD, path: temporary, files: files)
        // The switch, between two batches: the records still kept go to the new file too. Every
        // byte not yet written to the old file is now in the new one (a record appended before
        // `beginCompaction` in the first records, after it in `kept`), so the batch drops them.
        var replaced: Int32?  // the old file's descriptor, closed once syncs go on
        let result = writer.sync { () -> Result<Int, JournalError> in
            let (tail, pending, moved, failed) = batch.withLock { batch in
                (batch.kept, batch.bytes.count, appended.load(ordering: .relaxed), batch.failure)
            }
            // A write failed since the compaction began (which drops `kept`): its snapshot may hold
            // changes that are refused, so the old file stays.
            if let failed { return .failure(failed) }
            guard let tail else { return .failure(.system("compact \(path)", ECANCELED)) }
            do throws(JournalError) {
                try Self.writeAll(newFD, tail, at: nil, path: temporary, files: files)
                try Self.sync(newFD, path: temporary, files: files)
                guard files.rename(temporary, path) == 0 else { throw .system("rename \(temporary) to \(path)", errno) }
            } catch {
                return .failure(error)
            }
            // Renamed: the new file is the journal now, whatever happens next.
            keepNew = true
            replaced = fd.withLock { old in
                defer { old = newFD }
                return old
            }
            let size = written + tail.count
            var directoryFailure: JournalError?
            do throws(JournalError) { try Self.syncDirectory(of: path, files: files) } catch { directoryFailure = error }
            var due: [Waiter] = []
            let (scope, directoryFailed) = batch.withLock { batch in
                batch.bytes.removeFirst(pending)  // only this thread takes bytes off the batch
                batch.kept = nil
                batch.fileBytes = size
                batch.reservedEnd = size
                batch.durableBytes = size
                if let directoryFailure {
                    // Without the folder's entry on disk, a crash may bring the old file back: the
                    // records the batch dropped (the new file's last `pending` bytes) are cut and
                    // refused, and the entry is synced before the journal writes again.
                    batch.durableBytes = size - pending
                    batch.failing.cutNeeded = true
                    batch.failing.folderNeeded = true
                    return (batch.callbackScope, Optional(fail(&batch, directoryFailure)))
                }
                durable.store(moved, ordering: .releasing)  // the records the batch dropped are on disk
                Self.move(&batch.waiters, upTo: moved, into: &due)
                return (batch.callbackScope, nil)
            }
            scope { for waiter in due { waiter.done(nil) } }
            directoryFailed?.tell()
            return .success(size)
        }
        // The last descriptor of a file renamed over: closing it frees the file's blocks.
        if let replaced { Glibc.close(replaced) }
        return try result.get()
    }

    /// Bytes of records appended during a compaction under which it stops catching up with
    /// them outside the journal's thread (see `finishCompaction`).
    static let catchUpEnough = 256 << 10

    // MARK: - Files

    private static func fileSize(_ fd: Int32, path: String) throws(JournalError) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system("stat \(path)", errno) }
        return Int(info.st_size)
    }

    /// Writes every byte, at `offset` or (nil) at the file position.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int?, path: String, files: JournalFiles) throws(JournalError) {
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                files.write(fd, buffer.baseAddress! + done, buffer.count - done, at: offset.map { $0 + done })
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw .system("write \(path)", count == 0 ? EIO : errno) }
            done += count
        }
    }

    static func sync(_ fd: Int32, path: String, files: JournalFiles) throws(JournalError) {
        while files.sync(fd) != 0 {
            guard errno == EINTR else { throw .system("fdatasync \(path)", errno) }
        }
    }

    /// Makes a new file's directory entry durable.
    static func syncDirectory(of path: String, files: JournalFiles) throws(JournalError) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? "."
        let fd = files.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .system("open \(directory)", errno) }
        defer { Glibc.close(fd) }
        guard files.sync(fd, full: true) == 0 else { throw .system("fsync \(directory)", errno) }
    }

    /// Copies the bytes of `fd` (the journal at `path`) from `start` to `end` into a new file at `kept`, a chunk at a time.
    private static func keep(_ fd: Int32, from start: Int, to end: Int, at kept: String, path: String,
                             files: JournalFiles) throws(JournalError) {
        let copy = files.open(kept, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard copy >= 0 else { throw .system("open \(kept)", errno) }
        defer { Glibc.close(copy) }
        var chunk = [UInt8](repeating: 0, count: min(end - start, JournalReader.defaultChunkSize))
        var done = start
        while done < end {
            let count = try JournalReader.read(fd, into: &chunk, at: 0, fileOffset: done, path: path)
            guard count > 0 else { throw .system("read \(path)", EIO) }
            try writeAll(copy, Array(chunk[..<min(count, end - done)]), at: done - start, path: kept, files: files)
            done += count
        }
        try sync(copy, path: kept, files: files)
    }

    static func monotonicSeconds() -> Double {
        Double(SystemClock.monotonicNanoseconds()) / 1e9
    }
}

/// Why the journal could not be read or written.
package enum JournalError: Error, Equatable, CustomStringConvertible {
    /// The names of the errors a disk gives, which a message shows beside their text (an
    /// operator searches for `ENOSPC`, not for its wording).
    static let names: [Int32: String] = [ENOSPC: "ENOSPC", EIO: "EIO", EROFS: "EROFS", EDQUOT: "EDQUOT", EACCES: "EACCES",
                                         EPERM: "EPERM", ENOTDIR: "ENOTDIR", ENOENT: "ENOENT", EFBIG: "EFBIG"]

    /// A system call failed: what was done, and errno.
    case system(String, Int32)
    /// The file is not empty and does not start with the journal header.
    case notAJournal(String)
    /// The file's version is one this build does not read: a newer build wrote it.
    case unreadableVersion(path: String, version: UInt32)
    /// A whole record (the `record`th, at byte `offset`) does not fit the state the records before
    /// it made, for `reason`.
    case unreplayable(path: String, record: Int, offset: Int, reason: String)

    package var description: String {
        switch self {
        case .system(let what, let code): "\(what): \(String(cString: strerror(code)))\(Self.names[code].map { " (\($0))" } ?? "")"
        case .notAJournal(let path): "\(path) is not a CashoutSandbox journal (it does not start with CSJ1)"
        case .unreadableVersion(let path, let version):
            "\(path) is in journal format \(version), which a newer CashoutSandbox wrote; this one reads formats "
                + "\(JournalFormat.readableVersions.lowerBound)-\(JournalFormat.readableVersions.upperBound). "
                + "Start that version on it, or start this one on an empty --state-dir (the folder is left as it is)"
        case .unreplayable(let path, let record, let offset, let reason):
            "\(path): record \(record), at byte \(offset), cannot be replayed: \(reason)"
        }
    }
}
