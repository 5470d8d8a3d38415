import Synchronization

/// Where the admin API journals the changes the bank does not see; nothing without `--state-dir`.
package final class AdminJournal: Sendable {
    private let journal = Mutex<StateJournal?>(nil)

    package init() {}

    package func attach(_ journal: StateJournal) {
        self.journal.withLock { $0 = journal }
    }

    package var current: StateJournal? { journal.withLock { $0 } }

    package func record(_ kind: StateJournal.Kind, _ payload: [UInt8] = []) {
        journal.withLock { $0 }?.record(kind, payload)
    }
}
