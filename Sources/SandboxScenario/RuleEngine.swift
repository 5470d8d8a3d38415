import SandboxBank

/// Turns a scenario's rules into the bank's decisions: the first rule whose `when` matches a
/// payout decides its timeline (or declines it); payouts no rule matches follow the default.
/// Each timeline comes with what chose it (`TimelineDecision`), made once per rule and outcome
/// here, so that payouts share them.
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
    /// `rules`' conditions, their field names numbered once (`Fields.Name`): each create is
    /// matched against every rule up to the first that matches.
    private let conditions: [[(subject: Subject, matcher: Matcher)]]

    /// `defaultScenario` names the scenario the default timeline comes from (nil: none).
    public init(rules: [Rule], defaultTimeline: [TimelineStepSpec], defaultScenario: String? = nil, seed: UInt64) {
        self.rules = rules
        self.defaultTimeline = defaultTimeline
        self.seed = seed
        plans = rules.map { rule in
            let decision = TimelineDecision(kind: rule.origin.builtIn ? .magicValue : .rule, scenario: rule.origin.scenario, rule: rule.name,
                                            index: rule.origin.index)
            switch rule.outcome {
            case .timeline(let steps): return .one(Timeline(steps, decision))
            case .weighted(let choices):
                return .weighted(choices.enumerated().map { outcome, choice in
                    var drawn = decision
                    drawn.outcome = outcome
                    return (choice.weight, Timeline(choice.steps, drawn))
                })
            case .decline: return nil
            }
        }
        defaultPlan = .one(Timeline(defaultTimeline, .defaultTimeline(of: defaultScenario)))
        conditions = rules.map { rule in
            rule.when.map { field, matcher in
                let subject: Subject = switch field {
                case "merchant": .merchant
                case "dialect": .dialect
                default: .field(Fields.Name(field))
                }
                return (subject, matcher)
            }
        }
    }

    /// What a rule's condition looks at.
    private enum Subject: Sendable {
        case merchant, dialect
        case field(Fields.Name)
    }

    /// A rule's timeline, or its weighted choice of timelines.
    private enum Plan: Sendable {
        case one(Timeline)
        case weighted([(weight: Int, timeline: Timeline)])
    }

    /// Steps whose delays are resolved per payout (resolved once when none is random, so payouts
    /// share one array), and what chose them.
    private struct Timeline: Sendable {
        let specs: [TimelineStepSpec]
        let fixed: [TimelineStep]?
        let decision: TimelineDecision

        init(_ specs: [TimelineStepSpec], _ decision: TimelineDecision) {
            self.specs = specs
            self.decision = decision
            let random = specs.contains { if case .range = $0.after { true } else { false } }
            var unused = SplitMix64(seed: 0)
            fixed = random ? nil : Self.resolve(specs, &unused)
        }

        func resolved(_ random: inout SplitMix64) -> DecidedTimeline {
            DecidedTimeline(fixed ?? Self.resolve(specs, &random), decision: decision)
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

    /// The timeline for a new payout, its random choices resolved, and what chose it.
    public func timeline(for payout: Payout) -> DecidedTimeline {
        var random = SplitMix64(seed: seed ^ UInt64(payout.id) &* 0x9E37_79B9_7F4A_7C15)
        let fields = payout.fields
        let index = rules.indices.first { plans[$0] != nil && matches(rule: $0, fields: fields, merchant: payout.account, dialect: payout.dialect) }
        switch index.flatMap({ plans[$0] }) ?? defaultPlan {
        case .one(let timeline): return timeline.resolved(&random)
        case .weighted(let choices): return Self.pick(choices, &random).resolved(&random)
        }
    }

    /// The decline of the first matching rule, if that rule declines.
    public func decline(for request: PayoutRequest) -> Decline? {
        guard let index = rules.indices.first(where: { matches(rule: $0, fields: request.fields, merchant: request.account, dialect: request.dialect) }),
              case .decline(let decline) = rules[index].outcome else { return nil }
        return decline
    }

    private func matches(rule index: Int, fields: Fields, merchant: String, dialect: String) -> Bool {
        conditions[index].allSatisfy { subject, matcher in
            switch subject {
            case .merchant: matcher.matches(merchant)
            case .dialect: matcher.matches(dialect)
            case .field(let name): matcher.matches(fields[name])
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
