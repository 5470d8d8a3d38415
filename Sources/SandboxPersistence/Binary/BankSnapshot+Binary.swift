import SandboxBank
import SandboxSupport

// The snapshot's binary form: what `BankSnapshot` holds, written and read back (a part at a time:
// `BankSnapshot.Decoder`) in the format of `BankFormat`.

extension BankSnapshot {
    /// Appends the snapshot's binary form (through `BinaryWriter`) to `bytes`. Whenever
    /// `bytes` has grown to `limit` or more (between two values), `flush` may take what it holds
    /// so far (to write it out, so that a million payouts' bytes are never in memory at once).
    func encode(into bytes: inout [UInt8], flushingAt limit: Int = .max, _ flush: (inout [UInt8]) -> Void = { _ in }) {
        func flushIfFull() { if bytes.count >= limit { flush(&bytes) } }
        let s = state
        BinaryWriter.append(time, to: &bytes)
        let accounts = accounts
        BinaryWriter.append(UInt64(accounts.count), to: &bytes)
        for account in accounts { BinaryWriter.append(account, to: &bytes) }

        BinaryWriter.append(s.payouts.firstID, to: &bytes)
        // What chose the timelines: each decision once, in the order the payouts first use it
        // (so that a restored snapshot writes the same bytes), then each payout's place among them.
        var places: [Int32: Int] = [:]
        var decisions: [TimelineDecision] = []
        for plan in s.payouts.allPlans where places[plan.decision] == nil {
            places[plan.decision] = decisions.count
            decisions.append(s.payouts.decisions[Int(plan.decision)])
        }
        BinaryWriter.append(UInt64(decisions.count), to: &bytes)
        for decision in decisions { BinaryWriter.append(decision, to: &bytes) }
        BinaryWriter.append(UInt64(s.payouts.all.count), to: &bytes)
        for (payout, plan) in zip(s.payouts.all, s.payouts.allPlans) {
            Self.append(payout, plan, decision: places[plan.decision]!, to: &bytes)
            flushIfFull()
        }

        BinaryWriter.append(UInt64(s.ledgerEntries.count), to: &bytes)
        for entry in s.ledgerEntries {
            BinaryWriter.append(entry.account, to: &bytes)
            BinaryWriter.append(entry.payoutID, to: &bytes)
            BinaryWriter.append(entry.kind == .refund, to: &bytes)
            BinaryWriter.append(entry.amount, to: &bytes)
            BinaryWriter.append(entry.balanceAfter, to: &bytes)
            BinaryWriter.append(entry.at, to: &bytes)
            flushIfFull()
        }

        BinaryWriter.append(UInt64(s.usage.count), to: &bytes)
        for (account, periods) in s.usage.sorted(by: { $0.key < $1.key }) {
            BinaryWriter.append(account, to: &bytes)
            BinaryWriter.append(UInt64(periods.count), to: &bytes)
            for (period, amount) in periods.sorted(by: { $0.key < $1.key }) {
                BinaryWriter.append(period, to: &bytes)
                BinaryWriter.append(amount, to: &bytes)
            }
        }

        BinaryWriter.append(UInt64(s.notifications.count), to: &bytes)
        for notification in s.notifications {
            Self.append(notification, to: &bytes)
            flushIfFull()
        }

        let events = s.queue.events.filter { !s.isStale($0) }
        BinaryWriter.append(s.queue.lastSequence, to: &bytes)
        BinaryWriter.append(UInt64(events.count), to: &bytes)
        for event in events {
            BinaryWriter.append(event.at, to: &bytes)
            BinaryWriter.append(event.sequence, to: &bytes)
            switch event.kind {
            case .timeline(let payoutID, let generation, let step):
                bytes.append(0)
                BinaryWriter.append(payoutID, to: &bytes)
                BinaryWriter.append(generation, to: &bytes)
                BinaryWriter.append(step, to: &bytes)
            case .delivery(let notificationID, _):  // which attempt: as many as the notification made
                bytes.append(1)
                BinaryWriter.append(notificationID, to: &bytes)
            case .expiry(let payoutID):
                bytes.append(2)
                BinaryWriter.append(payoutID, to: &bytes)
            case .chaos(let notificationID, let copy):
                bytes.append(3)
                BinaryWriter.append(notificationID, to: &bytes)
                BinaryWriter.append(copy, to: &bytes)
            }
            flushIfFull()
        }
        BinaryWriter.append(UInt64(s.chaosCounts.count), to: &bytes)
        for (rule, count) in s.chaosCounts.sorted(by: { $0.key < $1.key }) {
            BinaryWriter.append(rule, to: &bytes)
            BinaryWriter.append(count, to: &bytes)
        }
    }

