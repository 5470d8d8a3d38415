import SandboxBank
import SandboxSupport

// Webhook chaos in the scenario format: `webhooks.chaos`, the sinks' handler scripts
// (`webhooks.sinks`), and the steps that look at what receivers did (`expect_deliveries`,
// `expect_sink`).

extension ScenarioLoader {
    /// The keys each kind takes besides `name`, `when`, `every`, `rate` and `kind`, and its delay's default.
    private static let chaosKeys: [ChaosKind: (key: String?, default: Duration?)] = [
        .duplicate: ("after", .zero), .forged: ("after", .zero), .replay: ("after", .zero),
        .delayed: ("delay", nil), .outOfOrder: ("release_after", .seconds(600)),
    ]

    /// The kinds by their names in files, in the order messages list them.
    static let chaosKindNames = ChaosKind.allCases.map(\.rawValue)

    /// `[{"name", "when", "every" | "rate", "kind", "after" | "delay" | "release_after"}]`.
    /// `fields`: the payout fields a `when` may test (the dialects'), besides `merchant`,
    /// `dialect` and `status`.
    static func readChaos(_ node: ScenarioNode, fields: Set<String>) throws(ScenarioError) -> [ChaosRuleSpec] {
        let testable = fields.union(["merchant", "dialect", "status", Rule.occurrence])
        return try node.array().map { (node) throws(ScenarioError) -> ChaosRuleSpec in
            let fields = try node.object(allowed: ScenarioFormat.Keys.chaosRule)
            guard let kindNode = fields["kind"] else { throw node.fail("expected \"kind\": \(chaosKindNames.joined(separator: ", "))") }
            guard let kind = ChaosKind(rawValue: try kindNode.string()) else {
                throw kindNode.fail("expected one of \(chaosKindNames.joined(separator: ", "))")
            }
            let own = chaosKeys[kind]!
            if let stray = ["after", "delay", "release_after"].first(where: { $0 != own.key && fields[$0] != nil }) {
                let owners = chaosKeys.filter { $0.value.key == stray }.map(\.key.rawValue).sorted()
                throw fields[stray]!.fail("expected only with kind \(owners.joined(separator: ", "))")
            }
            var delay = own.default.map { ChaosRuleSpec.Delay.fixed($0) }
            if let key = own.key, let value = fields[key] { delay = try readChaosDelay(value) }
            guard let delay else { throw node.fail("expected \"\(own.key!)\" for kind \(kind.rawValue)") }
            var when: [String: Matcher] = [:]
            if let conditions = fields["when"] {
                when = try readWhen(conditions, fields: testable)
                if let status = when["status"] { try checkStatuses(status, conditions.child("status", .null)) }
            }
            let (every, rate) = (try fields["every"]?.integer(ScenarioFormat.Ranges.chaosEvery), try fields["rate"]?.rate())
            if every != nil, rate != nil { throw node.fail("expected at most one of \"every\" or \"rate\"") }
            return ChaosRuleSpec(name: try fields["name"]?.string(), when: when, every: every, rate: rate, kind: kind, delay: delay)
        }
    }

    /// A duration, or `{"min", "max"}` (drawn per notification from the seed).
    private static func readChaosDelay(_ node: ScenarioNode) throws(ScenarioError) -> ChaosRuleSpec.Delay {
        switch try node.delay() {
        case .fixed(let duration): return .fixed(duration)
        case .range(let min, let max): return .range(min: min, max: max)
        case .businessDays: throw node.fail("expected a duration such as \"30s\" or {\"min\",\"max\"}")
        }
    }

    /// A `status` matcher's exact values must be statuses, by the sandbox's names.
    private static func checkStatuses(_ matcher: Matcher, _ node: ScenarioNode) throws(ScenarioError) {
        let names = Set(PayoutStatus.allCases.map(\.name))
        for test in matcher.tests {
            let values: [Matcher.Operand] = switch test {
            case .eq(let value): [value]
            case .oneOf(let values): values
            default: []
            }
            if values.contains(where: { !names.contains($0.text) }) {
                throw node.fail("expected a status by the sandbox's name: \(names.sorted().joined(separator: ", "))")
            }
        }
    }

