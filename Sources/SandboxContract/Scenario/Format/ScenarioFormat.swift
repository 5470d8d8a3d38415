import SandboxBank
import SandboxSupport

/// The scenario format, declared once (`KeySpec`): the keys the loader allows and what each takes,
/// and the JSON Schema `cashout-sandbox schema` prints (scenarios/schema.json). The dialects add
/// their parts (`ScenarioVocabulary.Format`); enums come from their owners (`PayoutStatus`, each
/// dialect's `RejectionCodes` and status words, the report's checks).
package enum ScenarioFormat {
    /// The JSON Schema (draft 2020-12) of scenario files in `vocabulary`'s dialects.
    package static func schema(_ vocabulary: ScenarioVocabulary) -> KeySpec {
        KeySpec()
            .with("$schema", "https://json-schema.org/draft/2020-12/schema")
            .with("$id", "https://cashout-sandbox.local/scenario.schema.json")
            .with("title", "CashoutSandbox scenario")
            .with("description", .string("""
                A scenario file (scenarios/*.json): D24 merchants, Mannco users, the bank's rules and default timeline, HTTP faults, \
                the webhook policy, and the steps that make a file a test. Mirrors the loader \
                (Sources/SandboxContract/Scenario/ScenarioLoader*.swift, with the dialects' parts: Sources/Dialects/D24, Sources/Dialects/Mannco), \
                which refuses unknown keys.
                """))
            .with("type", "object")
            .with("properties", named: topLevel(vocabulary))
            .with("additionalProperties", false)
            .with("dependentRequired", ["expect_failure": ["steps"], "needs_app": ["steps"], "explore": ["steps"], "written_for": ["steps"]])
            .with("$defs", named: definitions(vocabulary) + vocabulary.format.definitions)
    }

    /// The top-level keys, in the order the loader's messages list them: the dialects' account
    /// sections between the file's own keys and the bank's.
    static func topLevel(_ vocabulary: ScenarioVocabulary) -> [(String, KeySpec)] {
        let sections = vocabulary.accountSections.keys.sorted().map { section in
            (section, vocabulary.format.accountSections.first { $0.0 == section }?.1 ?? KeySpec().with("type", "array"))
        }
        return [
            ("$schema", topSchema), ("name", topName), ("description", topDescription), ("written_for", topWrittenFor),
            ("expect_failure", topExpectFailure),
            ("needs_app", topNeedsApp), ("seed", topSeed), ("clock", topClock),
        ] + sections + [
            ("bank", topBank), ("faults", topFaults), ("webhooks", topWebhooks), ("app", topApp), ("explore", topExplore),
            ("report", topReport), ("steps", topSteps),
        ]
    }

    /// The definitions of the format's own parts (`#/$defs/NAME`).
    static func definitions(_ vocabulary: ScenarioVocabulary) -> [(String, KeySpec)] {
        [
            ("duration", duration), ("businessDays", businessDays), ("delayRange", delayRange), ("delay", delay), ("latency", latency),
            ("status", status), ("amount", amount), ("text", text), ("matcherObject", matcherObject), ("matcher", matcher),
            ("wholeOccurrence", wholeOccurrence), ("occurrence", occurrence),
            ("balance", balance), ("limits", limits), ("cashoutStatus", cashoutStatus(vocabulary)), ("statusMatcher", statusMatcher),
            ("timelineStep", timelineStep(vocabulary)), ("timeline", timeline), ("decline", decline(vocabulary)),
            ("weightedOutcome", weightedOutcome), ("rule", rule(vocabulary)), ("fault", fault), ("webhooks", webhooks),
            ("request", request), ("expectation", expectation), ("createCashout", createCashout), ("expectCashout", expectCashout),
            ("decidedBy", decidedBy), ("expectWebhooks", expectWebhooks), ("notificationStatus", notificationStatus),
            ("chaosDelay", chaosDelay), ("chaosRule", chaosRule(vocabulary)), ("answerMatcher", answerMatcher),
            ("expectDeliveries", expectDeliveries), ("expectSink", expectSink), ("requestPattern", requestPattern),
            ("ledgerLocation", ledgerLocation), ("waitForRequest", waitForRequest), ("expectReport", expectReport(vocabulary)),
            ("expectRequests", expectRequests), ("expectBalance", expectBalance), ("expectLedger", expectLedger),
            ("step", step(vocabulary)), ("createCashouts", createCashouts),
        ]
    }

    // MARK: - What the dialects add

    /// Each dialect's own words for statuses, beside the sandbox's names (one enum per dialect).
    static func statusWordSchemas(_ vocabulary: ScenarioVocabulary) -> [KeySpec] {
        let declared = vocabulary.format.statusWordGroups
        let undeclared = vocabulary.statusWords.subtracting(declared.joined()).sorted()  // a dialect's that declares none
        return (declared + [undeclared]).compactMap { words in
            let words = words.filter { !PayoutStatus.names.contains($0) }
            return words.isEmpty ? nil : .oneOf(values: words.map { .string($0) })
        }
    }

    /// What each dialect's rejection codes are: D24's list (as numbers), word codes...; each kind once.
    static func rejectionCodeSchemas(_ vocabulary: ScenarioVocabulary) -> [KeySpec] {
        var kinds: [KeySpec] = []
        for name in vocabulary.dialects.keys.sorted() {
            let codes = vocabulary.dialects[name]!.rejectionCodes
            var specs: [KeySpec] = []
            if !codes.listed.isEmpty {
                specs.append(.oneOf(values: codes.listed.map { Int($0.code) != nil ? .number($0.code) : .string($0.code) }))
            }
            if codes.words { specs.append(.string(pattern: RejectionCodes.wordPattern)) }
            for spec in specs where !kinds.contains(where: { $0.schemaText == spec.schemaText }) { kinds.append(spec) }
        }
        return kinds
    }

    /// The fields a rule's `when` tests, each described by every dialect that has it, in the dialects' order.
    static func ruleFieldSchemas(_ vocabulary: ScenarioVocabulary) -> [(String, KeySpec)] {
        var fields: [(String, [String])] = []
        let declared = Set(vocabulary.format.ruleFields.map(\.0))
        let undeclared = vocabulary.ruleFields.subtracting(declared).sorted().map { ($0, String?.none) }  // a dialect's that describes none
        for (field, text) in vocabulary.format.ruleFields + undeclared {
            if let index = fields.firstIndex(where: { $0.0 == field }) {
                if let text, !fields[index].1.contains(text) { fields[index].1.append(text) }
            } else {
                fields.append((field, text.map { [$0] } ?? []))
            }
        }
        return fields.map { field, texts in (field, .ref("matcher", texts.isEmpty ? nil : texts.joined(separator: " "))) }
    }

    /// The keys a dialect's declines may hold that it declares no schema for (any value).
    static func undeclaredDeclineKeys(_ vocabulary: ScenarioVocabulary) -> [(String, KeySpec)] {
        vocabulary.declineKeys.subtracting(vocabulary.format.declineKeys.map(\.0)).sorted().map { ($0, KeySpec()) }
    }

    /// What a chaos rule's `when` may test: the dialects' fields, `merchant`, `dialect`, `occurrence` and `status`.
    static func chaosFields(_ vocabulary: ScenarioVocabulary) -> [String] {
        vocabulary.ruleFields.union(["merchant", "dialect", "status", Rule.occurrence]).sorted()
    }

    /// The rule's check of its decline for `dialect`: with `checked`, a rule that names no other
    /// dialect has a decline of `definition` (the dialect checks every rule's but those for
    /// another); else a rule for `dialect` alone has one (its description, the dialect checking none).
    package static func declineCheck(dialect: String, checked: Bool, definition: String, _ description: String) -> KeySpec {
        let exactly = KeySpec.anyOf([
            .const(.string(dialect)),
            .object([("eq", .const(.string(dialect)))], required: ["eq"], closed: false).with("maxProperties", 1),
        ])
        let another = KeySpec.anyOf([
            KeySpec().with("$ref", "#/$defs/text").with("not", KeySpec.const(.string(dialect))),
            .object([("eq", KeySpec().with("not", KeySpec.const(.string(dialect))))], required: ["eq"], closed: false).with("maxProperties", 1),
        ])
        let names = KeySpec().with("required", ["when"]).with("properties", named: [
            ("when", KeySpec().with("required", ["dialect"]).with("properties", named: [("dialect", checked ? another : exactly)])),
        ])
        let decline = KeySpec().with("properties", named: [("decline", .ref(definition))])
        return KeySpec(description).with("if", names).with(checked ? "else" : "then", decline)
    }
}

extension KeySpec {
    /// A step with these actions' own `expect` (PayoutService's grpc_call: a gRPC expectation), and
    /// the HTTP expectation with any other.
    func withExpectations(_ expectations: [(String, KeySpec)]) -> KeySpec {
        guard !expectations.isEmpty else { return self }
        func expect(_ spec: KeySpec) -> KeySpec { KeySpec().with("properties", named: [("expect", spec)]) }
        if expectations.count == 1, let (action, spec) = expectations.first {
            return with("if", KeySpec.requiring(action)).with("then", expect(spec)).with("else", expect(.ref("expectation")))
        }
        let own = expectations.map { action, spec in KeySpec().with("if", KeySpec.requiring(action)).with("then", expect(spec)) }
        let others = KeySpec().with("if", KeySpec().with("not", KeySpec.anyOf(expectations.map { .requiring($0.0) })))
            .with("then", expect(.ref("expectation")))
        return with("allOf", own + [others])
    }
}
