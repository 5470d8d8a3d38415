import SandboxBank

/// Turns a scenario's rules into the bank's decisions: the first rule whose `when` matches a
/// payout decides its timeline (or declines it); payouts no rule matches follow the default.
///
/// Random choices (delay ranges, weighted outcomes) use a generator seeded by the scenario's seed
/// and the payout's id, so the same scenario and seed give the same timelines whatever order
/// concurrent requests arrive in.
public struct RuleEngine: Sendable {
    public let rules: [Rule]
    public let defaultTimeline: [TimelineStepSpec]
    public let seed: UInt64
    /// `rules`' timelines, and the default, ready to resolve.
    private let plans: [Plan?]
    private let defaultPlan: Plan

    public init(rules: [Rule], defaultTimeline: [TimelineStepSpec], seed: UInt64) {
        self.rules = rules
        self.defaultTimeline = defaultTimeline
        self.seed = seed
        plans = rules.map { rule in
            switch rule.outcome {
            case .timeline(let steps): .one(Timeline(steps))
            case .weighted(let choices): .weighted(choices.map { ($0.weight, Timeline($0.steps)) })
            case .decline: nil
            }
        }
        defaultPlan = .one(Timeline(defaultTimeline))
    }

    /// A rule's timeline, or its weighted choice of timelines.
    private enum Plan: Sendable {
        case one(Timeline)
        case weighted([(weight: Int, timeline: Timeline)])
    }

    /// Steps whose delays are resolved per payout; resolved once when none is random, so payouts
    /// share one array.
    private struct Timeline: Sendable {
        let specs: [TimelineStepSpec]
        let fixed: [TimelineStep]?

        init(_ specs: [TimelineStepSpec]) {
            self.specs = specs
            let random = specs.contains { if case .range = $0.after { true } else { false } }
            var unused = SplitMix64(seed: 0)
            fixed = random ? nil : Self.resolve(specs, &unused)
        }

        func steps(_ random: inout SplitMix64) -> [TimelineStep] {
            fixed ?? Self.resolve(specs, &random)
        }

        private static func resolve(_ specs: [TimelineStepSpec], _ random: inout SplitMix64) -> [TimelineStep] {
            specs.map { spec in
                var step = spec.step
                switch spec.after {
                case .fixed(let duration): step.after = duration
                case .range(let min, let max): step.after = .milliseconds(random.next(in: min.wholeMilliseconds ... max.wholeMilliseconds))
                case .businessDays(let days): step.businessDays = days
                }
                return step
            }
        }
    }

    /// The timeline for a new payout, its random choices resolved.
    public func timeline(for payout: Payout) -> [TimelineStep] {
        var random = SplitMix64(seed: seed ^ UInt64(payout.id) &* 0x9E37_79B9_7F4A_7C15)
        let index = rules.indices.first { plans[$0] != nil && matches(rules[$0], fields: payout.fields, merchant: payout.account, dialect: payout.dialect) }
        switch index.flatMap({ plans[$0] }) ?? defaultPlan {
        case .one(let timeline): return timeline.steps(&random)
        case .weighted(let choices): return Self.pick(choices, &random).steps(&random)
        }
    }

    /// The decline of the first matching rule, if that rule declines.
    public func decline(for request: PayoutRequest) -> Decline? {
        for rule in rules where matches(rule, fields: request.fields, merchant: request.account, dialect: request.dialect) {
            if case .decline(let decline) = rule.outcome { return decline }
            return nil
        }
        return nil
    }

    private func matches(_ rule: Rule, fields: Fields, merchant: String, dialect: String) -> Bool {
        rule.when.allSatisfy { field, matcher in
            switch field {
            case "merchant": matcher.matches(merchant)
            case "dialect": matcher.matches(dialect)
            default: matcher.matches(fields[field])
            }
        }
    }

    private static func pick(_ choices: [(weight: Int, timeline: Timeline)], _ random: inout SplitMix64) -> Timeline {
        let total = choices.reduce(0) { $0 + Int64($1.weight) }
        var roll = random.next(in: 0 ... total - 1)
        for choice in choices {
            if roll < Int64(choice.weight) { return choice.timeline }
            roll -= Int64(choice.weight)
        }
        return choices[choices.count - 1].timeline
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