    /// Reads a snapshot written by `encode(into:)`, and checks that it holds together (every
    /// payout, ledger entry, notification and event refers to what exists), so that restoring it
    /// cannot put the bank in a state its own code never makes.
    init(decoding reader: inout BinaryReader, format: BankFormat = .current) throws(BinaryReader.Malformed) {
        var decoder = Decoder(format: format)
        guard let snapshot = try decoder.read(&reader) else {  // only a reader of a part stops short
            throw .init(offset: reader.offset, reason: "a snapshot cut short")
        }
        self = snapshot
    }

    // MARK: - Parts

    /// An event's order among those at the same time: far from overflowing when counted on.
    static func sequence(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) -> Int {
        let start = reader.offset
        let sequence = try reader.int()
        guard (0 ... 1 << 62).contains(sequence) else { throw .init(offset: start, reason: "an event sequence out of range") }
        return sequence
    }

    private static func append(_ payout: Payout, _ plan: PayoutTable.Plan, decision: Int, to bytes: inout [UInt8]) {
        for text in [payout.dialect, payout.account] { BinaryWriter.append(text, to: &bytes) }
        for text in [payout.reference, payout.country] { BinaryWriter.append(text, to: &bytes) }
        BinaryWriter.append(payout.currency, to: &bytes)
        BinaryWriter.append(payout.amount, to: &bytes)
        BinaryWriter.append(payout.settlementAmount, to: &bytes)
        BinaryWriter.append(payout.fields, to: &bytes)
        BinaryWriter.append(payout.callbackURL, to: &bytes)
        BinaryWriter.append(payout.createdAt, to: &bytes)
        BinaryWriter.append(payout.status, to: &bytes)
        BinaryWriter.append(UInt64(payout.history.count), to: &bytes)
        for change in payout.history {
            BinaryWriter.append(change.status, to: &bytes)
            BinaryWriter.append(change.at, to: &bytes)
            BinaryWriter.append(change.by, to: &bytes)
            BinaryWriter.append(change.reasonCode, to: &bytes)
            BinaryWriter.append(change.reason, to: &bytes)
        }
        for text in [payout.reasonCode, payout.reason, payout.bankReference, payout.statusDetail] { BinaryWriter.append(text, to: &bytes) }
        BinaryWriter.append(plan.timeline, to: &bytes)
        BinaryWriter.append(plan.generation, to: &bytes)
        BinaryWriter.append(decision, to: &bytes)
    }

    /// A payout, its timeline (with what chose it: its place among `decisions`, none before
    /// version 5), and the timeline's generation.
    static func payout(id: Int, _ reader: inout BinaryReader, format: BankFormat,
                       account: (inout BinaryReader) throws(BinaryReader.Malformed) -> String,
                       decisions: [TimelineDecision])
        throws(BinaryReader.Malformed) -> (Payout, DecidedTimeline, generation: Int) {
        let dialect = try format.dialect(&reader)
        let accountID = try account(&reader)
        let (reference, country) = format.version >= 3 ? (try reader.optionalString(), try reader.optionalString())
                                                       : (try reader.string(), try reader.string())
        let currency = try reader.string()
        let (amount, settlement) = (try reader.money(), try reader.money())
        let fields = try reader.fields()
        let (url, createdAt, status) = (try reader.optionalString(), try reader.time(), try reader.status())
        var history: [StatusChange] = []
        for _ in 0 ..< (try reader.count()) {
            history.append(StatusChange(status: try reader.status(), at: try reader.time(), by: try reader.string(),
                                        reasonCode: try reader.reasonCode(format), reason: try reader.optionalString()))
        }
        guard history.last?.status == status else {
            throw .init(offset: reader.offset, reason: "payout \(id)'s status is not the last of its history")
        }
        let reasonAt = reader.offset
        let (code, reason) = (try reader.reasonCode(format), try reader.optionalString())
        guard code == history.last?.reasonCode, reason == history.last?.reason else {
            throw .init(offset: reasonAt, reason: "payout \(id)'s rejection reason is not its last change's")
        }
        let payout = Payout(id: id, dialect: dialect, account: accountID, reference: reference, country: country, currency: currency,
                            amount: amount, settlementAmount: settlement, fields: fields, callbackURL: url, createdAt: createdAt,
                            status: status, history: history, bankReference: try reader.optionalString(),
                            statusDetail: try reader.optionalString())
        let timeline = try reader.timeline(format)
        let start = reader.offset
        let generation = try reader.int()
        guard (0 ..< 1 << 32).contains(generation) else { throw .init(offset: start, reason: "a timeline generation out of range") }
        guard format.version >= 5 else { return (payout, DecidedTimeline(timeline, decision: .unknown), generation) }
        let place = reader.offset
        let decision = try reader.int()
        guard decisions.indices.contains(decision) else { throw .init(offset: place, reason: "a decision \(decision) the snapshot does not have") }
        return (payout, DecidedTimeline(timeline, decision: decisions[decision]), generation)
    }

