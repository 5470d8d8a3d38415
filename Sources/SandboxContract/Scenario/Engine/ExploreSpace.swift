package import SandboxBank
import SandboxWire
package import SandboxSupport

/// A suite's `explore` section: the space of bank behaviour `cashout-sandbox explore` draws each
/// run from (the Testing your app guide, "Exploring"). Each run is the suite with three sections
/// added: a rule of weighted outcomes that every payout no rule of the suite matches falls under,
/// chaos rules and fault rules with rates, all drawn from the run's seed. What a run drew is then
/// read back from the bank, and a failing run is written as fixed rules (`ExploredRun`).
package struct ExploreSpace: Sendable {
    /// `{"weight": N, "then": [...]}`, as a rule's `outcomes` are written; the first is the usual fate.
    var outcomes: [JSON]
    /// The first outcome's timeline: what a payout not otherwise pinned takes in a shrunk file.
    package var usualFate: [JSON] { outcomes.first?["then"]?.arrayValue ?? [] }
    /// The chance that a payout whose outcome ends COMPLETED is reversed `lateReversalAfter` later.
    var lateReversal: Double
    var lateReversalAfter: Duration
    /// A rate per chaos kind (`duplicate`, `forged`, `replay`, `delayed`, `out_of_order`).
    var chaos: [(kind: ChaosKind, rate: Double)]
    /// A rate per fault kind (`drop_after_commit`, `error`, `latency`).
    package var faults: [(kind: FaultKind, rate: Double)]

    /// The space a suite without an `explore` section, or with `"explore": {}`, gets: it can show
    /// every finding the reports know that the bank, and not the app alone, brings about.
    package static let standard = ExploreSpace(
        outcomes: [
            ["weight": 6, "then": [["after": ["min": "1s", "max": "10s"], "status": "DELIVERED"],
                                   ["after": ["min": "1s", "max": "10s"], "status": "COMPLETED"]]],
            ["weight": 2, "then": [["after": ["min": "1s", "max": "10s"], "status": "REJECTED"]]],
            ["weight": 1, "then": [["after": ["min": "1s", "max": "10s"], "status": "DELIVERED"],
                                   ["after": ["min": "1s", "max": "10s"], "status": "REJECTED"]]],
        ],
        lateReversal: 0.15, lateReversalAfter: .seconds(30),
        chaos: [(.duplicate, 0.15), (.forged, 0.15), (.replay, 0.1), (.delayed, 0.1), (.outOfOrder, 0.1)],
        faults: [(.dropAfterCommit, 0.1), (.error, 0.05), (.latency, 0.05)])

    /// The name of a run's rule of weighted outcomes, and how its chaos rules' names begin: what
    /// tells what a run drew from what its suite fixed.
    package static let outcomeRule = "explored outcome"
    package static let chaosRulePrefix = "explored "

    /// The body of an explored `error` fault.
    static let errorBody = #"{"message":"explored fault: service unavailable"}"#

    /// What each chaos kind's rule adds: its delay.
    package static func chaosDelay(_ kind: ChaosKind) -> (key: String, value: String)? {
        switch kind {
        case .duplicate, .forged, .replay: ("after", "1s")
        case .delayed: ("delay", "20s")
        case .outOfOrder: ("release_after", "30s")
        }
    }

    /// The run's sections: the rules with the weighted outcomes (a late reversal split off each
    /// outcome that completes, with its API's late-rejection code: one rule for each API of
    /// `vocabulary` that has one, then one for any payout), the chaos rules and the fault rules,
    /// each with its rate.
    package func runSections(_ vocabulary: ScenarioVocabulary) -> (rules: [JSON], chaos: [JSON], faults: [JSON]) {
        func rule(lateCode: String?) -> JSON {
            var weighted: [JSON] = []
            for outcome in outcomes {
                let weight = Int(outcome["weight"]?.numberText ?? "1") ?? 1
                let then = outcome["then"]?.arrayValue ?? []
                guard lateReversal > 0, then.last?["status"]?.stringValue == "COMPLETED" else {
                    weighted.append(["weight": .number(weight * 100), "then": .array(then)])
                    continue
                }
                let reversed = Int((Double(weight * 100) * lateReversal).rounded())
                if weight * 100 - reversed > 0 { weighted.append(["weight": .number(weight * 100 - reversed), "then": .array(then)]) }
                if reversed > 0 {
                    var step: [String: JSON] = ["after": .string(DurationText.format(lateReversalAfter)), "status": "REJECTED"]
                    if let lateCode { step["rejection_code"] = Int(lateCode) == nil ? .string(lateCode) : .number(lateCode) }
                    weighted.append(["weight": .number(reversed), "then": .array(then + [.object(step)])])
                }
            }
            return ["name": .string(Self.outcomeRule), "outcomes": .array(weighted)]
        }
        let lateCodes = lateReversal > 0 ? vocabulary.dialects.compactMap { name, terms in terms.rejectionCodes.lateRejection.map { (name, $0) } }
            .sorted { $0.0 < $1.0 } : []
        let rules = lateCodes.map { name, code -> JSON in
            var dialectRule = rule(lateCode: code).objectValue ?? [:]
            dialectRule["when"] = ["dialect": .string(name)]
            return .object(dialectRule)
        } + [rule(lateCode: nil)]
        let chaosRules: [JSON] = chaos.filter { $0.rate > 0 }.map { kind, rate in
            var rule: [String: JSON] = ["name": .string(Self.chaosRulePrefix + kind.rawValue), "kind": .string(kind.rawValue),
                                        "rate": .number("\(rate)")]
            if let (key, value) = Self.chaosDelay(kind) { rule[key] = .string(value) }
            return .object(rule)
        }
        let faultRules: [JSON] = faults.filter { $0.rate > 0 }.map { kind, rate in
            let rule: [String: JSON] = ["kind": .string(kind.rawValue), "rate": .number("\(rate)")]
            return .object(rule.merging(kind.exploredRule) { $1 })
        }
        return (rules, chaosRules, faultRules)
    }
}