    /// `{"NAME": {"answers": [500, 200], "check_signatures": true, "deduplicate": true}}`.
    static func readSinks(_ node: ScenarioNode) throws(ScenarioError) -> [String: SinkScript] {
        guard case .object(let members) = node.value else { throw node.fail("expected an object of sink name: {\"answers\": [...]}") }
        var sinks: [String: SinkScript] = [:]
        for name in members.keys.sorted() {
            let sink = try node.child(name, members[name]!).object(allowed: ScenarioFormat.Keys.sink)
            let answers = try sink["answers"]?.array().map { (node) throws(ScenarioError) in try node.integer(ScenarioFormat.Ranges.sinkAnswer) }
            sinks[name] = SinkScript(answers: answers ?? [],
                                     checkSignatures: try sink["check_signatures"]?.bool() ?? false,
                                     deduplicate: try sink["deduplicate"]?.bool() ?? false)
        }
        return sinks
    }

    // MARK: - Steps

    static let chaosActions = ["expect_deliveries", "expect_sink"]

    /// `expect_deliveries` or `expect_sink`.
    static func readChaosStep(_ action: String, _ body: ScenarioNode, _ vocabulary: ScenarioVocabulary) throws(ScenarioError) -> Step {
        if action == "expect_deliveries" {
            let spec = try body.object(allowed: ScenarioFormat.Keys.expectDeliveries)
            guard spec["count"] != nil || spec["answered"] != nil else { throw body.fail("expected \"count\" or \"answered\"") }
            var chaos: String?
            if let node = spec["chaos"] {
                chaos = try node.string()
                guard chaos == "none" || ChaosKind(rawValue: chaos!) != nil else {
                    throw node.fail("expected none or a chaos kind: \(chaosKindNames.joined(separator: ", "))")
                }
            }
            return .expectDeliveries(Step.DeliveriesExpectation(
                ref: try spec["ref"]?.string(), chaos: chaos,
                status: try spec["status"].map { (node) throws(ScenarioError) in try readStatus(node, vocabulary) },
                count: try spec["count"]?.integer(ScenarioFormat.Ranges.deliveries), answered: try spec["answered"].map(readAnswer)))
        }
        let spec = try body.object(allowed: ScenarioFormat.Keys.expectSink)
        guard let name = spec["name"] else { throw body.fail("expected \"name\": the sink's") }
        let counts = ["received", "processed", "duplicates", "refused", "failed"]
        guard counts.contains(where: { spec[$0] != nil }) else { throw body.fail("expected at least one of \(counts.joined(separator: ", "))") }
        func count(_ key: String) throws(ScenarioError) -> Int? { try spec[key]?.integer(ScenarioFormat.Ranges.sinkCount) }
        return .expectSink(Step.SinkExpectation(
            name: try name.nonEmptyString(), ref: try spec["ref"]?.string(),
            status: try spec["status"].map { (node) throws(ScenarioError) in try readStatus(node, vocabulary) },
            received: try count("received"), processed: try count("processed"), duplicates: try count("duplicates"),
            refused: try count("refused"), failed: try count("failed")))
    }

    /// `200`, `"2xx"`, `"non-2xx"` or a matcher such as `{"gte": 400}`.
    private static func readAnswer(_ node: ScenarioNode) throws(ScenarioError) -> AnswerMatcher {
        let expected = "expected an HTTP status (200), \"2xx\", \"4xx\", \"5xx\", \"non-2xx\" or a matcher such as {\"gte\": 400}"
        switch node.value {
        case .number:
            return .status(try node.integer(100 ... 599))
        case .string(let text):
            if text == "non-2xx" { return .not2xx }
            guard text.count == 3, text.hasSuffix("xx"), let first = Int(text.prefix(1)), (1 ... 5).contains(first) else { throw node.fail(expected) }
            return .family(first)
        case .object:
            return .matcher(try readMatcher(node), written: node.value.serializedString())
        default:
            throw node.fail(expected)
        }
    }

    private static func readStatus(_ node: ScenarioNode, _ vocabulary: ScenarioVocabulary) throws(ScenarioError) -> String {
        guard case .string(let name) = node.value, isStatus(name, vocabulary) else { throw notAStatus(node, vocabulary) }
        return name
    }
}
