// The bank's side of persistence: every change goes to a recorder as it is made, and a recorded
// change can be made again. Replaying a journal's records in order, through the same code that
// made them, rebuilds the same payouts, balances, ledger, notifications and event queue.

extension Bank {
    /// A record that does not fit the state it is replayed onto: the journal is not this bank's.
    public struct ReplayError: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// Passes every change from now on to `recorder`, under the bank's lock, in the order the
    /// changes are made (so it must be quick: encode and append, nothing that waits).
    public func startRecording(_ recorder: @escaping @Sendable (BankRecord) -> Void) {
        state.withLock { $0.recorder = recorder }
    }

    /// Makes a recorded change again (call before `startRecording`). `reset` starts again with
    /// `resetConfiguration`, as the live reset did.
    public func replay(_ recorded: BankRecord, resetConfiguration: Configuration) throws(ReplayError) {
        try state.withLock { (s) throws(ReplayError) in
            switch recorded {
            case .created(let request, let at, let settlement, let timeline):
                guard s.merchants[request.merchant] != nil else { throw ReplayError(description: "a payout of unknown merchant \(request.merchant)") }
                clock.advance(to: at)
                _ = insert(&s, request, settlement: settlement, at: at, timeline: timeline)
            case .statusChanged(let payoutID, let step, let actor, let at):
                clock.advance(to: at)
                let changed: Payout?
                do throws(TransitionError) { changed = try change(&s, payoutID, to: step, by: actor, at: at) } catch {
                    throw ReplayError(description: "payout \(payoutID) cannot go from \(error.from.name) to \(error.to.name)")
                }
                guard changed != nil else { throw ReplayError(description: "no payout \(payoutID) to change") }
            case .eventRan(let at):
                if case .none = runNextEvent(&s, until: at) { throw ReplayError(description: "no event due at \(at)") }
            case .attempt(let notificationID, let at, let outcome, let scheduled):
                guard s.notifications.indices.contains(notificationID - 1) else {
                    throw ReplayError(description: "no notification \(notificationID)")
                }
                self.record(outcome, notificationID: notificationID, at: at, scheduled: scheduled, in: &s)
            case .clock(let time):
                clock.advance(to: time)
            case .merchant(let merchant):
                if s.merchants[merchant.login] == nil { s.merchantOrder.append(merchant.login) }
                s.merchants[merchant.login] = merchant
            case .reset(let merchants):
                Self.reset(&s, merchants: merchants, configuration: resetConfiguration)
            }
        }
    }

    /// After the last record: a delivery taken off the queue whose attempt never got journaled (the
    /// process stopped while sending it) is scheduled again, at its due time.
    public func finishReplay() {
        state.withLock { Self.rescheduleTakenDeliveries(&$0) }
    }
}
