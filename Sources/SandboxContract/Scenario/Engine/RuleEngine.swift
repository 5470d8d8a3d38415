import SandboxBank

/// Turns a scenario's rules into the bank's decisions: the first rule whose `when` matches a
/// payout decides its timeline (or declines it); payouts no rule matches follow the default.
/// Each timeline comes with what chose it (`TimelineDecision`), made once per rule and outcome
/// here, so that payouts share them.
///
/// Random choices (delay ranges, weighted outcomes) use a generator seeded by the scenario's seed
/// and what the payout is: its content (`Payout.contentKey`, never an id the app or the sandbox
/// makes) and its occurrence among payouts of that content, so the same scenario and seed give the
/// same timelines whatever order concurrent requests arrive in. A rule's `occurrence` tests which
/// payout of its content a payout is (the 2nd create of 207.00 to Ana Silva).
struct RuleEngine: Sendable {
    let rules: [Rule]
    let defaultTimeline: [TimelineStepSpec]
    package let seed: UInt64
    /// The payout fields that say what a payout is (`Payout.contentKey`), which draws are keyed on.
    let contentFields: Set<String>
    /// `rules`' timelines, and the default, ready to resolve.
    private let plans: [Plan?]
    private let defaultPlan: Plan
    /// Every rule's conditions, one after another (rule i's are `conditions[ranges[i]]`), the
    /// merchant's and the dialect's first. Each create is matched against every rule up to the
    /// first that matches (the built-in ones are some forty), so the fields they look at are
    /// read once per match (`fieldNames`, numbered once), not once a rule.
    private let conditions: [Condition]
    private let ranges: [Range<Int>]
    private let fieldNames: [Fields.Name]

    /// `defaultScenario` names the scenario the default timeline comes from (nil: none).
    init(rules: [Rule], defaultTimeline: [TimelineStepSpec], defaultScenario: String? = nil, seed: UInt64,
                 contentFields: Set<String> = []) {
        self.rules = rules
        self.defaultTimeline = defaultTimeline
        self.seed = seed
        self.contentFields = contentFields
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
        var fieldNames: [String] = [], conditions: [Condition] = [], ranges: [Range<Int>] = []
        for rule in rules {
            let start = conditions.count
            conditions += rule.when.map { field, matcher in
                let subject: Subject = switch field {
                case "merchant": .merchant
                case "dialect": .dialect
                case Rule.occurrence: .occurrence
                default:
                    .field(fieldNames.firstIndex(of: field) ?? {
                        fieldNames.append(field)
                        return fieldNames.count - 1
                    }())
                }
                return Condition(subject: subject, matcher: matcher)
            }.sorted { $0.subject.isField ? false : $1.subject.isField }
            ranges.append(start ..< conditions.count)
        }
        (self.conditions, self.ranges, self.fieldNames) = (conditions, ranges, fieldNames.map(Fields.Name.init))
    }

    /// A rule's test of one value.
    private struct Condition: Sendable {
        let subject: Subject
        let matcher: Matcher
    }

    /// What a rule's condition looks at: a field is known by its place in `fieldNames`.
    private enum Subject: Sendable {
        case merchant, dialect, occurrence
        case field(Int)

        var isField: Bool { if case .field = self { true } else { false } }
    }

    /// A rule's timeline, or its weighted choice of timelines.
    private enum Plan: Sendable {
        case one(Timeline)
        case weighted([(weight: Int, timeline: Timeline)])

        /// Whether it makes a random choice (an outcome, or a delay in a range).
        var draws: Bool {
            if case .one(let timeline) = self { timeline.fixed == nil } else { true }
        }

        /// Its timeline, its random choices made with `random`.
        func resolved(_ random: inout SplitMix64) -> DecidedTimeline {
            switch self {
            case .one(let timeline): timeline.resolved(&random)
            case .weighted(let choices): RuleEngine.pick(choices, &random).resolved(&random)
            }
        }
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
    package func timeline(for payout: Payout) -> DecidedTimeline {
        var values = FieldValues(.payout(payout), names: fieldNames)
        // Whether a rule has a timeline, read in place: not a copy of its plan per rule passed.
        let index = plans.withUnsafeBufferPointer { plans in
            firstMatch(&values, merchant: payout.account, dialect: payout.dialect, occurrence: payout.occurrence) { plans[$0] != nil }
        }
        let plan = index.flatMap { plans[$0] } ?? defaultPlan
        // A fixed timeline draws nothing: its payout's content is not read.
        var hash = StableHash()
        if plan.draws {
            hash.combine(payout.contentKey(contentFields))
            hash.combine(UInt64(payout.occurrence))
        }
        var random = SplitMix64(seed: seed ^ hash.value &* 0x9E37_79B9_7F4A_7C15)
        return plan.resolved(&random)
    }

    /// The decline of the first matching rule, if that rule declines; `occurrence`: which payout
    /// of its content the request would make.
    package func decline(for request: PayoutRequest, occurrence: Int = 1) -> Decline? {
        var values = FieldValues(.fields(request.fields), names: fieldNames)
        guard let index = firstMatch(&values, merchant: request.account, dialect: request.dialect, occurrence: occurrence),
              case .decline(let decline) = rules[index].outcome else { return nil }
        return decline
    }

    /// The first rule that matches, of those `considered`. The conditions are read in place
    /// (through the buffer): reading an array's element copies it, retaining each of its
    /// matcher's parts, and a create meets some forty conditions twice.
    private func firstMatch(_ values: inout FieldValues, merchant: String, dialect: String, occurrence: Int,
                            considering considered: (Int) -> Bool = { _ in true }) -> Int? {
        conditions.withUnsafeBufferPointer { conditions in
            rules: for index in ranges.indices where considered(index) {
                for condition in ranges[index] {
                    let value = switch conditions[condition].subject {
                    case .merchant: merchant
                    case .dialect: dialect
                    case .occurrence: String(occurrence)
                    case .field(let place): values[place]
                    }
                    if !conditions[condition].matcher.matches(value) { continue rules }
                }
                return index
            }
            return nil
        }
    }

    /// The values of the fields the rules look at, by their places in `fieldNames`, each read
    /// once, when a rule first asks for it (none when the first rule to match looks at none).
    private struct FieldValues {
        /// A payout's fields are put together from its template when first read.
        enum Source {
            case fields(Fields)
            case payout(Payout)
        }

        private var source: Source
        private let names: [Fields.Name]
        private var read: [String??] = []

        init(_ source: Source, names: [Fields.Name]) {
            self.source = source
            self.names = names
        }

        subscript(place: Int) -> String? {
            mutating get {
                if read.isEmpty { read = Array(repeating: nil, count: names.count) }
                if let value = read[place] { return value }
                let fields: Fields
                switch source {
                case .fields(let known): fields = known
                case .payout(let payout):
                    fields = payout.fields
                    source = .fields(fields)
                }
                let value = fields[names[place]]
                read[place] = .some(value)
                return value
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
    package var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
