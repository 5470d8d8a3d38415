import Glibc
import Synchronization

// The journal's thread: it takes everything appended since it last looked (the batch), writes it
// with one `write` and one `fdatasync` while the next batch gathers (group commit), then calls
// the callbacks waiting for records now on disk, all inside one `runCallbacks` scope, and looks
// again; it stops when nothing was appended, and the next append starts it.
//
// Per batch, not per record: one wake of this thread (none while it is busy), one write, one
// sync, one scope. Records are framed by `append` on the appending threads; here they are copied
// once, into the page cache.
extension Journal {
    /// Runs the `whenDurable` callbacks each sync makes due inside one call of `scope` (such as
    /// `HTTPResponse.answeringTogether`, so that the responses they let go leave together).
    func runCallbacks(in scope: @escaping @Sendable (_ callbacks: () -> Void) -> Void) {
        batch.withLock { $0.callbackScope = scope }
    }

    /// A batch taken for writing: its bytes, and the count of records appended once it is on disk.
    struct Taken {
        var bytes: [UInt8]
        let count: Int
        /// Where to write zeros ahead of the records, with them (see Journal+Reservation).
        var zeros: Range<Int>?
        /// Where the file's records start and end once it is written.
        let start: Int
        let end: Int
    }

    /// What the journal's thread keeps from one run of `writeBatches` to the next (it stops when
    /// nothing is left to write, and the next append starts it again).
    struct WriterState {
        /// The emptied buffer of the batch last written, which the next one gathers into: at a
        /// steady rate it never grows again (a batch starting from an empty buffer regrows it, with
        /// several reallocations, on the appending threads, each time). Let go above `largestSpare`.
        var spareBytes: [UInt8] = []
        static let largestSpare = 1 << 20
        /// The callbacks a sync makes due, emptied.
        var due: [Waiter] = []
        /// The clients the last sync let go and those left waiting, and when its write started.
        var answers = 0
        var lastSync = 0.0
    }

    /// The least time, in seconds, from one sync's start to the next one's while several
    /// clients wait on each (see `writeBatches`).
    static let syncInterval = 0.000_4

    /// The journal's thread: writes batches until there is none.
    func writeBatches() {
        var state = batch.withLock { batch in
            defer { batch.writer = WriterState() }
            return batch.writer
        }
        while true {
            // Several clients at once: at most one sync per `syncInterval` (2,500 a second), the
            // next batch gathering meanwhile. On a small machine a sync costs the CPU of a few
            // requests (the system calls, the device's interrupts, this thread's wake-ups), and a
            // fast disk syncs in 0.1 ms: unchecked, syncs of a handful of records each took that
            // CPU from the requests (.ci/bench state-dir on 2 cores: 6 records a sync, about 0.7 of
            // the in-memory rate; with the interval about 0.8). Two clients' requests wait 0.1 ms
            // more; a lone client's never wait for it.
            if state.answers > 1 { Self.sleep(until: state.lastSync + Self.syncInterval) }
            let started = Self.monotonicSeconds()
            let taken = batch.withLock { batch -> Taken? in
                guard !batch.bytes.isEmpty else {
                    batch.writing = false
                    batch.writer = state
                    return nil
                }
                var taken = Taken(bytes: batch.bytes, count: appended.load(ordering: .relaxed), start: batch.fileBytes,
                                  end: batch.fileBytes + batch.bytes.count)
                batch.fileBytes += batch.bytes.count
                if batch.fileBytes > batch.reservedEnd {
                    taken.zeros = batch.fileBytes ..< batch.fileBytes + Reservation.bytes(past: batch.fileBytes)
                    batch.reservedEnd = taken.zeros!.upperBound
                }
                batch.bytes = state.spareBytes
                return taken
            }
            guard var taken else { return }
            state.lastSync = started
            let failure = write(taken.bytes, at: taken.start, zeros: taken.zeros)
            // A failed write may have left part of the batch, or all of it: cut off (Journal+Failure).
            let cut = failure == nil || cutBack(to: taken.start)
            var failed: Failed?
            let (grown, scope) = batch.withLock { batch -> ((@Sendable () -> Void)?, @Sendable (() -> Void) -> Void) in
                if let failure {
                    batch.failing.cutNeeded = !cut
                    failed = fail(&batch, failure)
                } else {
                    durable.store(taken.count, ordering: .releasing)
                    batch.durableBytes = taken.end
                }
                Self.move(&batch.waiters, upTo: taken.count, into: &state.due)
                // A sync no one waits for yet (its clients' servers ask later) leaves the count as it was.
                let answers = state.due.reduce(0) { $0 + $1.answers } + batch.waiters.reduce(0) { $0 + $1.answers }
                if answers > 0 { state.answers = answers }
                guard batch.fileBytes > batch.growthLimit, let handler = batch.growthHandler else { return (nil, batch.callbackScope) }
                batch.growthHandler = nil
                return (handler, batch.callbackScope)
            }
            grown?()
            failed?.tell()
            scope { for waiter in state.due { waiter.done(nil) } }
            state.due.removeAll(keepingCapacity: true)
            taken.bytes.removeAll(keepingCapacity: taken.bytes.capacity <= WriterState.largestSpare)
            state.spareBytes = taken.bytes
        }
    }

    /// Writes zeros over `range` (see Journal+Reservation); false, with the file cut back to the
    /// range's start, when they do not fit: a disk too full for them may still take the records.
    private func reserve(_ range: Range<Int>) -> Bool {
        let fd = fd.withLock { $0 }
        do throws(JournalError) {
            try Self.writeAll(fd, [UInt8](repeating: 0, count: range.count), at: range.lowerBound, path: path, files: files)
            return true
        } catch {
            _ = files.truncate(fd, range.lowerBound)
            return false
        }
    }

    /// Moves the waiters due once `count` records are durable (or failed) from `waiters` to `due`, in order.
    static func move(_ waiters: inout [Waiter], upTo count: Int, into due: inout [Waiter]) {
        var kept = 0
        for waiter in waiters {
            if waiter.count <= count {
                due.append(waiter)
            } else {
                waiters[kept] = waiter
                kept += 1
            }
        }
        waiters.removeLast(waiters.count - kept)
    }

    private static func sleep(until deadline: Double) {
        let seconds = deadline - monotonicSeconds()
        if seconds > 0 { usleep(UInt32(seconds * 1e6)) }
    }

    /// Writes `bytes` at `offset` (the end of the records), and `zeros` if any, and syncs them; the error, if any.
    private func write(_ bytes: [UInt8], at offset: Int, zeros: Range<Int>?) -> JournalError? {
        do throws(JournalError) {
            try Self.writeAll(fd.withLock { $0 }, bytes, at: offset, path: path, files: files)
            if let zeros, !reserve(zeros) {
                batch.withLock { $0.reservedEnd = zeros.lowerBound }  // a full disk: the records are written, and synced below
            }
            let started = Self.monotonicSeconds()
            try Self.sync(fd.withLock { $0 }, path: path, files: files)
            let elapsed = Self.monotonicSeconds() - started
            syncs.withLock { $0.add(elapsed) }
            return nil
        } catch {
            return error
        }
    }
}
