import SandboxJournal

// The records' binary form (SandboxJournal's BinaryWriter): a kind byte, then the fields in
// declaration order. Append new kinds at the end; never renumber one.

extension BankRecord {
    private enum Kind: UInt8, CaseIterable {
        case created, statusChanged, eventRan, attempt, clock, merchant, reset
    }

    /// Appends the record's binary form to `bytes`.
    public func encode(into bytes: inout [UInt8]) {
        switch self {
        case .created(let request, let at, let settlement, let timeline):
            bytes.append(Kind.created.rawValue)
            for text in [request.merchant, request.externalID, request.country, request.currency] { BinaryWriter.append(text, to: &bytes) }
            Self.append(request.amount, to: &bytes)
            BinaryWriter.append(request.onHold, to: &bytes)
            BinaryWriter.append(request.notificationURL, to: &bytes)
            BinaryWriter.append(UInt64(request.fields.count), to: &bytes)
            for field in request.fields {
                BinaryWriter.append(field.name, to: &bytes)
                BinaryWriter.append(field.value, to: &bytes)
            }
            BinaryWriter.append(at.milliseconds, to: &bytes)
            Self.append(settlement, to: &bytes)
            BinaryWriter.append(UInt64(timeline.count), to: &bytes)
            for step in timeline { Self.append(step, to: &bytes) }
        case .statusChanged(let payoutID, let step, let actor, let at):
            bytes.append(Kind.statusChanged.rawValue)
            BinaryWriter.append(payoutID, to: &bytes)
            Self.append(step, to: &bytes)
            BinaryWriter.append(actor, to: &bytes)
            BinaryWriter.append(at.milliseconds, to: &bytes)
        case .eventRan(let at):
            bytes.append(Kind.eventRan.rawValue)
            BinaryWriter.append(at.milliseconds, to: &bytes)
        case .attempt(let id, let at, let outcome, let scheduled):
            bytes.append(Kind.attempt.rawValue)
            BinaryWriter.append(id, to: &bytes)
            BinaryWriter.append(at.milliseconds, to: &bytes)
            Self.append(outcome, to: &bytes)
            BinaryWriter.append(scheduled, to: &bytes)
        case .clock(let to):
            bytes.append(Kind.clock.rawValue)
            BinaryWriter.append(to.milliseconds, to: &bytes)
        case .merchant(let merchant):
            bytes.append(Kind.merchant.rawValue)
            Self.append(merchant, to: &bytes)
        case .reset(let merchants):
            bytes.append(Kind.reset.rawValue)
            BinaryWriter.append(UInt64(merchants.count), to: &bytes)
            for merchant in merchants { Self.append(merchant, to: &bytes) }
        }
    }

    /// Reads one record written by `encode(into:)`.
    public init(decoding reader: inout BinaryReader) throws(BinaryReader.Malformed) {
        switch Kind(rawValue: try reader.tag(below: UInt8(Kind.allCases.count)))! {
        case .created:
            let (merchant, externalID, country, currency) = (try reader.string(), try reader.string(), try reader.string(), try reader.string())
            var request = PayoutRequest(merchant: merchant, externalID: externalID, country: country, currency: currency,
                                        amount: try Self.money(&reader), onHold: try reader.bool(),
                                        notificationURL: try reader.optionalString())
            for _ in 0 ..< (try Self.count(&reader)) {
                let name = try reader.string()
                request.fields[name] = try reader.string()
            }
            let at = VirtualTime(milliseconds: try reader.int64())
            let settlement = try Self.money(&reader)
            var timeline: [TimelineStep] = []
            for _ in 0 ..< (try Self.count(&reader)) { timeline.append(try Self.step(&reader)) }
            self = .created(request, at: at, settlement: settlement, timeline: timeline)
        case .statusChanged:
            self = .statusChanged(payoutID: try reader.int(), to: try Self.step(&reader), by: try reader.string(),
                                  at: VirtualTime(milliseconds: try reader.int64()))
        case .eventRan:
            self = .eventRan(at: VirtualTime(milliseconds: try reader.int64()))
        case .attempt:
            self = .attempt(notificationID: try reader.int(), at: VirtualTime(milliseconds: try reader.int64()),
                            outcome: try Self.outcome(&reader), scheduled: try reader.bool())
        case .clock:
            self = .clock(to: VirtualTime(milliseconds: try reader.int64()))
        case .merchant:
            self = .merchant(try Self.merchant(&reader))
        case .reset:
            var merchants: [Merchant] = []
            for _ in 0 ..< (try Self.count(&reader)) { merchants.append(try Self.merchant(&reader)) }
            self = .reset(merchants)
        }
    }

    // MARK: - Parts

