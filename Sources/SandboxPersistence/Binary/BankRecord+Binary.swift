import SandboxBank

// The records' binary form (`BinaryWriter`): a kind byte, then the fields in
// declaration order. Append new kinds at the end; never renumber one. A change to a kind's fields
// is a new format version (see `BankFormat`), and the reader keeps reading the old one.

extension BankRecord {
    private enum Kind: UInt8, CaseIterable {
        case created, statusChanged, eventRan, attempt, clock, account, reset, stepRan, executed, detailsAdded
        case chaosPlanned, chaosAttempt  // format 6
    }

    /// Appends the record's binary form to `bytes`.
    func encode(into bytes: inout [UInt8]) {
        switch self {
        case .created(let request, let at, let settlement, let timeline, let decision):
            bytes.append(Kind.created.rawValue)
            BinaryWriter.append(request.dialect, to: &bytes)  // one call each: an array of them would be made and freed per record
            BinaryWriter.append(request.account, to: &bytes)
            BinaryWriter.append(request.reference, to: &bytes)
            BinaryWriter.append(request.country, to: &bytes)
            BinaryWriter.append(request.currency, to: &bytes)
            BinaryWriter.append(request.amount, to: &bytes)
            BinaryWriter.append(request.status, to: &bytes)
            BinaryWriter.append(request.callbackURL, to: &bytes)
            BinaryWriter.append(request.fields, to: &bytes)
            BinaryWriter.append(at, to: &bytes)
            BinaryWriter.append(settlement, to: &bytes)
            BinaryWriter.append(timeline, to: &bytes)
            BinaryWriter.append(delay: request.expiresAfter, to: &bytes)
            BinaryWriter.append(decision, to: &bytes)
        case .statusChanged(let payoutID, let step, let actor, let at):
            bytes.append(Kind.statusChanged.rawValue)
            BinaryWriter.append(payoutID, to: &bytes)
            BinaryWriter.append(step, to: &bytes)
            BinaryWriter.append(actor, to: &bytes)
            BinaryWriter.append(at, to: &bytes)
        case .executed(let payoutID, let actor, let at):
            bytes.append(Kind.executed.rawValue)
            BinaryWriter.append(payoutID, to: &bytes)
            BinaryWriter.append(actor, to: &bytes)
            BinaryWriter.append(at, to: &bytes)
        case .detailsAdded(let payoutID, let details, let timeline, let at, let decision):
            bytes.append(Kind.detailsAdded.rawValue)
            BinaryWriter.append(payoutID, to: &bytes)
            BinaryWriter.append(details.fields, to: &bytes)
            BinaryWriter.append(details.callbackURL, to: &bytes)
            BinaryWriter.append(timeline, to: &bytes)
            BinaryWriter.append(at, to: &bytes)
            BinaryWriter.append(decision, to: &bytes)
        case .stepRan(let payoutID, let step, let at):
            bytes.append(Kind.stepRan.rawValue)
            BinaryWriter.append(payoutID, to: &bytes)
            BinaryWriter.append(step, to: &bytes)
            BinaryWriter.append(at, to: &bytes)
        case .eventRan(let at):
            bytes.append(Kind.eventRan.rawValue)
            BinaryWriter.append(at, to: &bytes)
        case .attempt(let id, let at, let outcome, let scheduled):
            bytes.append(Kind.attempt.rawValue)
            BinaryWriter.append(id, to: &bytes)
            BinaryWriter.append(at, to: &bytes)
            BinaryWriter.append(outcome, to: &bytes)
            BinaryWriter.append(scheduled, to: &bytes)
        case .clock(let to):
            bytes.append(Kind.clock.rawValue)
            BinaryWriter.append(to, to: &bytes)
        case .account(let account):
            bytes.append(Kind.account.rawValue)
            BinaryWriter.append(account, to: &bytes)
        case .reset(let accounts):
            bytes.append(Kind.reset.rawValue)
            BinaryWriter.append(UInt64(accounts.count), to: &bytes)
            for account in accounts { BinaryWriter.append(account, to: &bytes) }
        case .chaosPlanned(let id, let plan, let at):
            bytes.append(Kind.chaosPlanned.rawValue)
            BinaryWriter.append(id, to: &bytes)
            BinaryWriter.append(plan, progress: false, to: &bytes)
            BinaryWriter.append(at, to: &bytes)
        case .chaosAttempt(let id, let at, let outcome, let mark):
            bytes.append(Kind.chaosAttempt.rawValue)
            BinaryWriter.append(id, to: &bytes)
            BinaryWriter.append(at, to: &bytes)
            BinaryWriter.append(outcome, to: &bytes)
            BinaryWriter.append(mark, to: &bytes)
        }
    }

    /// Reads one record written by `encode(into:)` in `format`.
    init(decoding reader: inout BinaryReader, format: BankFormat = .current) throws(BinaryReader.Malformed) {
        let kinds = format.version >= 6 ? Kind.allCases.count : Int(Kind.chaosPlanned.rawValue)
        switch Kind(rawValue: try reader.tag(below: UInt8(kinds)))! {
        case .created:
            let (dialect, account) = (try format.dialect(&reader), try reader.string())
            let (reference, country) = format.version >= 3 ? (try reader.optionalString(), try reader.optionalString())
                                                           : (try reader.string(), try reader.string())
            let (currency, amount) = (try reader.string(), try reader.money())
            let status: PayoutStatus = format.version >= 3 ? try reader.startStatus() : try reader.bool() ? .onHold : .pending
            var request = PayoutRequest(dialect: dialect, account: account, reference: reference, country: country, currency: currency,
                                        amount: amount, status: status, callbackURL: try reader.optionalString())
            request.fields = try reader.fields()
            let (at, settlement, timeline) = (try reader.time(), try reader.money(), try reader.timeline(format))
            if format.version >= 4 { request.expiresAfter = try reader.optionalDelay() }
            self = .created(request, at: at, settlement: settlement, timeline: timeline, decision: try reader.decision(format))
        case .executed:
            self = .executed(payoutID: try reader.int(), by: try reader.string(), at: try reader.time())
        case .detailsAdded:
            let (payoutID, details) = (try reader.int(), PayoutDetails(fields: try reader.fields(), callbackURL: try reader.optionalString()))
            let (timeline, at) = (try reader.timeline(format), try reader.time())
            self = .detailsAdded(payoutID: payoutID, details, timeline: timeline, at: at, decision: try reader.decision(format))
        case .statusChanged:
            self = .statusChanged(payoutID: try reader.int(), to: try reader.step(format), by: try reader.string(),
                                  at: try reader.time())
        case .stepRan:
            self = .stepRan(payoutID: try reader.int(), step: try reader.int(), at: try reader.time())
        case .eventRan:
            self = .eventRan(at: try reader.time())
        case .attempt:
            self = .attempt(notificationID: try reader.int(), at: try reader.time(),
                            outcome: try reader.outcome(), scheduled: try reader.bool())
        case .clock:
            self = .clock(to: try reader.time())
        case .account:
            self = .account(try reader.account(format))
        case .reset:
            var accounts: [Account] = []
            for _ in 0 ..< (try reader.count()) { accounts.append(try reader.account(format)) }
            self = .reset(accounts)
        case .chaosPlanned:
            self = .chaosPlanned(notificationID: try reader.int(), try reader.chaosPlan(progress: false), at: try reader.time())
        case .chaosAttempt:
            self = .chaosAttempt(notificationID: try reader.int(), at: try reader.time(), outcome: try reader.outcome(), try reader.chaosMark())
        }
    }
}
