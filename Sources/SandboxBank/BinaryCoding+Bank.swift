import SandboxJournal

// The bank's values in SandboxJournal's binary form, shared by the journal's records and the
// snapshot: the fields in declaration order.

extension BinaryWriter {
    static func append(_ money: Money, to bytes: inout [UInt8]) {
        append(money.hundredths, to: &bytes)
    }

    static func append(_ money: Money?, to bytes: inout [UInt8]) {
        append(money != nil, to: &bytes)
        if let money { append(money, to: &bytes) }
    }

    static func append(_ time: VirtualTime, to bytes: inout [UInt8]) {
        append(time.milliseconds, to: &bytes)
    }

    static func append(_ status: PayoutStatus, to bytes: inout [UInt8]) {
        append(status.rawValue, to: &bytes)  // not the API name: a return is REJECTED there
    }

    static func append(_ step: TimelineStep, to bytes: inout [UInt8]) {
        let (seconds, attoseconds) = step.after.components
        append(seconds, to: &bytes)
        append(attoseconds, to: &bytes)
        append(step.businessDays, to: &bytes)
        append(step.status, to: &bytes)
        append(step.rejectionCode, to: &bytes)
        append(step.rejectionReason, to: &bytes)
        append(step.bankReferenceID, to: &bytes)
        append(step.statusReason, to: &bytes)
    }

    static func append(_ fields: PayoutFields, to bytes: inout [UInt8]) {
        append(UInt64(fields.count), to: &bytes)
        for field in fields {
            append(field.name, to: &bytes)
            append(field.value, to: &bytes)
        }
    }

    static func append(_ timeline: [TimelineStep], to bytes: inout [UInt8]) {
        append(UInt64(timeline.count), to: &bytes)
        for step in timeline { append(step, to: &bytes) }
    }

    static func append(_ outcome: DeliveryOutcome, to bytes: inout [UInt8]) {
        append(outcome.status, to: &bytes)
        append(outcome.error, to: &bytes)
        append(outcome.body, to: &bytes)
    }

    static func append(_ merchant: Merchant, to bytes: inout [UInt8]) {
        for text in [merchant.login, merchant.pass, merchant.secret, merchant.readOnlyKey, merchant.currency] {
            append(text, to: &bytes)
        }
        append(merchant.balance, to: &bytes)
        append(merchant.limits.transaction, to: &bytes)
        append(merchant.limits.daily, to: &bytes)
        append(merchant.limits.monthly, to: &bytes)
        let minimums = merchant.minimumAmounts.sorted { $0.key < $1.key }
        append(UInt64(minimums.count), to: &bytes)
        for (country, amount) in minimums {
            append(country, to: &bytes)
            append(amount, to: &bytes)
        }
        append(UInt64(merchant.allowedIPs.count), to: &bytes)
        for address in merchant.allowedIPs { append(address, to: &bytes) }
        append(merchant.callbackURL, to: &bytes)
    }
}

extension BinaryReader {
    mutating func money() throws(Malformed) -> Money {
        Money(hundredths: try int64())
    }

    mutating func optionalMoney() throws(Malformed) -> Money? {
        try bool() ? try money() : nil
    }

    /// A time the clock can reach.
    mutating func time() throws(Malformed) -> VirtualTime {
        let start = offset
        let milliseconds = try int64()
        guard (0 ... VirtualClock.end.milliseconds).contains(milliseconds) else { throw Malformed(offset: start, reason: "a time out of range") }
        return VirtualTime(milliseconds: milliseconds)
    }

    mutating func status() throws(Malformed) -> PayoutStatus {
        let start = offset
        let name = try string()
        guard let status = PayoutStatus(rawValue: name) else { throw Malformed(offset: start, reason: "an unknown status \(name)") }
        return status
    }

    /// A step with a delay a scenario can give (at most 100 years and 3,650 business days).
    mutating func step() throws(Malformed) -> TimelineStep {
        let start = offset
        let (seconds, attoseconds, businessDays) = (try int64(), try int64(), try int())
        guard (0 ... 100 * 366 * 86_400).contains(seconds), (0 ..< 1_000_000_000_000_000_000).contains(attoseconds),
              (0 ... 3650).contains(businessDays) else { throw Malformed(offset: start, reason: "a step delay out of range") }
        let after = Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
        var step = TimelineStep(after: after, status: try status(), rejectionCode: try optionalInt(),
                                rejectionReason: try optionalString(), bankReferenceID: try optionalString(),
                                statusReason: try optionalString())
        step.businessDays = businessDays
        return step
    }

    mutating func fields() throws(Malformed) -> PayoutFields {
        var fields = PayoutFields()
        for _ in 0 ..< (try count()) {
            let name = try string()
            fields[name] = try string()
        }
        return fields
    }

    mutating func timeline() throws(Malformed) -> [TimelineStep] {
        var timeline: [TimelineStep] = []
        for _ in 0 ..< (try count()) { timeline.append(try step()) }
        return timeline
    }

    mutating func outcome() throws(Malformed) -> DeliveryOutcome {
        DeliveryOutcome(status: try optionalInt(), error: try optionalString(), body: try optionalString())
    }

    mutating func merchant() throws(Malformed) -> Merchant {
        let (login, pass, secret, readOnlyKey, currency) = (try string(), try string(), try string(), try string(), try string())
        let balance = try money()
        let limits = Merchant.Limits(transaction: try optionalMoney(), daily: try optionalMoney(), monthly: try optionalMoney())
        var minimums: [String: Money] = [:]
        for _ in 0 ..< (try count()) {
            let country = try string()
            minimums[country] = try money()
        }
        var allowedIPs: [String] = []
        for _ in 0 ..< (try count()) { allowedIPs.append(try string()) }
        return Merchant(login: login, pass: pass, secret: secret, readOnlyKey: readOnlyKey, currency: currency, balance: balance,
                        limits: limits, minimumAmounts: minimums, allowedIPs: allowedIPs, callbackURL: try optionalString())
    }
}
