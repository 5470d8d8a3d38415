import SandboxBank
import SandboxPersistence

// A failed write of `--state-dir` is undone in memory from the file, as a restart would read it
// (StateJournal+Failure; Running it, "When the disk fails"): the file's durable records are
// replayed into a bank and an admin of their own, as a sandbox starting on the folder would, and
// their state is put in force as a snapshot is, with the sinks kept.

extension Sandbox {
    /// Has `journal` undo its failed writes through fresh parts made like `admin`'s, starting at
    /// `start` (the clock's start, for a journal with no time in it).
    static func undoFailedWrites(of journal: StateJournal, admin: AdminAPI, start: VirtualTime, manualClock: Bool) {
        journal.undoFailedWrites(on: admin.worker, scratch: {
            let clock = VirtualClock(mode: .manual, start: VirtualTime(milliseconds: 0))
            let bank = Bank(clock: clock, configuration: admin.initial.bank, accounts: admin.initial.accounts) { _, _, _ in nil }
            let fresh = admin.replaying(into: bank)
            let replay = StateJournal.Replay(bank: bank, resetConfiguration: admin.initial.bank, formats: Sandbox.bankFormat,
                                             admin: fresh.replay, restore: { try fresh.restore($0) })
            return (replay, {
                if clock.now.milliseconds == 0 { clock.set(to: start) }
                return fresh.snapshot()
            })
        }, adopt: { snapshot, whileLocked in
            // A snapshot of this very sandbox's scenarios: they load (else the start would have failed).
            try? admin.restore(snapshot, clockBack: manualClock, clearingSinks: false, whileLocked: whileLocked)
        })
    }
}
