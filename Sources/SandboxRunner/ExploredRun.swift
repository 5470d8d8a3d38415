import CashoutSandbox
import SandboxBank
import SandboxJSON
import SandboxScenario

/// What an explored run drew from its space, read back from the sandbox once it ended and written
/// as fixed rules in the scenario format, each naming what survives a new run of the same app
/// (never an id the app makes, which it may make anew each run): each payout whose fate was not
/// the usual one, a rule naming it by its content (its amount, else what tells it from the run's
/// other payouts) with the timeline it took; each chaos copy or shift, a chaos rule for that
/// payout's notification of that status; each fault that changed an answer, a fault rule for that
/// request by its occurrence (the 3rd status query of the payout of 104.00: `every: 3`, once).
struct ExploredRun: Sendable {
    /// One pinned rule.
    enum Element: Sendable {
        /// A payout's timeline: `when` names it; `then` as it happened.
        case timeline(when: [String: JSON], then: [JSON], name: String, payout: UInt64)
        case chaos(JSON, payout: UInt64)
        /// `payout`: the payout it made or named, nil when neither is known.
        case fault(JSON, payout: UInt64?)

        /// The content (`Payout.contentKey`) of the payout it concerns; nil when not known.
        var payout: UInt64? {
            switch self {
            case .timeline(_, _, _, let payout), .chaos(_, let payout): payout
            case .fault(_, let payout): payout
            }
        }

        var isTimeline: Bool { if case .timeline = self { true } else { false } }

        /// As a rule of `bank.rules`; `shortened`, every delay but the first 1 s.
        func rule(shortened: Bool) -> JSON? {
            guard case .timeline(let when, let then, let name, _) = self else { return nil }
            let steps = shortened ? then.map { step -> JSON in
                var members = step.objectValue ?? [:]
                members["after"] = "1s"
                return .object(members)
            } : then
            return ["name": .string(name), "when": .object(when), "then": .array(steps)]
        }

