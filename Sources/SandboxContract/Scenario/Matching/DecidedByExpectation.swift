/// What decided a cashout's fate, by kind (the admin API's `decided_by.kind`).
public enum DecisionKind: String, Sendable, CaseIterable {
    /// A rule of a scenario the user loaded.
    case rule
    /// A rule of a dialect's built-in scenario.
    case magicValue = "magic_value"
    /// No rule matched.
    case defaultTimeline = "default"
    /// The admin forced the outcome.
    case forced
    /// Not recorded (a journal of a sandbox that did not record it).
    case unknown
}

/// `expect_cashout`'s `decided_by`: a rule's name, a matcher on it, or an object of `kind`,
/// `rule`, `index` and `outcome`. A rule's name, index or outcome holds only when a rule (or a
/// magic value) decided.
package struct DecidedByExpectation: Sendable {
    package var kind: DecisionKind?
    /// The rule's name.
    package var rule: Matcher?
    /// The rule's place among its scenario's rules (`bank.rules[index]`).
    package var index: Int?
    /// The weighted outcome drawn (`outcomes[outcome]`).
    package var outcome: Int?

    init(kind: DecisionKind? = nil, rule: Matcher? = nil, index: Int? = nil, outcome: Int? = nil) {
        self.kind = kind
        self.rule = rule
        self.index = index
        self.outcome = outcome
    }
}
