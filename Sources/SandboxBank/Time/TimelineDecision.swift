/// What chose a payout's timeline, as whoever decides timelines (the scenario engine) tells the
/// bank: a rule of a scenario, a rule of a built-in scenario (a magic value), or the default
/// timeline. The bank keeps it with the payout's plan, each distinct decision once
/// (`PayoutTable`), and journals it; it never acts on it.
public struct TimelineDecision: Sendable, Hashable {
    /// Which kind of thing chose the timeline.
    public enum Kind: UInt8, Sendable, CaseIterable {
        /// A rule of a scenario the user loaded.
        case rule
        /// A rule of a built-in scenario: a magic value.
        case magicValue
        /// No rule matched: the default timeline.
        case defaultTimeline
        /// Not known: the payout was journaled by a sandbox that did not record decisions.
        case unknown
    }

    /// A scenario's rule, a magic value, the default timeline, or not known.
    public var kind: Kind
    /// The name of the scenario the rule, or the default timeline, came from; nil for the bank's
    /// own default.
    public var scenario: String?
    /// The rule's name, when it has one.
    public var rule: String?
    /// The rule's place among its scenario's rules (`bank.rules[index]`).
    public var index: Int?
    /// Which of the rule's weighted outcomes was drawn (`outcomes[outcome]`).
    public var outcome: Int?

    /// A decision as the scenario engine tells it to the bank.
    ///
    /// - Parameters:
    ///   - kind: What chose the timeline.
    ///   - scenario: The scenario the rule or the default timeline came from; nil (the default) for the bank's own default.
    ///   - rule: The rule's name, when it has one; nil by default.
    ///   - index: The rule's place among its scenario's rules; nil (the default) without a rule.
    ///   - outcome: Which of the rule's weighted outcomes was drawn; nil (the default) without one.
    public init(kind: Kind, scenario: String? = nil, rule: String? = nil, index: Int? = nil, outcome: Int? = nil) {
        self.kind = kind
        self.scenario = scenario
        self.rule = rule
        self.index = index
        self.outcome = outcome
    }

    /// What a payout journaled before decisions were recorded shows.
    public static let unknown = TimelineDecision(kind: .unknown)

    /// The default timeline of `scenario` (nil: the bank's own, `TimelineStep.defaultTimeline`).
    ///
    /// - Parameters:
    ///   - scenario: The scenario whose default timeline it is; nil for the bank's own.
    /// - Returns: A decision of kind ``Kind/defaultTimeline``.
    public static func defaultTimeline(of scenario: String?) -> TimelineDecision {
        TimelineDecision(kind: .defaultTimeline, scenario: scenario)
    }
}

/// A payout's timeline, and what chose it.
package struct DecidedTimeline: Sendable, Equatable {
    var steps: [TimelineStep]
    var decision: TimelineDecision

    package init(_ steps: [TimelineStep], decision: TimelineDecision = .defaultTimeline(of: nil)) {
        self.steps = steps
        self.decision = decision
    }
}
