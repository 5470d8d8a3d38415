import Glibc
import Dispatch
import Synchronization
import SandboxSupport

// When a write fails (a full disk, an I/O error, a read-only remount), the journal keeps one truth
// about each change: a record acknowledged as durable is on disk, and a record refused is neither
// on disk nor, once its owner has undone it, in memory (Running it, "When the disk fails").
//
// - The failed batch, and everything appended after it, is refused. The file is cut back to its
//   last durable record (`ftruncate`), so a restart replays nothing refused; should the cut itself
//   fail, it is tried again before the journal writes anything more.
// - The owner is told (`whenFailing`): it undoes in memory whatever the refused records changed,
//   and calls `refuseUnwritten` while nothing can change. Only then are their waiters told of the
//   failure: an answer "not saved" never leaves while memory still holds the change. Each record
//   appended while the journal fails tells the owner again (a request that was under way).
// - `heal` tries again: once a probe write and sync of the space the next records will take
//   succeed, the journal writes again, with no restart.
//
// Without an owner (`whenFailing` never called), records are refused at once, as they come.
extension Journal {
    /// What a record's fate is: on disk, refused (with why), or not yet known.
    enum Fate: Equatable, Sendable {
        case durable
        case refused(JournalError)
        case pending
    }

    /// The journal's failures, for health checks and metrics.
    package struct Health: Sendable, Equatable {
        /// Why writes fail now; nil while they succeed.
        package var failure: JournalError?
        /// Since when (seconds since 1970) writes fail, while they do.
        package var since: Double?
        /// Writes and syncs that failed since opening (a failed batch, a failed try to heal).
        package var failedWrites = 0
        /// Seconds spent failing since opening, the current failure included.
        package var failingSeconds = 0.0
    }

    /// What the journal keeps while it fails, and of failures past.
    struct Failing {
        /// Told when records must be undone (see `whenFailing`); nil: refuse them at once.
        var handler: (@Sendable () -> Void)?
        /// The owner has been told, and has not refused them yet.
        var told = false
        /// The file still holds bytes past `durableBytes` that a cut did not remove (or did not
        /// sync): nothing is refused until a cut succeeds, or a restart could bring it back.
        var cutNeeded = false
        /// The folder's entry of a compacted file is not known to be on disk: synced before the
        /// journal writes again.
        var folderNeeded = false
        /// The owner undid the records, but they wait for the cut to be refused.
        var refusalOwed = false
        /// Tries to cut that failed in a row: after `cutTries`, what waits is refused all the same
        /// (an answer is owed; Running it, "When the disk fails", says what a restart may then bring back).
        var cutFailures = 0
        /// Counts of records refused, each range with its error, oldest first.
        var refused: [(range: ClosedRange<Int>, error: JournalError)] = []
        var since: Double?
        var startedMonotonic = 0.0
        var failedWrites = 0
        var failedSeconds = 0.0
    }

    /// What to do once the lock is let go: tell the owner, or call the waiters refused.
    struct Failed {
        var handler: (@Sendable () -> Void)?
        var due: [Waiter] = []
        var error: JournalError?
        var scope: @Sendable (_ callbacks: () -> Void) -> Void = { $0() }

        func tell() {
            handler?()
            guard !due.isEmpty else { return }
            scope { for waiter in due { waiter.done(error) } }
        }
    }

    /// Calls `handler` (on any thread, outside the journal's locks) each time records must be
    /// undone: when a write fails, and when a record is appended while the journal fails. The
    /// handler undoes their changes and calls `refuseUnwritten` while nothing can change.
    func whenFailing(_ handler: @escaping @Sendable () -> Void) {
        batch.withLock { $0.failing.handler = handler }
    }

    /// Refuses every record appended and not on disk: their waiters are told the failure once the
    /// returned function is called (call it outside the caller's locks). Call it while nothing can
    /// be appended (under the lock the appends are made under), once their changes are undone.
    func refuseUnwritten() -> @Sendable () -> Void {
        let failed = batch.withLock { batch -> Failed in
            batch.failing.told = false
            guard !batch.failing.cutNeeded else {
                batch.failing.refusalOwed = true  // refused once `heal` has cut the file back
                return Failed()
            }
            return refuse(&batch)
        }
        return { failed.tell() }
    }

