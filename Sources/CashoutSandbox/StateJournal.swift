import Dispatch
import Glibc
import SandboxBank
import SandboxHTTP
import SandboxJournal

/// The sandbox's state on disk (`serve --state-dir DIR`): `DIR/journal.log` holds the bank's
/// records and the admin changes the bank does not see (a scenario loaded, a reset), in the order
/// they were made. A change is on disk before the response that reports it is sent: responses to
/// requests that may change something wait for the journal's next sync, which many requests share.
final class StateJournal: Sendable {
    /// What a payload holds: its first byte.
    enum Kind: UInt8, CaseIterable {
        case bank = 0
        case scenarioLoaded = 1
        case reset = 2
    }

    let journal: Journal
    let recovery: Journal.Recovery

    /// Opens (or creates) the journal in `directory` and replays it: bank records onto `bank`,
    /// admin changes through `admin`.
    init(directory: String, bank: Bank, resetConfiguration: Bank.Configuration,
         admin: (Kind, UnsafeRawBufferPointer) throws -> Void) throws {
        try Self.makeDirectory(directory)
        (journal, recovery) = try Journal.open(path: "\(directory)/journal.log") { payload in
            var reader = BinaryReader(payload)
            switch Kind(rawValue: try reader.tag(below: UInt8(Kind.allCases.count)))! {
            case .bank: try bank.replay(try BankRecord(decoding: &reader), resetConfiguration: resetConfiguration)
            case let kind: try admin(kind, UnsafeRawBufferPointer(rebasing: payload[1...]))
            }
        }
        bank.finishReplay()
        let journal = journal
        bank.startRecording { record in
            journal.append { bytes in
                bytes.append(Kind.bank.rawValue)
                record.encode(into: &bytes)
            }
        }
    }

    /// Journals an admin change with its bytes (a scenario's JSON).
    func record(_ kind: Kind, _ payload: [UInt8] = []) {
        journal.append { bytes in
            bytes.append(kind.rawValue)
            bytes.append(contentsOf: payload)
        }
    }

    /// `response`, sent once everything journaled so far is on disk (at once when nothing waits);
    /// a 500 if the journal cannot be written.
    func afterSync(_ response: HTTPResponse) -> HTTPResponse {
        if response.isDeferred {
            // Work produced later: wait for the sync on the thread that produces it.
            return response.producingThen { [journal] produced in
                journal.waitUntilDurable().map(Self.failure) ?? produced
            }
        }
        let (appended, durable) = journal.counts
        guard appended > durable else { return response }
        return .deferred { [journal] answer in journal.whenDurable { error in answer(error.map(Self.failure) ?? response) } }
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
