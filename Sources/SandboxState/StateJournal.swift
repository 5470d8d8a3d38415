import Dispatch
import Foundation
import Glibc
import SandboxBank
import SandboxHTTP
import SandboxJournal
import Synchronization

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
    package init(directory: String, recover: Bool = false, bank: Bank, resetConfiguration: Bank.Configuration, formats: @escaping BankFormat.Lookup,
                 admin: (Kind, UnsafeRawBufferPointer) throws -> Void, restore: (SandboxSnapshot) throws -> Void) throws {
        try Self.makeDirectory(directory)
        var snapshots = SandboxSnapshot.Decoder(formats: formats)
        var (compacted, leading) = (0, true)  // the snapshot records the file starts with, if any
        var format: BankFormat?  // the file's, the same for every record
        (journal, recovery) = try Journal.open(path: "\(directory)/journal.log", recover: recover) { payload, version in
            var reader = BinaryReader(payload)
            let kind = Kind(rawValue: try reader.tag(below: UInt8(Kind.allCases.count)))!
            var record: BankRecord?  // named in an error (only then: words cost time at a million records)
            do {
                switch kind {
                case .bank:
                    if format == nil { format = formats(Int(version)) }
                    record = try BankRecord(decoding: &reader, format: format!)
                    try bank.replay(record!, resetConfiguration: resetConfiguration)
                case .snapshot: if let snapshot = try snapshots.add(UnsafeRawBufferPointer(rebasing: payload[1...])) { try restore(snapshot) }
                case .scenarioLoaded, .reset: try admin(kind, UnsafeRawBufferPointer(rebasing: payload[1...]))
                }
            } catch {
                throw ReplayFailure(kind: record.map { "bank record '\($0.kind)'" } ?? "\(kind)", reason: error)
            }
            leading = leading && kind == .snapshot
            if leading { compacted += JournalFormat.recordHeaderSize + payload.count }
        }
        compactedBytes = compacted
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
    package func compact(_ capture: (_ whileLocked: () -> Void) -> SandboxSnapshot) -> Int? {
        do throws(JournalError) {
            return try compactNow(capture)
        } catch {
            FileHandle.standardError.write(Data("warning: journal compaction failed, the journal is kept as it was: \(error)\n".utf8))
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
    /// a 500 if the journal cannot be written. The server holds it meanwhile (see `ResponseGate`).
    package func afterSync(_ response: HTTPResponse) -> HTTPResponse {
        // A response produced later may journal while it is produced: it waits for what was journaled by then.
        response.map(self) { gate, produced in
            let (appended, durable) = gate.journal.counts
            return appended > durable ? produced.held(by: gate, until: appended) : produced
        }
    }

    /// A response held until `ticket` records are on disk goes then; the journal's failure, as a 500, if it cannot be.
    package func state(of ticket: Int) -> ResponseGateState {
        if journal.counts.durable >= ticket { return .open }
        guard let failure = journal.failure else { return .held }
        // The sync that wrote them may have ended after the first look, and a later one failed:
        // once failed, the count no longer moves, so this look is the last word.
        return journal.counts.durable >= ticket ? .open : .failed(Self.failure(failure))
    }

    package func whenLetGo(_ ticket: Int, answers: Int, _ wake: @escaping @Sendable () -> Void) {
        journal.whenDurable(count: ticket, answers: answers) { _ in wake() }
    }

    private static func failure(_ error: JournalError) -> HTTPResponse {
        Router.error(500, "the change could not be saved: \(error)")
    }

    private static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o755) == 0 { return }
        let code = errno
        var info = stat()
        guard code == EEXIST, stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw JournalError.system("state directory \(path)", code == EEXIST ? ENOTDIR : code)
        }
    }
}
