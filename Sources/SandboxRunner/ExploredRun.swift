import CashoutSandbox
import SandboxBank
import SandboxJSON
import SandboxScenario

/// What an explored run drew from its space, read back from the sandbox once it ended and written
/// as fixed rules in the scenario format: each payout whose fate was not the usual one, a rule
/// naming it by its reference with the timeline it took; each chaos copy or shift, a chaos rule
/// for that payout's notification of that status; each fault that changed an answer, a fault rule
/// for that request (its method, path and body), once.
struct ExploredRun: Sendable {
    /// One pinned rule.
    enum Element: Sendable {
        /// A payout's timeline: `when` names it; `then` as it happened.
        case timeline(when: [String: JSON], then: [JSON], name: String)
        case chaos(JSON)
        case fault(JSON)

        var isTimeline: Bool { if case .timeline = self { true } else { false } }

        /// As a rule of `bank.rules`; `shortened`, every delay but the first 1 s.
        func rule(shortened: Bool) -> JSON? {
            guard case .timeline(let when, let then, let name) = self else { return nil }
            let steps = shortened ? then.map { step -> JSON in
                var members = step.objectValue ?? [:]
                members["after"] = "1s"
                return .object(members)
            } : then
            return ["name": .string(name), "when": .object(when), "then": .array(steps)]
        }

        var chaos: JSON? { if case .chaos(let rule) = self { rule } else { nil } }
        var fault: JSON? { if case .fault(let rule) = self { rule } else { nil } }
    }

    private(set) var elements: [Element] = []
    /// What could not be pinned, in a sentence each.
    private(set) var notes: [String] = []

    init() {}

    /// Reads what a run of `space` drew from its sandbox.
    /// `suiteFaults`: how many faults the suite has of its own.
    init(_ sandbox: Sandbox, space: ExploreSpace, suiteFaults: Int, vocabulary: ScenarioVocabulary) {
        let payouts = sandbox.bank.payouts()
        let usual = space.usualFate.compactMap { $0["status"]?.stringValue }
        // What a pinned rule names a payout by: the rule field that holds its reference, else
        // one whose value no other payout of the run has (its amount, most often).
        var shared: [String: Int] = [:]
        for payout in payouts {
            for field in payout.fields where vocabulary.ruleFields.contains(field.name) {
                shared[field.name + "\u{0}" + field.value, default: 0] += 1
            }
        }
        func key(_ payout: Payout) -> (field: String, value: String)? {
            let fields: [Fields.Field] = payout.fields.filter { vocabulary.ruleFields.contains($0.name) }
            if let reference = payout.reference, let field = fields.first(where: { $0.value == reference }) { return (field.name, reference) }
            let unique = fields.filter { shared[$0.name + "\u{0}" + $0.value] == 1 }
            let field = unique.first { $0.name == "amount" } ?? unique.min { $0.name < $1.name }
            return field.map { ($0.name, $0.value) }
        }
        for payout in payouts where sandbox.bank.decision(payoutID: payout.id)?.rule == ExploreSpace.outcomeRule {
            let changes = payout.history.filter { $0.by == "bank" }
            // The usual fate, or the start of it (the run ended first), needs no rule.
            guard !usual.starts(with: changes.map(\.status.name)) else { continue }
            guard let (field, reference) = key(payout) else {
                notes.append("cashout \(payout.id): no field a rule tests tells it from the others, so its fate is not pinned")
                continue
            }
            var previous = payout.createdAt
            let then = changes.map { change -> JSON in
                var step: [String: JSON] = ["after": .string(DurationText.format(.milliseconds(change.at.milliseconds - previous.milliseconds))),
                                            "status": .string(change.status.name)]
                if let code = change.reasonCode { step["rejection_code"] = Int(code).map { .number($0) } ?? .string(code) }
                previous = change.at
                return .object(step)
            }
            elements.append(.timeline(when: [field: .string(reference)], then: then, name: "explored: \(field) \(reference)"))
        }
        var pinnedChaos: Set<String> = []
        for payout in payouts {
            for notification in sandbox.bank.notifications(payoutID: payout.id) {
                for attempt in notification.attempts {
                    guard let mark = attempt.chaos, mark.rule?.name?.hasPrefix(ExploreSpace.chaosRulePrefix) == true else { continue }
                    let name = "explored: cashout \(payout.id) \(notification.status.name) \(mark.kind.rawValue)"
                    guard !pinnedChaos.contains(name) else { continue }
                    pinnedChaos.insert(name)
                    guard let (field, reference) = key(payout) else {
                        notes.append("cashout \(payout.id): no field a rule tests tells it from the others, "
                                     + "so its \(mark.kind.rawValue) notification is not pinned")
                        continue
                    }
                    var rule: [String: JSON] = ["name": .string("explored: \(field) \(reference) \(notification.status.name) \(mark.kind.rawValue)"),
                                                "when": [field: .string(reference), "status": .string(notification.status.name)],
                                                "kind": .string(mark.kind.rawValue)]
                    if let (key, value) = ExploreSpace.chaosDelay(mark.kind) { rule[key] = .string(value) }
                    elements.append(.chaos(.object(rule)))
                }
            }
        }
        // The run's faults come after the suite's own: only theirs were drawn.
        let references = Set(payouts.compactMap(\.reference))
        let drawn = space.runSections(vocabulary).faults
        for (index, entry) in sandbox.faultedRequests() where drawn.indices.contains(index - suiteFaults) {
            var rule = drawn[index - suiteFaults].objectValue ?? [:]
            rule["rate"] = nil
            elements.append(.fault(Self.fault(rule, answering: entry, fields: vocabulary.ruleFields, references: references)))
        }
    }

    /// `rule` (an explored fault's, without its rate) for this journaled request alone, once.
    private static func fault(_ rule: [String: JSON], answering entry: JSON, fields: Set<String>, references: Set<String>) -> JSON {
        var pattern: [String: JSON] = ["method": entry["method"] ?? .null, "path": entry["path"] ?? .null]
        // What tells this request from the others, and from run to run: the body's fields that
        // rules test (a reference, an amount) and its ids (`cashout_id`), not a URL the app
        // listens on this time.
        if let text = entry["body"]?.stringValue, case .object(let body)? = try? JSON.parse(Array(text.utf8)) {
            let scalars = body.filter { key, value in
                switch value {
                case .string, .number, .bool:
                    (fields.contains(key) || key.hasSuffix("_id") || key.hasSuffix("Id")) && value.stringValue?.hasPrefix("http") != true
                default: false
                }
            }
            // A payout's reference names it alone.
            let reference = scalars.first { $0.value.stringValue.map(references.contains) ?? false }
            if let (key, value) = reference { pattern["body"] = [key: value] } else if !scalars.isEmpty { pattern["body"] = .object(scalars) }
        }
        return .object(rule.merging(["when": .object(pattern), "every": 1, "times": 1]) { $1 })
    }

    /// A timeline with each delay range replaced by its least.
    static func fixedTimeline(_ steps: [JSON]) -> [JSON] {
        steps.map { step in
            guard var members = step.objectValue, let least = members["after"]?["min"] else { return step }
            members["after"] = least
            return .object(members)
        }
    }
}