    /// Tries to write again: cuts the file back if a cut is owed, then writes and syncs zeros where
    /// the next records go (see Journal+Reservation). Returns nil when the journal writes again (or
    /// never failed), else why not. Records not yet undone keep it failing.
    @discardableResult
    func heal() -> JournalError? {
        guard hasFailed.load(ordering: .acquiring) else { return nil }
        return writer.sync { () -> JournalError? in
            let (cut, folder, end, told) = batch.withLock { ($0.failing.cutNeeded, $0.failing.folderNeeded, $0.durableBytes, $0.failing.told) }
            if told { return failure }
            let zeros = Self.probeBytes
            var error: JournalError?
            var owed: Failed?
            do throws(JournalError) {
                let fd = fd.withLock { $0 }
                if cut {
                    guard files.truncate(fd, end) == 0 else { throw .system("truncate \(path)", errno) }
                    try Self.sync(fd, path: path, files: files)
                    // Cut back for good: what the owner undid may now be refused.
                    owed = batch.withLock { batch -> Failed in
                        batch.failing.cutNeeded = false
                        batch.failing.cutFailures = 0
                        guard batch.failing.refusalOwed else { return Failed() }
                        batch.failing.refusalOwed = false
                        return refuse(&batch)
                    }
                }
                if folder {
                    try Self.syncDirectory(of: path, files: files)
                    batch.withLock { $0.failing.folderNeeded = false }
                }
                try Self.writeAll(fd, [UInt8](repeating: 0, count: zeros), at: end, path: path, files: files)
                try Self.sync(fd, path: path, files: files)
            } catch let failed {
                error = failed
                if cut, owed == nil {  // the cut itself failed
                    owed = batch.withLock { batch -> Failed in
                        batch.failing.cutFailures += 1
                        guard batch.failing.refusalOwed, batch.failing.cutFailures >= Self.cutTries else { return Failed() }
                        batch.failing.refusalOwed = false
                        return refuse(&batch)
                    }
                }
            }
            owed?.tell()
            return batch.withLock { batch -> JournalError? in
                if let error {
                    batch.failure = error
                    batch.failing.failedWrites += 1
                    return error
                }
                batch.reservedEnd = end + zeros
                batch.fileBytes = end
                // Something appended meanwhile must be undone first, and refused.
                guard !batch.failing.told, !batch.failing.refusalOwed, decided(batch) >= appended.load(ordering: .relaxed) else {
                    return batch.failure
                }
                batch.failure = nil
                batch.failing.since = nil
                batch.failing.failedSeconds += Self.monotonicSeconds() - batch.failing.startedMonotonic
                hasFailed.store(false, ordering: .releasing)
                return nil
            }
        }
    }

    /// Makes sure the disk takes a write where the next records go (at start-up: a full or
    /// read-only disk is said then, not at the first change), leaving the file as it was on failure.
    func probe() throws(JournalError) {
        let end = batch.withLock { $0.durableBytes }
        let fd = fd.withLock { $0 }
        do throws(JournalError) {
            try Self.writeAll(fd, [UInt8](repeating: 0, count: Self.probeBytes), at: end, path: path, files: files)
            try Self.sync(fd, path: path, files: files)
        } catch {
            _ = files.truncate(fd, end)
            throw error
        }
        batch.withLock { $0.reservedEnd = end + Self.probeBytes }
    }

