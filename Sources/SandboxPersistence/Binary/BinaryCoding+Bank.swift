import SandboxBank
import SandboxSupport

// The bank's values in the binary form (`BinaryWriter`, `BinaryReader`), shared by the journal's
// records and the snapshot: the fields in declaration order.

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
        append(step.reasonCode, to: &bytes)  // one call each, as in BankRecord.encode
        append(step.reason, to: &bytes)
        append(step.bankReference, to: &bytes)
        append(step.statusDetail, to: &bytes)
    }

    /// A delay in whole milliseconds, or none.
    static func append(delay: Duration?, to bytes: inout [UInt8]) {
        let milliseconds = delay.map { delay in
            let (seconds, attoseconds) = delay.components
            return Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        }
        append(milliseconds, to: &bytes)
    }

    static func append(_ fields: Fields, to bytes: inout [UInt8]) {
        append(UInt64(fields.count), to: &bytes)
        fields.forEachUTF8 { name, value in
            append(bytes: name, to: &bytes)  // a string's form: its length, then its UTF-8
            append(bytes: value, to: &bytes)
        }
    }

    static func append(_ timeline: [TimelineStep], to bytes: inout [UInt8]) {
        append(UInt64(timeline.count), to: &bytes)
        for step in timeline { append(step, to: &bytes) }
    }

    static func append(_ decision: TimelineDecision, to bytes: inout [UInt8]) {
        bytes.append(decision.kind.rawValue)
        append(decision.scenario, to: &bytes)
        append(decision.rule, to: &bytes)
        append(decision.index, to: &bytes)
        append(decision.outcome, to: &bytes)
    }

    static func append(_ outcome: DeliveryOutcome, to bytes: inout [UInt8]) {
        append(outcome.status, to: &bytes)
        append(outcome.error, to: &bytes)
        append(outcome.body, to: &bytes)
    }

    static func append(_ account: Account, to bytes: inout [UInt8]) {
        for text in [account.id, account.dialect, account.currency] { append(text, to: &bytes) }
        append(account.balance, to: &bytes)
        append(account.limits.transaction, to: &bytes)
        append(account.limits.daily, to: &bytes)
        append(account.limits.monthly, to: &bytes)
        let minimums = account.minimumAmounts.sorted { $0.key < $1.key }
        append(UInt64(minimums.count), to: &bytes)
        for (country, amount) in minimums {
            append(country, to: &bytes)
            append(amount, to: &bytes)
        }
        append(account.callbackURL, to: &bytes)
        append(account.settings, to: &bytes)
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

    /// A status a payout can be created in.
    mutating func startStatus() throws(Malformed) -> PayoutStatus {
        let start = offset
        let status = try status()
        guard status.isStart else {
            throw Malformed(offset: start, reason: "a payout created \(status.name)")
        }
        return status
    }

    /// A reason code: text, or (before version 3) a number.
    mutating func reasonCode(_ format: BankFormat) throws(Malformed) -> String? {
        format.version >= 3 ? try optionalString() : try optionalInt().map(String.init)
    }

    /// A step with a delay a scenario can give (at most 100 years and 3,650 business days).
    mutating func step(_ format: BankFormat) throws(Malformed) -> TimelineStep {
        let start = offset
        let (seconds, attoseconds, businessDays) = (try int64(), try int64(), try int())
        guard (0 ... 100 * 366 * 86_400).contains(seconds), (0 ..< 1_000_000_000_000_000_000).contains(attoseconds),
              (0 ... 3650).contains(businessDays) else { throw Malformed(offset: start, reason: "a step delay out of range") }
        let after = Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
        var step = TimelineStep(after: after, status: try status(), reasonCode: try reasonCode(format),
                                reason: try optionalString(), bankReference: try optionalString(), statusDetail: try optionalString())
        step.businessDays = businessDays
        return step
    }

    /// A delay written by `append(delay:)`, at most 100 years.
    mutating func optionalDelay() throws(Malformed) -> Duration? {
        let start = offset
        guard let milliseconds = try optionalInt() else { return nil }
        // PayoutRequest.longestExpiry
        guard (0 ... 100 * 366 * 86_400_000).contains(milliseconds) else { throw Malformed(offset: start, reason: "a delay out of range") }
        return .milliseconds(milliseconds)
    }

    /// Packed as a payout's fields are when it is made (`Fields.init`): without room to grow.
    mutating func fields() throws(Malformed) -> Fields {
        let count = try count()
        var pairs: [Fields.UTF8Pair] = []
        pairs.reserveCapacity(count)
        for _ in 0 ..< count { pairs.append((try utf8(), try utf8())) }
        return Fields(utf8: pairs)
    }

    /// Shared with the equal timelines read before (`TimelineStep.decoded`), as the live payouts
    /// of a rule share its steps: a journal or a snapshot writes them out once per payout.
    mutating func timeline(_ format: BankFormat) throws(Malformed) -> [TimelineStep] {
        var timeline: [TimelineStep] = []
        for _ in 0 ..< (try count()) { timeline.append(try step(format)) }
        return TimelineStep.decoded.intern(timeline)
    }

    /// What chose a timeline; `unknown` before version 5, which did not record it.
    mutating func decision(_ format: BankFormat) throws(Malformed) -> TimelineDecision {
        guard format.version >= 5 else { return .unknown }
        let kind = TimelineDecision.Kind(rawValue: try tag(below: UInt8(TimelineDecision.Kind.allCases.count)))!
        let (scenario, rule) = (try optionalString(), try optionalString())
        let start = offset
        let (index, outcome) = (try optionalInt(), try optionalInt())
        guard [index, outcome].allSatisfy({ ($0 ?? 0) >= 0 }) else { throw Malformed(offset: start, reason: "a negative rule or outcome number") }
        return TimelineDecision(kind: kind, scenario: scenario, rule: rule, index: index, outcome: outcome)
    }

    mutating func outcome() throws(Malformed) -> DeliveryOutcome {
        DeliveryOutcome(status: try optionalInt(), error: try optionalString(), body: try optionalString())
    }

    mutating func account(_ format: BankFormat) throws(Malformed) -> Account {
        guard format.version >= 3 else { return try legacyAccount(format) }
        let (id, dialect, currency, balance) = (try string(), try string(), try string(), try money())
        let limits = Account.Limits(transaction: try optionalMoney(), daily: try optionalMoney(), monthly: try optionalMoney())
        let minimums = try minimumAmounts()
        return Account(id: id, dialect: dialect, currency: currency, balance: balance, limits: limits, minimumAmounts: minimums,
                       callbackURL: try optionalString(), settings: try fields())
    }

    /// An account as versions before 3 wrote it: its id and the one API's three credentials first.
    private mutating func legacyAccount(_ format: BankFormat) throws(Malformed) -> Account {
        let (id, credentials, currency) = (try string(), [try string(), try string(), try string()], try string())
        let balance = try money()
        let limits = Account.Limits(transaction: try optionalMoney(), daily: try optionalMoney(), monthly: try optionalMoney())
        let minimums = try minimumAmounts()
        var addresses: [String] = []
        for _ in 0 ..< (try count()) { addresses.append(try string()) }
        return Account(id: id, dialect: format.legacyDialect, currency: currency, balance: balance, limits: limits,
                       minimumAmounts: minimums, callbackURL: try optionalString(),
                       settings: format.legacySettings(credentials, addresses))
    }

    private mutating func minimumAmounts() throws(Malformed) -> [String: Money] {
        var minimums: [String: Money] = [:]
        for _ in 0 ..< (try count()) {
            let country = try string()
            minimums[country] = try money()
        }
        return minimums
    }
}

extension TimelineStep {
    /// The timelines read from journals and snapshots, each distinct one kept once: a million
    /// payouts of a few rules have a few timelines between them. At most 4,096 are kept (random
    /// delays can make more): past that, the table starts afresh (`InternTable`).
    static let decoded = SharedValues<[TimelineStep]>(capacity: 4096)
}
