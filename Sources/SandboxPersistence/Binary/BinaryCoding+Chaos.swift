import SandboxBank

// Webhook chaos in the bank's binary form (format 6), shared by journal records and snapshots:
//
//   plan  = matched:(count int*) shift:u8 (0 none, 1 delay, 2 hold) [ms:int rule] copies:(count copy)
//           [progress: releasedBy:optInt]
//   copy  = kind:u8 after:ms rule [progress: u8 (0 waiting, 1 due, 2 sent) [time] setOffBy:optInt]
//   rule  = index:int name:optString
//   mark  = kind:u8 rule:(bool rule) copy:optInt copyOf:optInt delay:optMs after:optInt
//
// A journal's plan is as decided (`progress` false); a snapshot's carries how far it went.

extension BinaryWriter {
    static func append(_ plan: ChaosPlan, progress: Bool, to bytes: inout [UInt8]) {
        append(UInt64(plan.matched.count), to: &bytes)
        for rule in plan.matched { append(rule, to: &bytes) }
        switch plan.shift {
        case nil: bytes.append(0)
        case .delay(let delay)?:
            bytes.append(1)
            append(delay: delay, to: &bytes)
        case .hold(let atMost)?:
            bytes.append(2)
            append(delay: atMost, to: &bytes)
        }
        if plan.shift != nil { append(plan.shiftRule ?? ChaosRule(index: 0, name: nil), to: &bytes) }
        append(UInt64(plan.copies.count), to: &bytes)
        for copy in plan.copies {
            bytes.append(UInt8(ChaosKind.allCases.firstIndex(of: copy.kind)!))
            append(delay: copy.after, to: &bytes)
            append(copy.rule, to: &bytes)
            guard progress else { continue }
            switch copy.progress {
            case .waiting: bytes.append(0)
            case .due(let at):
                bytes.append(1)
                append(at, to: &bytes)
            case .sent: bytes.append(2)
            }
            append(copy.setOffBy, to: &bytes)
        }
        if progress { append(plan.releasedBy, to: &bytes) }
    }

    static func append(_ rule: ChaosRule, to bytes: inout [UInt8]) {
        append(rule.index, to: &bytes)
        append(rule.name, to: &bytes)
    }

    static func append(_ mark: ChaosMark, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ChaosKind.allCases.firstIndex(of: mark.kind)!))
        append(mark.rule != nil, to: &bytes)
        if let rule = mark.rule { append(rule, to: &bytes) }
        append(mark.copy, to: &bytes)
        append(mark.copyOf, to: &bytes)
        append(delay: mark.delay, to: &bytes)
        append(mark.after, to: &bytes)
    }
}

extension BinaryReader {
    mutating func chaosPlan(progress: Bool) throws(Malformed) -> ChaosPlan {
        var plan = ChaosPlan()
        for _ in 0 ..< (try count()) { plan.matched.append(try chaosRuleIndex()) }
        let start = offset
        switch try tag(below: 3) {
        case 1: plan.shift = .delay(try chaosDelay())
        case 2: plan.shift = .hold(atMost: try chaosDelay())
        default: break
        }
        if plan.shift != nil { plan.shiftRule = try chaosRule() }
        for _ in 0 ..< (try count()) {
            let kind = try chaosKind()
            guard kind.isCopy else { throw Malformed(offset: start, reason: "a chaos copy of kind \(kind.rawValue)") }
            let (after, rule) = (try chaosDelay(), try chaosRule())
            var copyProgress = ChaosPlan.Copy.Progress.waiting, setOffBy: Int?
            if progress {
                switch try tag(below: 3) {
                case 1: copyProgress = .due(try time())
                case 2: copyProgress = .sent
                default: break
                }
                setOffBy = try optionalInt()
            }
            plan.copies.append(ChaosPlan.Copy(kind: kind, after: after, rule: rule, progress: copyProgress, setOffBy: setOffBy))
        }
        guard progress else { return plan }
        return ChaosPlan(shift: plan.shift, shiftRule: plan.shiftRule, copies: plan.copies, matched: plan.matched,
                         releasedBy: try optionalInt())
    }

    /// A snapshot's plan, with its progress, or none.
    mutating func optionalChaosPlan() throws(Malformed) -> ChaosPlan? {
        try bool() ? try chaosPlan(progress: true) : nil
    }

    mutating func optionalChaosMark() throws(Malformed) -> ChaosMark? {
        try bool() ? try chaosMark() : nil
    }

    mutating func chaosMark() throws(Malformed) -> ChaosMark {
        let kind = try chaosKind()
        let rule = try bool() ? try chaosRule() : nil
        return ChaosMark(kind: kind, rule: rule, copy: try optionalInt(), copyOf: try optionalInt(), delay: try optionalDelay(),
                         after: try optionalInt())
    }

    private mutating func chaosKind() throws(Malformed) -> ChaosKind {
        ChaosKind.allCases[Int(try tag(below: UInt8(ChaosKind.allCases.count)))]
    }

    private mutating func chaosRule() throws(Malformed) -> ChaosRule {
        ChaosRule(index: try chaosRuleIndex(), name: try optionalString())
    }

    /// A rule's place: far from anything a count could overflow on.
    private mutating func chaosRuleIndex() throws(Malformed) -> Int {
        let start = offset
        let index = try int()
        guard (0 ... 1 << 32).contains(index) else { throw Malformed(offset: start, reason: "a chaos rule index out of range") }
        return index
    }

    private mutating func chaosDelay() throws(Malformed) -> Duration {
        let start = offset
        guard let delay = try optionalDelay() else { throw Malformed(offset: start, reason: "a chaos delay missing") }
        return delay
    }
}
