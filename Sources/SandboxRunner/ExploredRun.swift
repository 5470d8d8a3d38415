import CashoutSandbox
import SandboxBank
import SandboxSupport
import SandboxContract

/// What an explored run drew from its space, read back from the sandbox once it ended and written
/// as fixed rules in the scenario format, each naming what survives a new run of the same app
/// (never an id the app or the sandbox makes, which come in the order requests arrive in): each
/// payout whose fate was not the usual one, a rule naming it by its content (its amount, else what
/// tells its content from the run's others) and, when the run made more than one payout of that
/// content, its `occurrence`, with the timeline it took; each chaos copy or shift, a chaos rule for
/// that payout's notification of that status; each fault that changed an answer, a fault rule for
/// that request by its occurrence among requests of the same kind (the 3rd status query of the
/// payout of 104.00: `every: 3`, once; the 2nd create of 109.00 to the same account: `when.body`
/// with what it pays to whom, `every: 2`, once).
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
    /// What the file's description says of its pins, by the content they concern: payouts of one
    /// content that creates in flight at once made, whose occurrences are the order they arrived in.
    private(set) var ties: [UInt64: String] = [:]

    init() {}

    /// Reads what a run of `space` drew from its sandbox.
    /// `suiteFaults`: how many faults the suite has of its own.
    init(_ sandbox: Sandbox, space: ExploreSpace, suiteFaults: Int, vocabulary: ScenarioVocabulary) {
        let payouts = sandbox.bank.payouts()
        // The usual fate as a written file gives it to the payouts it does not pin: each delay its least.
        let usual = Self.fixedTimeline(space.usualFate).map { step in
            (status: step["status"]?.stringValue, after: step["after"]?.stringValue.flatMap(DurationText.parse)?.wholeMilliseconds)
        }
        let names = PayoutNames(payouts, ruleFields: vocabulary.ruleFields)
        // The payouts a pin names by occurrence, by content: whether the app, or arrival, ordered them.
        var byOccurrence: [UInt64: String] = [:]
        func when(_ payout: Payout) -> [String: JSON] {
            let when = names.when(payout)
            if when[Rule.occurrence] != nil { byOccurrence[payout.contentKey(vocabulary.ruleFields)] = PayoutNames.describe(when, occurrence: false) }
            return when
        }
        for payout in payouts where sandbox.bank.decision(payoutID: payout.id)?.rule == ExploreSpace.outcomeRule {
            let changes = payout.history.filter { $0.by == "bank" }
            var previous = payout.createdAt
            let steps = changes.map { change in
                defer { previous = change.at }
                return (change: change, after: change.at.milliseconds - previous.milliseconds)
            }
            // The usual fate with its least delays, or the start of it (the run ended first), is what the file gives
            // a payout it does not pin. Another delay is pinned too: it orders the payout's changes among the run's
            // notifications, chaos copies and faults, as the run did.
            guard steps.count > usual.count || !zip(steps, usual).allSatisfy({ $0.change.status.name == $1.status && $0.after == $1.after })
            else { continue }
            let named = when(payout)
            let then = steps.map { change, after -> JSON in
                var step: [String: JSON] = ["after": .string(DurationText.format(.milliseconds(after))), "status": .string(change.status.name)]
                if let code = change.reasonCode { step["rejection_code"] = Int(code).map { .number($0) } ?? .string(code) }
                return .object(step)
            }
            elements.append(.timeline(when: named, then: then, name: "explored: \(PayoutNames.describe(named))",
                                      payout: payout.contentKey(vocabulary.ruleFields)))
        }
        var pinnedChaos: Set<String> = []
        for payout in payouts {
            for notification in sandbox.bank.notifications(payoutID: payout.id) {
                for attempt in notification.attempts {
                    guard let mark = attempt.chaos, mark.rule?.name?.hasPrefix(ExploreSpace.chaosRulePrefix) == true else { continue }
                    guard pinnedChaos.insert("\(payout.id) \(notification.status.name) \(mark.kind.rawValue)").inserted else { continue }
                    var named = when(payout)
                    let name = "explored: \(PayoutNames.describe(named)) \(notification.status.name) \(mark.kind.rawValue)"
                    named["status"] = .string(notification.status.name)
                    var rule: [String: JSON] = ["name": .string(name), "when": .object(named), "kind": .string(mark.kind.rawValue)]
                    if let (key, value) = ExploreSpace.chaosDelay(mark.kind) { rule[key] = .string(value) }
                    elements.append(.chaos(.object(rule), payout: payout.contentKey(vocabulary.ruleFields)))
                }
            }
        }
        // The run's faults come after the suite's own: only theirs were drawn.
        let drawn = space.runSections(vocabulary).faults
        for (index, entry) in sandbox.faultedRequests() where drawn.indices.contains(index - suiteFaults) {
            var rule = drawn[index - suiteFaults].objectValue ?? [:]
            rule["rate"] = nil
            guard let id = entry["id"]?.numberText.flatMap({ Int($0) }), let about = sandbox.requestAbout(id) else { continue }
            var named: [String: JSON] = ["method": entry["method"] ?? .null, "path": entry["path"] ?? .null]
            if about.creates {
                // A create by what it pays to whom (not the reference the app made, nor a URL it
                // listens on this time), and whose: its occurrence among such creates is its `every`.
                if !about.content.isEmpty { named["body"] = .object(about.content) }
                if let account = about.account { named["account"] = .string(account) }
            } else if let payout = about.payout {
                named["payout"] = .object(when(payout))
            } else if let account = about.account {
                named["account"] = .string(account)
            }
            rule["when"] = .object(named)
            // Its occurrence among the requests the rule takes: what fails the same way in a new run.
            guard let fault = try? ScenarioLoader.readFault(ScenarioNode(value: .object(rule.merging(["every": 1]) { $1 }), path: "", file: "")),
                  let occurrence = sandbox.occurrence(ofRequest: id, among: fault) else { continue }
            let concerned = about.payout ?? sandbox.payoutMade(byRequest: id)
            let pinned = rule.merging(["every": .number(occurrence), "times": 1]) { $1 }
            elements.append(.fault(.object(pinned), payout: concerned?.contentKey(vocabulary.ruleFields)))
        }
        for (content, described) in byOccurrence {
            let alike = Set(payouts.filter { $0.contentKey(vocabulary.ruleFields) == content }.map(\.id))
            guard sandbox.madeAtOnce(alike) else { continue }
            ties[content] = "The \(alike.count) payouts of \(described) were asked for by creates in flight at once: which is the 1st "
                + "(occurrence 1) is the order they arrived in, so a rule pinned on the 1st goes to whichever arrives first."
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

/// What a pinned rule names a payout of a run by: its content, by its amount when no payout of
/// another content has it, else by the one field a rule tests that no other content has, else by
/// all such fields together and its account; and, when the run made more than one payout of that content, which of
/// them it is (`occurrence`). Never its reference or a URL, which the app makes anew each run.
struct PayoutNames {
    private let ruleFields: Set<String>
    /// The contents each field's value was seen in.
    private var shared: [String: Set<UInt64>] = [:]
    /// How many payouts of each content the run made.
    private var contents: [UInt64: Int] = [:]

    init(_ payouts: [Payout], ruleFields: Set<String>) {
        self.ruleFields = ruleFields
        for payout in payouts {
            let content = payout.contentKey(ruleFields)
            for field in fields(payout) { shared[field.name + "\u{0}" + field.value, default: []].insert(content) }
            contents[content, default: 0] += 1
        }
    }

    /// The rule fields of `payout` that may name it.
    private func fields(_ payout: Payout) -> [Fields.Field] {
        payout.fields.filter { ruleFields.contains($0.name) && $0.value != payout.reference && !Payout.isURL($0.value) }
    }

    /// A rule's `when` that takes `payout` alone among the run's payouts.
    func when(_ payout: Payout) -> [String: JSON] {
        let content = payout.contentKey(ruleFields)
        let fields = fields(payout)
        let unique = fields.filter { shared[$0.name + "\u{0}" + $0.value]?.count == 1 }
        var when: [String: JSON]
        if let field = unique.first(where: { $0.name == "amount" }) ?? unique.min(by: { $0.name < $1.name }) {
            when = [field.name: .string(field.value)]
        } else {
            when = Dictionary(fields.map { ($0.name, JSON.string($0.value)) }) { first, _ in first }
            // Fields alike: whose it is tells it (two accounts paying the same).
            when["merchant"] = .string(payout.account)
        }
        if contents[content, default: 0] > 1 { when[Rule.occurrence] = .number(payout.occurrence) }
        return when
    }

    /// `amount 104.00`, or each field so (`occurrence`: with its occurrence, `amount 104.00, occurrence 2`).
    static func describe(_ when: [String: JSON], occurrence: Bool = true) -> String {
        when.filter { occurrence || $0.key != Rule.occurrence }.sorted { $0.key < $1.key }
            .map { "\($0.key) \($0.value.stringValue ?? $0.value.serializedString())" }.joined(separator: ", ")
    }
}
