package import Dispatch
import Glibc
package import SandboxBank
package import SandboxWire
package import Synchronization

/// The sandbox's state on disk (`serve --state-dir DIR`): `DIR/journal.log` holds the bank's
/// records and the admin changes the bank does not see (a scenario loaded, a reset, a snapshot
/// restored), in the order they were made. A change is on disk before the response that reports
/// it is sent: responses to requests that may change something wait for the journal's next sync,
/// which many requests share.
///
/// When the file has grown to twice its size after the last compaction (and past a minimum), it
/// is compacted: rewritten as a snapshot of the state, followed by the records made meanwhile.
///
/// It is the gate of the responses that wait for a sync: a response waiting for the first `n`
/// records appended goes once they are on disk (ticket `n`).
package final class StateJournal: ResponseGate {
    /// What a payload holds: its first byte.
    package enum Kind: UInt8, CaseIterable {
        case bank = 0
        case scenarioLoaded = 1
        case reset = 2
        /// A part of a `SandboxSnapshot` (restored, or what a compaction starts the file with).
        case snapshot = 3
    }

    package let journal: Journal
    package let recovery: Journal.Recovery
    /// The bytes of the snapshot the file starts with (0 when it does not).
    private let compactedBytes: Int
    /// Compactions since the start.
    package let compactions = Atomic<Int>(0)
    /// Where each part of the file's records goes, as it is replayed.
    package struct Replay {
        package let bank: Bank
        /// What a journaled reset starts the bank again with.
        let resetConfiguration: Bank.Configuration
        /// How the bank's records of each journal version read.
        let formats: BankFormat.Lookup
        /// The admin changes the bank does not see.
        package let admin: (Kind, UnsafeRawBufferPointer) throws -> Void
        /// A snapshot restored, or the one a compaction starts the file with.
        package let restore: (SandboxSnapshot) throws -> Void

        package init(bank: Bank, resetConfiguration: Bank.Configuration, formats: @escaping BankFormat.Lookup,
                     admin: @escaping (Kind, UnsafeRawBufferPointer) throws -> Void, restore: @escaping (SandboxSnapshot) throws -> Void) {
            self.bank = bank
            self.resetConfiguration = resetConfiguration
            self.formats = formats
            self.admin = admin
            self.restore = restore
        }
    }
    /// What undoes the changes of records refused after a failed write (StateJournal+Failure).
    let undoing = Mutex<Undoing?>(nil)
    /// A request is trying to write again (`refusal()`).
    let healing = Atomic<Bool>(false)
    /// The folder's lock (`flock`), held until `unlock`: one sandbox a folder. -1 once let go.
    private let lock: Mutex<Int32>

    deinit { unlock() }

    /// Lets the folder go, for another sandbox to start on it (a stopped one's last step): no
    /// retry writes to it from then on.
    package func unlock() {
        undoing.withLock { $0 = nil }
        lock.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    /// A record the replay refused: its kind, and why.
    struct ReplayFailure: Error, CustomStringConvertible {
        let kind: String
        let reason: any Error
        var description: String { "\(kind): \(reason)" }
    }

    /// Opens (or creates) the journal in `directory` and replays it: bank records onto `bank`,
    /// admin changes through `admin`, snapshots through `restore`. A record that cannot be
    /// replayed stops the opening (`JournalError.unreplayable` names it) unless `recover` is set:
    /// then the sandbox starts from the records before it, and it and the rest are kept aside.
    /// `formats` says how the bank's records of each journal version read.
    package init(directory: String, files: JournalFiles = .system, recover: Bool = false, replay: Replay) throws {
        var (compacted, leading) = (0, true)  // the snapshot records the file starts with, if any
        var replayer = Replayer(replay)
        let locked: Int32
        (journal, recovery, locked) = try StateDirectory.open(directory, files: files) { path in
            try Journal.open(path: path, files: files, recover: recover) { payload, version in
                let kind = try replayer.replay(payload, version: version)
                leading = leading && kind == .snapshot
                if leading { compacted += JournalFormat.recordHeaderSize + payload.count }
            }
        }
        compactedBytes = compacted
        lock = Mutex(locked)
        let bank = replay.bank
        bank.finishReplay()
        let journal = journal
        // The responses a sync lets go leave together: one wake-up per event loop.
        journal.runCallbacks { callbacks in HTTPResponse.answeringTogether(callbacks) }
        bank.startRecording { record in
            journal.append { bytes in
                bytes.append(Kind.bank.rawValue)
                record.encode(into: &bytes)
            }
        }
    }

    /// Journals a restored snapshot (call it in order with the bank's records: while the bank is locked).
    package func record(_ snapshot: SandboxSnapshot) {
        snapshot.forEachPayload { payload in journal.append { $0 += payload } }
    }

    /// Compacts the file on `queue` each time it has grown past `minimumBytes` and twice its size
    /// after the last compaction; `capture` takes the snapshot, calling its argument while nothing
    /// can change. A file of an older format is compacted first, at once: rewritten in the
    /// current one before anything is appended to it (the error says why that failed).
    package func compactAutomatically(minimumBytes: Int, on queue: DispatchQueue,
                              capture: @escaping @Sendable (_ whileLocked: () -> Void) -> SandboxSnapshot) throws(JournalError) {
        if recovery.version < JournalFormat.currentVersion { try compactNow(capture) }
        @Sendable func arm(compacted: Int) {
            journal.whenLarger(than: max(minimumBytes, 2 * compacted)) { [weak self] in
                guard let self else { return }
                queue.async { arm(compacted: self.compact(capture) ?? self.journal.size) }
            }
        }
        arm(compacted: compactedBytes)
    }

    /// Rewrites the file as a snapshot and the records made while it was written; returns the
    /// new size, or nil (and a warning) when the file could not be replaced.
    func compact(_ capture: (_ whileLocked: () -> Void) -> SandboxSnapshot) -> Int? {
        do throws(JournalError) {
            return try compactNow(capture)
        } catch {
            StandardOutput.writeError(Array("warning: journal compaction failed, the journal is kept as it was: \(error)\n".utf8))
            return nil
        }
    }

    /// Rewrites the file as a snapshot and the records made while it was written; returns the
    /// new size, or nil when a compaction is already under way.
    @discardableResult
    private func compactNow(_ capture: (_ whileLocked: () -> Void) -> SandboxSnapshot) throws(JournalError) -> Int? {
        var began = false
        let snapshot = capture { began = journal.beginCompaction() }
        guard began else { return nil }
        let size = try journal.finishCompaction(firstRecords: snapshot.writeRecords)
        compactions.add(1, ordering: .relaxed)
        return size
    }

    /// Journals an admin change with its bytes (a scenario's JSON).
    package func record(_ kind: Kind, _ payload: [UInt8] = []) {
        journal.append { bytes in
            bytes.append(kind.rawValue)
            bytes.append(contentsOf: payload)
        }
    }

    /// `response`, sent once everything journaled so far is on disk (at once when nothing waits);
    /// `refusedAs`'s answer to a ``SaveRefusal`` if it could not be written. The server holds it
    /// meanwhile (see `ResponseGate`). `before` is the count of records appended before the
    /// request: when nothing was appended after it, a read goes at once (`readsWait` false), or
    /// waits for what others journaled (true: what it reports is on disk before it is told).
    package func afterSync(_ response: HTTPResponse, since before: Int, readsWait: Bool = true,
                           refusedAs: @escaping @Sendable (SaveRefusal) -> HTTPResponse) -> HTTPResponse {
        // A response produced later may journal while it is produced: it waits for what was journaled by then.
        response.map(self) { gate, produced in
            let (appended, durable) = gate.journal.counts
            if appended == before && !readsWait { return produced }
            // A record of its own refused already (then undone): not saved, whatever came after it.
            if appended > before, let error = gate.journal.refusal(after: before, through: appended) {
                return refusedAs(SaveRefusal(error))
            }
            return appended > durable ? produced.held(by: gate, until: appended) { refusedAs(SaveRefusal.of($0)) } : produced
        }
    }

    /// A response held until `ticket` records are on disk goes then; a ``SaveRefusal`` if they
    /// were refused (a write failed: see StateJournal+Failure).
    package func state(of ticket: Int) -> ResponseGateState {
        switch journal.fate(of: ticket) {
        case .durable: .open
        case .pending: .held
        case .refused(let error): .failed(SaveRefusal(error))
        }
    }

    package func whenLetGo(_ ticket: Int, answers: Int, _ wake: @escaping @Sendable () -> Void) {
        journal.whenDurable(count: ticket, answers: answers) { _ in wake() }
    }
}

/// Reads the file's records into a `Replay`'s parts.
struct Replayer {
    let replay: StateJournal.Replay
    var snapshots: SandboxSnapshot.Decoder
    /// The file's, the same for every record.
    var format: BankFormat?

    init(_ replay: StateJournal.Replay) {
        self.replay = replay
        snapshots = SandboxSnapshot.Decoder(formats: replay.formats)
    }

    /// Replays one record; returns its kind.
    mutating func replay(_ payload: UnsafeRawBufferPointer, version: UInt32) throws -> StateJournal.Kind {
        var reader = BinaryReader(payload)
        let kind = StateJournal.Kind(rawValue: try reader.tag(below: UInt8(StateJournal.Kind.allCases.count)))!
        var record: BankRecord?  // named in an error (only then: words cost time at a million records)
        do {
            switch kind {
            case .bank:
                if format == nil { format = replay.formats(Int(version)) }
                record = try BankRecord(decoding: &reader, format: format!)
                try replay.bank.replay(record!, resetConfiguration: replay.resetConfiguration)
            case .snapshot:
                if let snapshot = try snapshots.add(UnsafeRawBufferPointer(rebasing: payload[1...])) { try replay.restore(snapshot) }
            case .scenarioLoaded, .reset: try replay.admin(kind, UnsafeRawBufferPointer(rebasing: payload[1...]))
            }
        } catch {
            throw StateJournal.ReplayFailure(kind: record.map { "bank record '\($0.kind)'" } ?? "\(kind)", reason: error)
        }
        return kind
    }
}