    /// Passes each durable record's payload to `replay`, in order, with the file's version: the
    /// state a restart would start from (call it while the journal fails, to undo what it refused).
    func forDurableRecords(_ replay: (_ payload: UnsafeRawBufferPointer, _ version: UInt32) throws -> Void) throws {
        let end = batch.withLock { $0.durableBytes }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw JournalError.system("open \(path)", errno) }
        defer { close(fd) }
        let header = try JournalReader.header(of: fd, path: path)
        guard let version = JournalFormat.version(of: header) else { throw JournalError.notAJournal(path) }
        var records = JournalReader(fd: fd, path: path, from: header.count, to: end)
        _ = try records.forRecords { payload in
            try replay(payload, version)
            return true
        }
    }

    /// How many tries to cut the file back fail before what waits for it is refused all the same.
    static let cutTries = 5

    /// What `probe` and `heal` write: a page.
    static let probeBytes = 4096

    /// The fate of the first `count` records appended: on disk, refused, or not known yet.
    func fate(of count: Int) -> Fate {
        if count > refusedThrough.load(ordering: .acquiring) {
            return count <= durable.load(ordering: .acquiring) ? .durable : .pending
        }
        return refusal(of: count).map { .refused($0) } ?? .durable
    }

    /// The journal's failures now and past.
    package var health: Health {
        batch.withLock { batch in
            let now = batch.failure == nil ? 0 : Self.monotonicSeconds() - batch.failing.startedMonotonic
            return Health(failure: batch.failure, since: batch.failing.since, failedWrites: batch.failing.failedWrites,
                          failingSeconds: batch.failing.failedSeconds + now)
        }
    }

    // MARK: - Under the lock

    /// The highest count whose fate is known (on disk, or refused).
    func decided(_ batch: Batch) -> Int {
        max(durable.load(ordering: .relaxed), batch.failing.refused.last?.range.upperBound ?? 0)
    }

    /// Why a record after the first `before` and up to the `through`th was refused, if any was:
    /// a response that waits for `through` records is refused when any of its own was.
    func refusal(after before: Int, through: Int) -> JournalError? {
        guard before < refusedThrough.load(ordering: .acquiring) else { return nil }
        return batch.withLock { batch in batch.failing.refused.last { $0.range.overlaps(before + 1 ... max(before + 1, through)) }?.error }
    }

    /// Why the record `count` was refused; nil when it was not.
    func refusal(of count: Int) -> JournalError? {
        guard count <= refusedThrough.load(ordering: .acquiring) else { return nil }
        return batch.withLock { batch in batch.failing.refused.last { $0.range.contains(count) }?.error }
    }

    /// The journal fails with `error`: what is not on disk is dropped, and refused once undone.
    /// (The writer has cut the file back, or noted that the cut is owed.)
    func fail(_ batch: inout Batch, _ error: JournalError) -> Failed {
        if batch.failure == nil {
            batch.failing.since = Self.wallSeconds()
            batch.failing.startedMonotonic = Self.monotonicSeconds()
        }
        batch.failure = error
        batch.failing.failedWrites += 1
        hasFailed.store(true, ordering: .releasing)
        batch.bytes.removeAll()
        batch.kept = nil  // a compaction under way gives up (its snapshot may hold what is refused)
        batch.fileBytes = batch.durableBytes
        batch.reservedEnd = batch.durableBytes
        return unwrittenAppended(&batch)
    }

    /// Records were appended that are not on disk: the owner is told (once until it refuses them),
    /// or without one they are refused now.
    func unwrittenAppended(_ batch: inout Batch) -> Failed {
        guard let handler = batch.failing.handler else { return refuse(&batch) }
        if batch.failing.told { return Failed() }
        batch.failing.told = true
        return Failed(handler: handler)
    }

    /// Refuses every record appended and not on disk; their waiters are due.
    private func refuse(_ batch: inout Batch) -> Failed {
        let from = decided(batch) + 1
        let through = appended.load(ordering: .relaxed)
        guard from <= through, let error = batch.failure else { return Failed() }
        batch.failing.refused.append((from ... through, error))
        refusedThrough.store(through, ordering: .releasing)
        var failed = Failed(error: error, scope: batch.callbackScope)
        Self.move(&batch.waiters, upTo: through, into: &failed.due)
        return failed
    }

    /// Cuts the file back to its last durable record, after a failed write; false when it cannot.
    func cutBack(to end: Int) -> Bool {
        let fd = fd.withLock { $0 }
        return files.truncate(fd, end) == 0 && files.sync(fd) == 0
    }

    static func wallSeconds() -> Double {
        Double(SystemClock.wallNanoseconds()) / 1e9
    }
}
