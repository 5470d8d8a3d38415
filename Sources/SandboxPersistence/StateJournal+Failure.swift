package import Dispatch
import SandboxBank
import SandboxWire
import Synchronization

// When the disk fails (Running it, "When the disk fails"): the journal refuses what it could not
// write (Journal+Failure), and this undoes it in memory the one way that cannot miss anything:
// the file's durable records are replayed into fresh parts, as a restart would, and that state
// is put in force while nothing can change. Changes are then refused (a `SaveRefusal`, which each
// API answers in its format: HTTP 503, gRPC UNAVAILABLE) until a retry (each second, and at each
// change asked for) finds that the disk takes writes again.
extension StateJournal {
    /// What undoes refused changes, and what is told when the journal writes again.
    struct Undoing: Sendable {
        let queue: DispatchQueue
        /// Fresh parts to replay the file into, and the snapshot of what they then hold.
        let scratch: @Sendable () -> (Replay, @Sendable () -> SandboxSnapshot)
        /// Puts a snapshot in force, calling its argument while nothing can change.
        let adopt: @Sendable (SandboxSnapshot, () -> Void) -> Void
        var writingAgain: [@Sendable () -> Void] = []
        /// Writes fail, and the line that says so is written.
        var failing = false
        /// A retry is due on `queue`.
        var retrying = false
        /// The state the file held at the last undo, and the durable count it was read at: while
        /// nothing more is written, the next undo puts it in force again without reading the file.
        var durable: (count: Int, snapshot: SandboxSnapshot)?
    }

    /// How long after a failed try the journal tries again by itself.
    static let retryInterval = DispatchTimeInterval.seconds(1)

    /// From now on, a failed write is undone in memory on `queue` (where admin changes run),
    /// with `scratch` and `adopt` (see `Undoing`).
    package func undoFailedWrites(on queue: DispatchQueue, scratch: @escaping @Sendable () -> (Replay, @Sendable () -> SandboxSnapshot),
                                  adopt: @escaping @Sendable (SandboxSnapshot, () -> Void) -> Void) {
        undoing.withLock { $0 = Undoing(queue: queue, scratch: scratch, adopt: adopt) }
        journal.whenFailing { [weak self] in
            guard let self else { return }
            queue.async { self.undo() }
        }
    }

    /// Calls `handler` each time the journal writes again after failing (the clock driver, which
    /// waits meanwhile).
    package func whenWritingAgain(_ handler: @escaping @Sendable () -> Void) {
        undoing.withLock { $0?.writingAgain.append(handler) }
    }

    /// Why changes are refused now, after one more try to write (unless another is under way:
    /// one at a time, so that a slow disk holds up one request, not every one); nil when the
    /// journal writes.
    package func refusal() -> SaveRefusal? {
        guard let failure = journal.failure else { return nil }
        guard !healing.exchange(true, ordering: .acquiring) else { return SaveRefusal(failure) }
        defer { healing.store(false, ordering: .releasing) }
        guard let error = journal.heal() else {
            writingAgain()
            return nil
        }
        return SaveRefusal(error)
    }

    /// Replays the durable records into fresh parts and puts their state in force; the refused
    /// records' waiters are then told.
    private func undo() {
        guard let undoing = undoing.withLock({ $0 }) else { return }  // stopped
        let count = journal.counts.durable  // nothing is written while the journal fails
        let durable: SandboxSnapshot
        if let last = undoing.durable, last.count == count {
            durable = last.snapshot
        } else {
            let (replay, snapshot) = undoing.scratch()
            var replayer = Replayer(replay)
            do {
                try journal.forDurableRecords { payload, version in _ = try replayer.replay(payload, version: version) }
            } catch {
                // The file cannot be read back, so memory cannot be made to match it: refused answers wait.
                Self.log("warning: journal: \(journal.path) cannot be read back to undo the changes not saved (\(error)); trying again")
                undoing.queue.asyncAfter(deadline: .now() + Self.retryInterval) { [weak self] in self?.undo() }
                return
            }
            replay.bank.finishReplay()
            durable = snapshot()
            self.undoing.withLock { $0?.durable = (count, durable) }
        }
        var refuse: (@Sendable () -> Void)?
        undoing.adopt(durable) { refuse = journal.refuseUnwritten() }
        // Not adopted (a scenario of this very sandbox that no longer loads: never seen): the
        // answers are let go all the same rather than held for ever.
        (refuse ?? journal.refuseUnwritten())()
        let first = self.undoing.withLock { state -> Bool in
            defer { state?.failing = true }
            return state?.failing == false
        }
        if first, let failure = journal.failure {
            Self.log("warning: journal: writes to \(journal.path) fail (\(failure)); changes are refused with 503 until the disk "
                     + "takes writes again (tried each second)")
        }
        retryLater()
    }

    /// Tries to write again in a while, until the journal writes.
    private func retryLater() {
        let queue = undoing.withLock { state -> DispatchQueue? in
            guard let current = state, !current.retrying else { return nil }
            state?.retrying = true
            return current.queue
        }
        queue?.asyncAfter(deadline: .now() + Self.retryInterval) { [weak self] in
            guard let self, undoing.withLock({ $0 }) != nil else { return }  // stopped
            undoing.withLock { $0?.retrying = false }
            if refusal() == nil { writingAgain() } else { retryLater() }
        }
    }

    /// The journal writes again: said once, and handed on.
    private func writingAgain() {
        let handlers = undoing.withLock { state -> [@Sendable () -> Void]? in
            guard state?.failing == true else { return nil }
            state?.failing = false
            return state?.writingAgain
        }
        guard let handlers else { return }
        let health = journal.health
        Self.log("journal: \(journal.path) takes writes again (\(health.failedWrites) failed writes so far, "
                 + "\(Int(health.failingSeconds.rounded())) s failing in all)")
        for handler in handlers { handler() }
    }

    static func log(_ line: String) {
        StandardOutput.writeError(Array("\(line)\n".utf8))
    }
}
