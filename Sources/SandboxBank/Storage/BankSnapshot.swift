import Synchronization
/// The bank's whole state at one moment: accounts and balances, payouts with their timelines,
/// the ledger, the amounts counted against limits, notifications with every attempt, the
/// scheduled events, and the clock's time. Not how the bank behaves (its configuration): that
/// stays with the bank a snapshot is restored into. Its binary form (`encode(into:)`,
/// `init(decoding:)`) is SandboxPersistence's.
///
/// ```swift
/// let saved = bank.snapshot()
/// var bytes: [UInt8] = []
/// saved.encode(into: &bytes)                        // to a file, another process...
/// other.restore(try BankSnapshot(decoding: &reader))  // the same world, clock included
/// ```
package struct BankSnapshot: Sendable {
    /// What it holds (read and built by its binary form's encoder and decoder).
    package internal(set) var state: Bank.State
    /// The clock's time when it was taken.
    package let time: VirtualTime

    package init(state: Bank.State, time: VirtualTime) {
        self.state = state
        self.time = time
    }

    /// How many payouts it holds.
    package var payoutCount: Int { state.payouts.all.count }
    /// Its accounts, in the order they were added.
    package var accounts: [Account] { state.accountOrder.compactMap { state.accounts[$0] } }
}

extension Bank {
    /// The whole state now. `whileLocked` runs before any other change can be made, so a journal
    /// can mark where the snapshot stands among its records.
    package func snapshot(whileLocked: (BankSnapshot) -> Void = { _ in }) -> BankSnapshot {
        state.withLock { s in
            var copy = s  // copy on write: the arrays are shared until the bank changes them
            copy.recorder = nil
            copy.afterRecord = nil
            copy.observer = nil
            Self.endAdvance(&copy)  // what an advance running now put off is part of the state
            let snapshot = BankSnapshot(state: copy, time: clock.now)
            whileLocked(snapshot)
            return snapshot
        }
    }

    /// Replaces the whole state with `snapshot`'s and sets the clock to its time, back too (unless
    /// `clockBack` is false: a real-time clock replaying a journal keeps the time it has); the
    /// configuration stays. Waits for events being run. `whileLocked` runs before any other
    /// change can be made (to journal the restore in order).
    package func restore(_ snapshot: BankSnapshot, clockBack: Bool = true, whileLocked: () -> Void = {}) {
        runner.withLock { _ in
            state.withLock { s in
                var restored = snapshot.state
                restored.configuration = s.configuration
                restored.recorder = s.recorder
                restored.afterRecord = s.afterRecord
                restored.observer = s.observer
                restored.wake = s.wake
                restored.deliveries = Deliveries()  // answers to attempts sent before are not this state's
                s = restored
                Self.recountOccurrences(&s)
                changeCount.add(1, ordering: .releasing)
                if clockBack { clock.set(to: snapshot.time) } else { clock.advance(to: snapshot.time) }
                rescheduleTakenDeliveries(&s)
                rescheduleTakenCopies(&s)
                wakeIfDue(s)  // due at once, on a manual clock too
                whileLocked()
            }
        }
    }

    /// A pending notification with no attempt queued was on its way when the state was saved, and
    /// its answer is not in it: it is scheduled again, at its due time.
    func rescheduleTakenDeliveries(_ s: inout State) {
        var queued = Set<Int>()
        for event in s.queue.events where !s.isStale(event) {
            if case .delivery(let id, _) = event.kind { queued.insert(id) }
        }
        for notification in s.notifications where notification.state == .pending && !queued.contains(notification.id) {
            if let due = notification.nextAttemptAt {
                schedule(&s, .delivery(notificationID: notification.id, attempt: notification.scheduledAttempts), at: due)
            }
        }
    }
}
