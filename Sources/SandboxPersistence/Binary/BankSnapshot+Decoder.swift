import SandboxBank

extension BankSnapshot {
    /// Reads a snapshot's binary form as it arrives, a part at a time, straight into the state it
    /// describes, so that restoring a million payouts holds that state and one part of the bytes,
    /// not all of them as well. It checks what `init(decoding:)` checks (which reads all the bytes
    /// at once through it), and nothing it builds is in force until it is restored.
    ///
    /// ```swift
    /// var decoder = BankSnapshot.Decoder(format: .current)
    /// for part in parts {   // each part: the bytes left unread from the one before, then its own
    ///     var reader = BinaryReader(part, more: part is not the last)
    ///     if let snapshot = try decoder.read(&reader) { bank.restore(snapshot) }
    ///     keep the bytes from reader.offset on for the next part
    /// }
    /// ```
    struct Decoder {
        /// Where the form is: its parts, in order (`encode(into:)`).
        private enum Stage {
            case time, accounts, firstID, decisions, payouts, ledger, usage, notifications, sequence, events, chaosCounts, done
        }

        private let format: BankFormat
        private var stage = Stage.time
        /// What is left of the list being read; nil until its count is read.
        private var left: Int?
        private var time = VirtualTime(milliseconds: 0)
        private var s = Bank.State(payouts: PayoutTable(firstID: 0), configuration: Bank.Configuration())
        private var decisions: [TimelineDecision] = []
        private var sequence = 0
        private var events: [EventQueue.Event] = []

        /// A decoder of a snapshot in `format`.
        init(format: BankFormat = .current) {
            self.format = format
        }

        /// Reads on from `reader`'s offset, one whole value after another (an account, a payout, a
        /// ledger entry...), and returns the snapshot once its last is read. With a reader whose
        /// bytes `more` may follow, it stops (returning nil) at the first value that runs past
        /// their end, leaving the reader's offset where that value starts: read again from there
        /// once the next part's bytes are after it. A malformed value throws, as `init(decoding:)`
        /// does; the decoder is of no more use then.
        package mutating func read(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) -> BankSnapshot? {
            while stage != .done {
                guard try reader.whole({ reader throws(BinaryReader.Malformed) in try readNext(&reader) }) != nil else { return nil }
            }
            return finish()
        }

        /// Reads one value: a list's count or its next element, or a value of its own. Changes
        /// nothing unless the whole value is read.
        private mutating func readNext(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) {
            switch stage {
            case .time:
                time = try reader.time()
                stage = .accounts
            case .firstID:
                let firstID = try reader.int()
                guard (1 ... 1 << 52).contains(firstID) else { throw .init(offset: reader.offset, reason: "a first payout id out of range") }
                s.payouts = PayoutTable(firstID: firstID)
                stage = format.version >= 5 ? .decisions : .payouts
            case .sequence:
                sequence = try BankSnapshot.sequence(&reader)
                stage = .events
            case .done:
                break
            case .accounts, .decisions, .payouts, .ledger, .usage, .notifications, .events, .chaosCounts:
                guard let count = left else {
                    left = try reader.countAcrossParts()
                    return
                }
                guard count > 0 else {
                    left = nil
                    stage = nextStage
                    return
                }
                try readElement(&reader)
                left = count - 1
            }
        }

        /// The stage after the list being read.
        private var nextStage: Stage {
            switch stage {
            case .accounts: .firstID
            case .decisions: .payouts
            case .payouts: .ledger
            case .ledger: .usage
            case .usage: .notifications
            case .notifications: .sequence
            case .events: format.version >= 6 ? .chaosCounts : .done
            default: .done
            }
        }

        /// Reads the next element of the list being read, and adds it to the state.
        private mutating func readElement(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) {
            let start = reader.offset
            switch stage {
            case .accounts:
                let account = try reader.account(format)
                guard s.accounts[account.id] == nil else { throw .init(offset: start, reason: "account \(account.id) twice") }
                s.accounts[account.id] = account
                s.accountOrder.append(account.id)
            case .decisions:
                decisions.append(try reader.decision(format))
            case .payouts:
                let (payout, timeline, generation) = try BankSnapshot.payout(id: s.payouts.nextID, &reader, format: format,
                                                                             account: { reader throws(BinaryReader.Malformed) in
                                                                                 try knownAccount(&reader)
                                                                             },
                                                                             decisions: decisions)
                if let reference = payout.reference, s.references[payout.account]?.id(of: reference, in: s.payouts) != nil {
                    throw .init(offset: start, reason: "reference \(reference) twice for \(payout.account)")
                }
                s.payoutsByAccount[payout.account, default: []].append(payout.id)
                s.payouts.append(payout, timeline: timeline, generation: generation)
                if let reference = payout.reference {
                    s.references[payout.account, default: ReferenceIndex()].insert(payout.id, reference: reference, in: s.payouts)
                }
            case .ledger:
                let (account, place, payoutID) = (try knownAccount(&reader), reader.offset, try knownPayout(&reader))
                guard let payout = s.payouts[payoutID], payout.account == account else {
                    throw .init(offset: place, reason: "a ledger entry of payout \(payoutID) in another account than the payout's")
                }
                let kind: LedgerEntry.Kind = try reader.bool() ? .refund : .debit
                s.appendLedger(payout, kind, amount: try reader.money(), balanceAfter: try reader.money(), at: try reader.time())
            case .usage:
                let account = try knownAccount(&reader)
                var periods: [Int: Money] = [:]
                for _ in 0 ..< (try reader.count()) {
                    let period = try reader.int()
                    periods[period] = try reader.money()
                }
                if !periods.isEmpty { s.usage[account, default: [:]].merge(periods) { $1 } }
            case .notifications:
                let payout = s.payouts[try knownPayout(&reader)]!
                let notification = try BankSnapshot.notification(id: s.notifications.count + 1, of: payout, &reader, format: format,
                                                                  outcomes: &s.outcomes)
                guard notification.state != .pending || (notification.url != nil && notification.nextAttemptAt != nil) else {
                    throw .init(offset: start, reason: "a pending notification with nowhere or no time to go")
                }
                s.notifications.append(notification)
            case .events:
                if let event = try readEvent(&reader) { events.append(event) }
            case .chaosCounts:
                let (rule, count) = (try reader.int(), try reader.int())
                guard rule >= 0, count >= 0, s.chaosCounts[rule] == nil else { throw .init(offset: start, reason: "a chaos rule count out of place") }
                s.chaosCounts[rule] = count
            case .time, .firstID, .sequence, .done:
                break
            }
        }