        var chaos: JSON? { if case .chaos(let rule, _) = self { rule } else { nil } }
        var fault: JSON? { if case .fault(let rule, _) = self { rule } else { nil } }
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
        let names = PayoutNames(payouts, ruleFields: vocabulary.ruleFields)
        for payout in payouts where sandbox.bank.decision(payoutID: payout.id)?.rule == ExploreSpace.outcomeRule {
            let changes = payout.history.filter { $0.by == "bank" }
            // The usual fate, or the start of it (the run ended first), needs no rule.
            guard !usual.starts(with: changes.map(\.status.name)) else { continue }
            guard let when = names.when(payout) else {
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
            elements.append(.timeline(when: when, then: then, name: "explored: \(PayoutNames.describe(when))",
                                      payout: payout.contentKey(vocabulary.ruleFields)))
        }
        var pinnedChaos: Set<String> = []
        for payout in payouts {
            for notification in sandbox.bank.notifications(payoutID: payout.id) {
                for attempt in notification.attempts {
                    guard let mark = attempt.chaos, mark.rule?.name?.hasPrefix(ExploreSpace.chaosRulePrefix) == true else { continue }
                    guard pinnedChaos.insert("\(payout.id) \(notification.status.name) \(mark.kind.rawValue)").inserted else { continue }
                    guard var when = names.when(payout) else {
                        notes.append("cashout \(payout.id): no field a rule tests tells it from the others, "
                                     + "so its \(mark.kind.rawValue) notification is not pinned")
                        continue
                    }
                    let name = "explored: \(PayoutNames.describe(when)) \(notification.status.name) \(mark.kind.rawValue)"
                    when["status"] = .string(notification.status.name)
                    var rule: [String: JSON] = ["name": .string(name), "when": .object(when), "kind": .string(mark.kind.rawValue)]
                    if let (key, value) = ExploreSpace.chaosDelay(mark.kind) { rule[key] = .string(value) }
                    elements.append(.chaos(.object(rule), payout: payout.contentKey(vocabulary.ruleFields)))
                }
            }
        }
        // The run's faults come after the suite's own: only theirs were drawn.
        let references = Set(payouts.compactMap(\.reference))
        let drawn = space.runSections(vocabulary).faults
        for (index, entry) in sandbox.faultedRequests() where drawn.indices.contains(index - suiteFaults) {
            var rule = drawn[index - suiteFaults].objectValue ?? [:]
            rule["rate"] = nil
            guard let id = entry["id"]?.numberText.flatMap({ Int($0) }), let about = sandbox.requestAbout(id) else { continue }
            var when: [String: JSON] = ["method": entry["method"] ?? .null, "path": entry["path"] ?? .null]
            if about.creates {
                // A create by what it asks for: its body's fields that rules test, but for the
                // reference the app made and a URL it listens on this time.
                if let text = entry["body"]?.stringValue, case .object(let body)? = try? JSON.parse(Array(text.utf8)) {
                    let content = body.filter { key, value in
                        guard vocabulary.ruleFields.contains(key), let text = value.stringValue ?? value.numberText else { return false }
                        return !references.contains(text) && !Payout.isURL(text)
                    }
                    if !content.isEmpty { when["body"] = .object(content) }
                }
            } else if let payout = about.payout {
                guard let named = names.when(payout) else {
                    let request = "\(entry["method"]?.stringValue ?? "") \(entry["path"]?.stringValue ?? "")"
                    notes.append("a \(request) of cashout \(payout.id): no field a rule tests tells the cashout from the others, "
                                 + "so its fault is not pinned")
                    continue
                }
                when["payout"] = .object(named)
            } else if let account = about.account {
                when["account"] = .string(account)
            }
            rule["when"] = .object(when)
            // Its occurrence among the requests the rule takes: what fails the same way in a new run.
            guard let fault = try? ScenarioLoader.readFault(ScenarioNode(value: .object(rule.merging(["every": 1]) { $1 }), path: "", file: "")),
                  let occurrence = sandbox.occurrence(ofRequest: id, among: fault) else { continue }
            let concerned = about.payout ?? sandbox.payoutMade(byRequest: id)
            let pinned = rule.merging(["every": .number(occurrence), "times": 1]) { $1 }
            elements.append(.fault(.object(pinned), payout: concerned?.contentKey(vocabulary.ruleFields)))
        }
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

/// What a pinned rule names a payout of a run by: its amount when no other payout of the run has
/// it, else the one field a rule tests that no other has, else all such fields together when
/// they tell it apart; never its reference or a URL, which the app makes anew each run.
private struct PayoutNames {
    private let ruleFields: Set<String>
    private var shared: [String: Int] = [:]
    private var contents: [UInt64: Int] = [:]

    init(_ payouts: [Payout], ruleFields: Set<String>) {
        self.ruleFields = ruleFields
        for payout in payouts {
            for field in content(payout) { shared[field.name + "\u{0}" + field.value, default: 0] += 1 }
            contents[payout.contentKey(ruleFields), default: 0] += 1
        }
    }

    /// The rule fields of `payout` that may name it.
    private func content(_ payout: Payout) -> [Fields.Field] {
        payout.fields.filter { ruleFields.contains($0.name) && $0.value != payout.reference && !Payout.isURL($0.value) }
    }

    /// A rule's `when` that takes `payout` alone among the run's payouts; nil when none can.
    func when(_ payout: Payout) -> [String: JSON]? {
        let fields = content(payout)
        let unique = fields.filter { shared[$0.name + "\u{0}" + $0.value] == 1 }
        if let field = unique.first(where: { $0.name == "amount" }) ?? unique.min(by: { $0.name < $1.name }) {
            return [field.name: .string(field.value)]
        }
        guard contents[payout.contentKey(ruleFields)] == 1, !fields.isEmpty else { return nil }
        return Dictionary(fields.map { ($0.name, JSON.string($0.value)) }) { first, _ in first }
    }

    /// `amount 104.00`, or each field so.
    static func describe(_ when: [String: JSON]) -> String {
        when.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.stringValue ?? $0.value.serializedString())" }.joined(separator: ", ")
    }
}