    private static func append(_ money: Money, to bytes: inout [UInt8]) {
        BinaryWriter.append(money.hundredths, to: &bytes)
    }

    private static func money(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) -> Money {
        Money(hundredths: try reader.int64())
    }

    private static func optionalMoney(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) -> Money? {
        try reader.bool() ? try money(&reader) : nil
    }

    private static func append(_ money: Money?, to bytes: inout [UInt8]) {
        BinaryWriter.append(money != nil, to: &bytes)
        if let money { append(money, to: &bytes) }
    }

    /// A count that must fit what is left of the payload (one byte at least per element).
    private static func count(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) -> Int {
        let start = reader.offset
        let count = try reader.uint()
        guard count <= UInt64(reader.remaining) else { throw BinaryReader.Malformed(offset: start, reason: "a count larger than the payload") }
        return Int(count)
    }

    private static func append(_ step: TimelineStep, to bytes: inout [UInt8]) {
        let (seconds, attoseconds) = step.after.components
        BinaryWriter.append(seconds, to: &bytes)
        BinaryWriter.append(attoseconds, to: &bytes)
        BinaryWriter.append(step.businessDays, to: &bytes)
        BinaryWriter.append(step.status.rawValue, to: &bytes)  // not the API name: a return is REJECTED there
        BinaryWriter.append(step.rejectionCode, to: &bytes)
        BinaryWriter.append(step.rejectionReason, to: &bytes)
        BinaryWriter.append(step.bankReferenceID, to: &bytes)
        BinaryWriter.append(step.statusReason, to: &bytes)
    }

    private static func step(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) -> TimelineStep {
        let after = Duration(secondsComponent: try reader.int64(), attosecondsComponent: try reader.int64())
        let businessDays = try reader.int()
        let start = reader.offset
        let name = try reader.string()
        guard let status = PayoutStatus(rawValue: name) else {
            throw BinaryReader.Malformed(offset: start, reason: "an unknown status \(name)")
        }
        var step = TimelineStep(after: after, status: status, rejectionCode: try reader.optionalInt(),
                                rejectionReason: try reader.optionalString(), bankReferenceID: try reader.optionalString(),
                                statusReason: try reader.optionalString())
        step.businessDays = businessDays
        return step
    }

    private static func append(_ outcome: DeliveryOutcome, to bytes: inout [UInt8]) {
        BinaryWriter.append(outcome.status, to: &bytes)
        BinaryWriter.append(outcome.error, to: &bytes)
        BinaryWriter.append(outcome.body, to: &bytes)
    }

    private static func outcome(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) -> DeliveryOutcome {
        DeliveryOutcome(status: try reader.optionalInt(), error: try reader.optionalString(), body: try reader.optionalString())
    }

    private static func append(_ merchant: Merchant, to bytes: inout [UInt8]) {
        for text in [merchant.login, merchant.pass, merchant.secret, merchant.readOnlyKey, merchant.currency] {
            BinaryWriter.append(text, to: &bytes)
        }
        append(merchant.balance, to: &bytes)
        append(merchant.limits.transaction, to: &bytes)
        append(merchant.limits.daily, to: &bytes)
        append(merchant.limits.monthly, to: &bytes)
        let minimums = merchant.minimumAmounts.sorted { $0.key < $1.key }
        BinaryWriter.append(UInt64(minimums.count), to: &bytes)
        for (country, amount) in minimums {
            BinaryWriter.append(country, to: &bytes)
            append(amount, to: &bytes)
        }
        BinaryWriter.append(UInt64(merchant.allowedIPs.count), to: &bytes)
        for address in merchant.allowedIPs { BinaryWriter.append(address, to: &bytes) }
        BinaryWriter.append(merchant.notificationURL, to: &bytes)
    }

    private static func merchant(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) -> Merchant {
        let (login, pass, secret, readOnlyKey, currency) = (try reader.string(), try reader.string(), try reader.string(),
                                                            try reader.string(), try reader.string())
        let balance = try money(&reader)
        let limits = Merchant.Limits(transaction: try optionalMoney(&reader), daily: try optionalMoney(&reader),
                                     monthly: try optionalMoney(&reader))
        var minimums: [String: Money] = [:]
        for _ in 0 ..< (try count(&reader)) {
            let country = try reader.string()
            minimums[country] = try money(&reader)
        }
        var allowedIPs: [String] = []
        for _ in 0 ..< (try count(&reader)) { allowedIPs.append(try reader.string()) }
        return Merchant(login: login, pass: pass, secret: secret, readOnlyKey: readOnlyKey, currency: currency, balance: balance,
                        limits: limits, minimumAmounts: minimums, allowedIPs: allowedIPs, notificationURL: try reader.optionalString())
    }
}