        /// A scheduled event; nil for a delivery no longer due (snapshots before 0.2 may hold them).
        private func readEvent(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) -> EventQueue.Event? {
            let (at, eventSequence) = (try reader.time().milliseconds, try BankSnapshot.sequence(&reader))
            let start = reader.offset
            switch try reader.tag(below: format.version >= 6 ? 4 : format.version >= 4 ? 3 : 2) {
            case 0:
                let (payoutID, generation, step) = (try knownPayout(&reader), try reader.int(), try reader.int())
                guard let plan = s.payouts.plan(payoutID), plan.timeline.indices.contains(step), generation <= plan.generation else {
                    throw .init(offset: start,
                                reason: "an event for step \(step) (generation \(generation)) of payout \(payoutID) that its timeline does not have")
                }
                return .init(at: at, sequence: eventSequence, kind: .timeline(payoutID: payoutID, generation: generation, step: step))
            case 2:
                let payoutID = try knownPayout(&reader)
                guard s.payouts[payoutID]?.status.awaitsExecution == true else {
                    throw .init(offset: start, reason: "an expiry of payout \(payoutID), which does not wait to be executed")
                }
                return .init(at: at, sequence: eventSequence, kind: .expiry(payoutID: payoutID))
            case 3:
                let (id, copy) = (try reader.int(), try reader.int())
                guard id >= 1, id <= s.notifications.count, let plan = s.notifications[id - 1].chaos, plan.copies.indices.contains(copy),
                      plan.copies[copy].progress == .due(VirtualTime(milliseconds: at)) else {
                    throw .init(offset: start, reason: "an event for chaos copy \(copy) of notification \(id), which is not due then")
                }
                return .init(at: at, sequence: eventSequence, kind: .chaos(notificationID: id, copy: copy))
            default:
                let id = try reader.int()
                guard id >= 1, id <= s.notifications.count else { throw .init(offset: start, reason: "unknown notification \(id)") }
                let notification = s.notifications[id - 1]
                guard notification.state == .pending, notification.nextAttemptAt?.milliseconds == at else { return nil }
                return .init(at: at, sequence: eventSequence, kind: .delivery(notificationID: id, attempt: notification.scheduledAttempts))
            }
        }

        /// The snapshot, once every value is read: what follows from them put in place.
        private mutating func finish() -> BankSnapshot {
            // Which chaos plans wait for a later notification of their payout.
            for notification in s.notifications where notification.chaos?.waitsForLater(notification) == true {
                s.chaosWatch[notification.payoutID, default: []].append(notification.id)
            }
            // The step each payout's timeline runs next: the one queued for its generation (the
            // latest, in a snapshot before 0.2), else none; a payout that awaits execution (staged,
            // or awaiting details) has not started its timeline: `execute` queues its first step.
            var queuedSteps: [Int: Int] = [:]
            for event in events {
                if case .timeline(let payoutID, let generation, let step) = event.kind, generation == s.payouts.plan(payoutID)?.generation {
                    queuedSteps[payoutID] = max(step, queuedSteps[payoutID] ?? step)
                }
            }
            for id in s.payouts.firstID ..< s.payouts.nextID {
                let notStarted = s.payouts[id]!.status.awaitsExecution
                s.payouts.setNextStep(id, queuedSteps[id] ?? (notStarted ? 0 : s.payouts.plan(id)!.timeline.count))
            }
            s.queue = EventQueue(events: events, sequence: sequence)
            events = []
            // Handed over whole: the decoder keeps no share of it, which would make the bank copy it.
            let state = s
            s = Bank.State(payouts: PayoutTable(firstID: 0), configuration: Bank.Configuration())
            return BankSnapshot(state: state, time: time)
        }

        private func knownAccount(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) -> String {
            let start = reader.offset
            let id = try reader.string()
            guard s.accounts[id] != nil else { throw .init(offset: start, reason: "unknown account \(id)") }
            return id
        }

        private func knownPayout(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) -> Int {
            let start = reader.offset
            let id = try reader.int()
            guard (s.payouts.firstID ..< s.payouts.nextID).contains(id) else { throw .init(offset: start, reason: "unknown payout \(id)") }
            return id
        }
    }
}