extension ScenarioLoader {
    /// `{"outcomes": [{"weight", "then"}], "late_reversal": 0.1, "late_reversal_after": "30s",
    /// "chaos": {"duplicate": 0.1, ...}, "faults": {"drop_after_commit": 0.1, ...}}`; a key left
    /// out keeps the standard space's, inside `chaos` and `faults` too (a rate of 0 switches a kind off).
    static func readExplore(_ node: ScenarioNode, _ vocabulary: ScenarioVocabulary) throws(ScenarioError) -> ExploreSpace {
        let fields = try node.object(allowed: ScenarioFormat.Keys.explore)
        var space = ExploreSpace.standard
        if let outcomes = fields["outcomes"] {
            let reach = reach(nil, vocabulary)
            space.outcomes = try outcomes.array().map { (choice) throws(ScenarioError) -> JSON in
                let parts = try choice.object(allowed: ["weight", "then"])
                guard let weight = parts["weight"], let then = parts["then"] else { throw choice.fail("expected \"weight\" and \"then\"") }
                _ = try weight.integer(1 ... 10000)
                _ = try readTimeline(then, reach: reach, vocabulary)
                return choice.value
            }
            guard !space.outcomes.isEmpty else { throw outcomes.fail("expected at least one outcome") }
        }
        if let rate = fields["late_reversal"] { space.lateReversal = try rate.rate() }
        if let after = fields["late_reversal_after"] { space.lateReversalAfter = try after.duration() }
        // A kind left out keeps the standard rate; 0 switches it off.
        if let chaos = fields["chaos"] {
            let rates = try chaos.object(allowed: chaosKindNames)
            space.chaos = try space.chaos.map { (kind, rate) throws(ScenarioError) in (kind, try rates[kind.rawValue]?.rate() ?? rate) }
        }
        // Any kind may be explored: one the standard space leaves out has rate 0 unless given, and comes after the
        // standard kinds, whose order (and so every explored run of the standard space) stays as it was.
        if let faults = fields["faults"] {
            let rates = try faults.object(allowed: FaultKind.allCases.map(\.rawValue).sorted())
            let others = FaultKind.allCases.filter { kind in !space.faults.contains { $0.kind == kind } }.map { (kind: $0, rate: 0.0) }
            space.faults = try (space.faults + others).map { (kind, rate) throws(ScenarioError) in
                (kind, try rates[kind.rawValue]?.rate() ?? rate)
            }
        }
        return space
    }
}
