import SandboxBank

/// Turns a scenario's `webhooks.chaos` rules into the bank's chaos policy: every rule whose `when`
/// matches a notification (its payout's fields, `merchant`, `dialect`, and the notification's
/// `status`) counts it, and acts on it when it is chosen (`every` Nth match, or `rate`, or always).
/// Copies add up; of the rules that move the notification's first attempt (`delayed`,
/// `out_of_order`), the first chosen acts.
///
/// Random choices (a rate, a delay range) use a generator seeded by the scenario's seed, what the
/// notification is about (its payout's `contentKey` and `occurrence`, its status, and which change
/// of the payout to that status it is) and the rule's place, so the same scenario and seed give the
/// same chaos whatever the timing of deliveries, and whatever order the app made its payouts in.
struct ChaosEngine: Sendable {
    let rules: [ChaosRuleSpec]
    package let seed: UInt64
    /// The rules as written: another text is another policy (its counts start again).
    let identity: String
    /// The payout fields that say what a payout is (`Payout.contentKey`).
    let contentFields: Set<String>

    init(rules: [ChaosRuleSpec], seed: UInt64, identity: String, contentFields: Set<String> = []) {
        self.rules = rules
        self.seed = seed
        self.identity = identity
        self.contentFields = contentFields
    }

    /// nil without rules.
    var policy: ChaosPolicy? {
        guard !rules.isEmpty else { return nil }
        let engine = self
        return ChaosPolicy(identity: "\(seed) \(identity)") { engine.plan(for: $0, of: $1, counts: $2) }
    }

    /// The plan for a notification whose first attempt is due; nil when no rule matches it.
    func plan(for notification: StatusNotification, of payout: Payout, counts: [Int: Int]) -> ChaosPlan? {
        var plan = ChaosPlan()
        // The nth change of the payout to this status (a payout held and released is PENDING twice).
        let nth = payout.history.count { $0.status == notification.status && $0.at <= notification.changedAt }
        let drawnFor = StableHash.of(String(payout.contentKey(contentFields)), String(payout.occurrence), notification.status.name, String(nth))
        for (index, rule) in rules.enumerated() where matches(rule, notification, payout) {
            plan.matched.append(index)
            var random = SplitMix64(seed: seed ^ drawnFor &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(index + 1) &* 0xD1B5_4A32_D192_ED03)
            if let every = rule.every, ((counts[index] ?? 0) + 1) % every != 0 { continue }
            if let rate = rule.rate, Double(random.next() >> 11) / Double(1 << 53) >= rate { continue }
            let delay: Duration = switch rule.delay {
            case .fixed(let duration): duration
            case .range(let min, let max): .milliseconds(random.next(in: min.wholeMilliseconds ... max.wholeMilliseconds))
            }
            let source = ChaosRule(index: index, name: rule.name)
            switch rule.kind {
            case .delayed, .outOfOrder:
                guard plan.shift == nil else { continue }
                plan.shift = rule.kind == .delayed ? .delay(delay) : .hold(atMost: delay)
                plan.shiftRule = source
            case .duplicate, .forged, .replay:
                plan.copies.append(ChaosPlan.Copy(kind: rule.kind, after: delay, rule: source))
            }
        }
        return plan.matched.isEmpty ? nil : plan
    }

    private func matches(_ rule: ChaosRuleSpec, _ notification: StatusNotification, _ payout: Payout) -> Bool {
        rule.when.allSatisfy { field, matcher in
            switch field {
            case "merchant": matcher.matches(payout.account)
            case "dialect": matcher.matches(payout.dialect)
            case "status": matcher.matches(notification.status.name)
            case Rule.occurrence: matcher.matches(String(payout.occurrence))
            default: matcher.matches(payout.fields[field])
            }
        }
    }
}