    /// A notification's state as a byte: its place here.
    private static let notificationStates: [StatusNotification.State] = [.pending, .delivered, .exhausted, .noURL]

    private static func append(_ notification: StatusNotification, to bytes: inout [UInt8]) {
        BinaryWriter.append(notification.payoutID, to: &bytes)
        BinaryWriter.append(notification.status, to: &bytes)
        BinaryWriter.append(notification.changedAt, to: &bytes)
        for text in [notification.bankReference, notification.statusDetail, notification.url] {
            BinaryWriter.append(text, to: &bytes)
        }
        bytes.append(UInt8(Self.notificationStates.firstIndex(of: notification.state)!))
        BinaryWriter.append(UInt64(notification.attempts.count), to: &bytes)
        for attempt in notification.attempts {
            BinaryWriter.append(attempt.at, to: &bytes)
            BinaryWriter.append(attempt.outcome, to: &bytes)
            BinaryWriter.append(attempt.manual, to: &bytes)
            BinaryWriter.append(attempt.chaos != nil, to: &bytes)
            if let mark = attempt.chaos { BinaryWriter.append(mark, to: &bytes) }
        }
        BinaryWriter.append(notification.nextAttemptAt != nil, to: &bytes)
        if let next = notification.nextAttemptAt { BinaryWriter.append(next, to: &bytes) }
        BinaryWriter.append(notification.chaos != nil, to: &bytes)
        if let plan = notification.chaos { BinaryWriter.append(plan, progress: true, to: &bytes) }
    }

    static func notification(id: Int, of payout: Payout, _ reader: inout BinaryReader, format: BankFormat,
                             outcomes: inout InternTable<DeliveryOutcome, OutOfLine<DeliveryOutcome>>)
        throws(BinaryReader.Malformed) -> StatusNotification {
        let (status, changedAt) = (try reader.status(), try reader.time())
        let (reference, detail) = (try reader.optionalString(), try reader.optionalString())
        if format.version < 3 { _ = try reader.optionalString() }  // one of the payout's fields, now shared with it
        let url = try reader.optionalString()
        let state = Self.notificationStates[Int(try reader.tag(below: UInt8(Self.notificationStates.count)))]
        var attempts = DeliveryAttempts()
        for _ in 0 ..< (try reader.count()) {
            let (at, outcome, manual) = (try reader.time(), try reader.outcome(), try reader.bool())
            let mark = format.version >= 6 ? try reader.optionalChaosMark() : nil
            attempts.append(at: at, outcome: outcomes.intern(outcome, OutOfLine.init), manual: manual, chaos: mark)
        }
        let next = try reader.bool() ? try reader.time() : nil
        let start = reader.offset
        let plan = format.version >= 6 ? try reader.optionalChaosPlan() : nil
        if plan != nil, url == nil { throw .init(offset: start, reason: "a chaos plan for a notification that is never sent") }
        // Shares the payout's part when it is as the payout has it now (as it most often is).
        let shared = payout.shared.with(callbackURL: .some(url), bankReference: .some(reference), statusDetail: .some(detail))
        return StatusNotification(id: id, of: shared, status: status, changedAt: changedAt,
                                  state: state, attempts: attempts, nextAttemptAt: .some(next), chaos: plan)
    }
}
