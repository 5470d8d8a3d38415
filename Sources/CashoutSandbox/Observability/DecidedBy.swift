import SandboxWire
public import SandboxBank
package import SandboxSupport
public import SandboxContract

/// What decided a cashout's fate, as the admin API's `decided_by` shows it (the Scenario files guide, "Which rule
/// decided"): the admin's last forced outcome, else what chose the bank's timeline: a rule of a
/// scenario, a magic value (a rule of a dialect's built-in scenario) or the default timeline.
///
/// ```swift
/// let decided = sandbox.cashout(id: 1_000_001)!.decidedBy
/// #expect(decided.kind == .magicValue && decided.timeline.rule == "REJECT 801")
/// ```
public struct DecidedBy: Sendable, Equatable {
    /// What kind of thing decided: a rule, a magic value, the admin, the default timeline...
    public typealias Kind = DecisionKind

    /// What kind of thing decided the cashout's fate.
    public let kind: Kind
    /// What chose the bank's timeline (for a forced fate too: the timeline the admin ended).
    public let timeline: TimelineDecision
    /// For `forced`: the action.
    public let action: ForcedAction?
    /// For `forced`: when the admin forced it.
    public let forcedAt: VirtualTime?

    /// `payout`'s, whose timeline `timeline` chose. A release is no fate: the timeline starts again.
    package init(_ payout: Payout, timeline: TimelineDecision) {
        self.timeline = timeline
        if let change = payout.history.last(where: { $0.by == ForcedAction.actor }), let action = ForcedAction(setting: change.status),
           action != .release {
            (kind, self.action, forcedAt) = (.forced, action, change.at)
            return
        }
        kind = switch timeline.kind {
        case .rule: .rule
        case .magicValue: .magicValue
        case .defaultTimeline: .defaultTimeline
        case .unknown: .unknown
        }
        (action, forcedAt) = (nil, nil)
    }

    /// One line for people (the dashboard shows it as it is), e.g. `magic value "REJECT 801"
    /// (bank.rules[1] of the built-in scenario "default bank")`.
    public var summary: String {
        let scenario = timeline.scenario.map { "scenario \"\($0)\"" }
        switch kind {
        case .rule, .magicValue:
            let place = "bank.rules[\(timeline.index ?? 0)] of " + (kind == .magicValue ? "the built-in " : "") + (scenario ?? "a scenario")
            let named = timeline.rule.map { "\"\($0)\" (\(place))" } ?? place  // an unnamed rule: its place
            let drawn = timeline.outcome.map { ", outcomes[\($0)] drawn" } ?? ""
            return "\(kind == .rule ? "rule" : "magic value") \(named)\(drawn)"
        case .defaultTimeline: return scenario.map { "the default timeline of \($0)" } ?? "the bank's default timeline"
        case .forced: return "forced by the admin API: \(action!.rawValue) at \(forcedAt!.iso8601)"
        case .unknown: return "decided before this sandbox recorded it"
        }
    }

    /// `{"kind": ..., "summary": ..., details}`: a rule's `scenario`, `rule` (its name or null),
    /// `index` and `outcome` (the weighted outcome drawn, or null); the default's `scenario`;
    /// a forced fate's `action` and `at`.
    package var json: JSON {
        var json: [String: JSON] = ["kind": .string(kind.rawValue), "summary": .string(summary)]
        switch kind {
        case .rule, .magicValue:
            json["scenario"] = AdminJSON.optional(timeline.scenario)
            json["rule"] = AdminJSON.optional(timeline.rule)
            json["index"] = AdminJSON.optional(timeline.index)
            json["outcome"] = AdminJSON.optional(timeline.outcome)
        case .defaultTimeline:
            json["scenario"] = AdminJSON.optional(timeline.scenario)
        case .forced:
            json["action"] = .string(action!.rawValue)
            json["at"] = .string(forcedAt!.iso8601)
        case .unknown:
            break
        }
        return .object(json)
    }
}
