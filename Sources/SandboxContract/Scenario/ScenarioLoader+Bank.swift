import SandboxBank
import SandboxWire
import SandboxSupport

// The `bank` section (rules and the default timeline) and the `faults` section.

extension ScenarioLoader {
    static func readBank(_ node: ScenarioNode, into scenario: inout Scenario, vocabulary: ScenarioVocabulary, errors: inout ScenarioErrors) {
        guard let bank = node.object(allowed: ScenarioFormat.Keys.bank, errors: &errors) else { return }
        if let rules = bank["rules"] {
            let fields = vocabulary.ruleFields.union(["merchant", "dialect", Rule.occurrence])
            let name = scenario.name
            scenario.rules = errors.each(rules) { (node) throws(ScenarioError) -> Rule in try readRule(node, fields: fields, vocabulary) }
            for index in scenario.rules.indices { scenario.rules[index].origin = Rule.Origin(scenario: name, index: index) }
        }
        if let timeline = bank["default"] {
            let reach = reach(nil, vocabulary)
            scenario.defaultTimeline = errors.recover { () throws(ScenarioError) in try readTimeline(timeline, reach: reach, vocabulary) } ?? []
        }
    }

    /// A rule whose `when` tests some of `fields` (the vocabulary's, `merchant` and `dialect`).
    static func readRule(_ node: ScenarioNode, fields: Set<String>, _ vocabulary: ScenarioVocabulary) throws(ScenarioError) -> Rule {
        let rule = try node.object(allowed: ScenarioFormat.Keys.rule)
        let when = try rule["when"].map { (node) throws(ScenarioError) in try readWhen(node, fields: fields) } ?? [:]
        let outcomes = ["then", "outcomes", "decline"].filter { rule[$0] != nil }
        guard outcomes.count == 1 else { throw node.fail("expected exactly one of \"then\", \"outcomes\" or \"decline\"") }
        let reach = reach(when, vocabulary)
        let outcome: Rule.Outcome
        if let then = rule["then"] {
            outcome = .timeline(try readTimeline(then, reach: reach, vocabulary))
        } else if let weighted = rule["outcomes"] {
            var choices: [(weight: Int, steps: [TimelineStepSpec])] = []
            for choice in try weighted.array() {
                let fields = try choice.object(allowed: ScenarioFormat.Keys.weightedOutcome)
                guard let weight = fields["weight"], let then = fields["then"] else { throw choice.fail("expected \"weight\" and \"then\"") }
                choices.append((try weight.integer(ScenarioFormat.Ranges.weight), try readTimeline(then, reach: reach, vocabulary)))
            }
            guard !choices.isEmpty else { throw weighted.fail("expected at least one outcome") }
            outcome = .weighted(choices)
        } else {
            outcome = .decline(try readDecline(rule["decline"]!, dialect: when["dialect"]?.exactText, vocabulary))
        }
        return Rule(name: try rule["name"]?.string(), when: when, outcome: outcome)
    }

    /// `{"FIELD": matcher, ...}` on some of `fields`.
    static func readWhen(_ node: ScenarioNode, fields: Set<String>) throws(ScenarioError) -> [String: Matcher] {
        guard case .object(let members) = node.value else { throw node.fail("expected an object of field: matcher") }
        var when: [String: Matcher] = [:]
        for field in members.keys.sorted() {
            guard fields.contains(field) else {
                let known = fields.sorted()
                throw node.child(field, .null).fail("unknown field (\(ScenarioNode.didYouMean(field, among: known))"
                                                        + "expected one of \(known.joined(separator: ", ")))")
            }
            when[field] = try readCondition(field, node.child(field, members[field]!))
        }
        return when
    }

    /// The matcher of `field` in a `when`: `occurrence`'s (``readOccurrence(_:)``), or any field's.
    static func readCondition(_ field: String, _ node: ScenarioNode) throws(ScenarioError) -> Matcher {
        field == Rule.occurrence ? try readOccurrence(node) : try readMatcher(node)
    }

    /// `occurrence`: a whole number from 1, or an object of `eq`, `in`, `gt`, `gte`, `lt`, `lte` over
    /// whole numbers (`{"gte": 2}`: the second payout of its content and those after).
    static func readOccurrence(_ node: ScenarioNode) throws(ScenarioError) -> Matcher {
        let expected = "expected which payout of its content this is: a whole number from 1 (1: the first), or an object of "
            + "\(occurrenceOperators.joined(separator: ", ")) with whole numbers, such as {\"gte\": 2}"
        func whole(_ operand: ScenarioNode, from least: Int) throws(ScenarioError) -> Money {
            guard case .number(let text) = operand.value, let value = Int(text), value >= least,
                  value <= ScenarioFormat.Ranges.occurrence.upperBound else { throw operand.failShowingValue(expected) }
            return Money(hundredths: Int64(value) * 100)
        }
        guard case .object(let members) = node.value else { return Matcher(tests: [.eq(.number(try whole(node, from: 1)))]) }
        guard !members.isEmpty, members.keys.allSatisfy(occurrenceOperators.contains) else { throw node.failShowingValue(expected) }
        var tests: [Matcher.Test] = []
        for (name, operand) in members.sorted(by: { $0.key < $1.key }) {
            let child = node.child(name, operand)
            switch name {
            case "eq": tests.append(.eq(.number(try whole(child, from: 1))))
            case "in":
                guard case .array(let items) = operand, !items.isEmpty else { throw child.fail(expected) }
                tests.append(.oneOf(try child.array().map { (item) throws(ScenarioError) in .number(try whole(item, from: 1)) }))
            case "gt", "gte": tests.append(.greater(try whole(child, from: 0), orEqual: name == "gte"))
            default: tests.append(.less(try whole(child, from: 0), orEqual: name == "lte"))
            }
        }
        return Matcher(tests: tests)
    }

    static let occurrenceOperators = ["eq", "in", "gt", "gte", "lt", "lte"]

    /// `{"code", "message"?, ...}`: the keys the dialects allow, checked by the rule's dialect, or
    /// by every dialect when the rule is for any.
    static func readDecline(_ node: ScenarioNode, dialect: String?, _ vocabulary: ScenarioVocabulary) throws(ScenarioError) -> Decline {
        let keys = vocabulary.declineKeys.sorted()
        let members = try node.object(allowed: ScenarioFormat.Keys.decline + keys)
        guard let code = members["code"] else { throw node.fail("expected \"code\"") }
        var decline = Decline(code: try code.text(), message: try members["message"]?.string())
        for key in keys { decline.details[key] = try members[key]?.text() }
        let checks = dialect.map { name in vocabulary.declineChecks[name].map { [$0] } ?? [] }
            ?? vocabulary.declineChecks.keys.sorted().map { vocabulary.declineChecks[$0]! }
        for check in checks {
            if let (key, expected) = check(decline) { throw (members[key] ?? node).fail(expected) }
        }
        return decline
    }

    /// A string or a number (a number written with more than two decimals compares as text).
    static func readOperand(_ node: ScenarioNode) throws(ScenarioError) -> Matcher.Operand {
        if case .number(let text) = node.value, let number = Money(text) { return .number(number) }
        return .text(try node.text())
    }

    /// The keys of a matcher's object.
    static let matcherOperators = ["eq", "in", "prefix", "suffix", "regex", "gt", "gte", "lt", "lte"]

    /// An exact value, or an object of operators (what request verification reads too).
    static func readMatcher(_ node: ScenarioNode) throws(ScenarioError) -> Matcher {
        guard case .object = node.value else { return Matcher(tests: [.eq(try readOperand(node))]) }
        let operators = try node.object(allowed: matcherOperators)
        guard !operators.isEmpty else { throw node.fail("expected at least one of \(matcherOperators.joined(separator: ", "))") }
        var tests: [Matcher.Test] = []
        for (name, operand) in operators.sorted(by: { $0.key < $1.key }) {
            switch name {
            case "eq": tests.append(.eq(try readOperand(operand)))
            case "in": tests.append(.oneOf(try operand.array().map(readOperand)))
            case "prefix": tests.append(.prefix(try operand.string()))
            case "suffix": tests.append(.suffix(try operand.string()))
            case "regex":
                let pattern = try operand.string()
                guard (try? Regex(pattern)) != nil else { throw operand.failShowingValue("expected a valid regular expression") }
                guard !RegexSafety.hasNestedRepetition(pattern) else {
                    throw operand.fail("expected a regular expression without a repeated group that repeats or alternates "
                                       + "inside, such as (a+)+ or (a|aa)+: matching those can take exponential time")
                }
                tests.append(.regex(pattern))
            case "gt", "gte": tests.append(.greater(try operand.money(), orEqual: name == "gte"))
            default: tests.append(.less(try operand.money(), orEqual: name == "lte"))
            }
        }
        return Matcher(tests: tests)
    }

    /// A timeline whose rejection codes one of the dialects it can `reach` answers.
    static func readTimeline(_ node: ScenarioNode, reach: [String], _ vocabulary: ScenarioVocabulary) throws(ScenarioError) -> [TimelineStepSpec] {
        try node.array().map { (node) throws(ScenarioError) -> TimelineStepSpec in
            let fields = try node.object(allowed: ScenarioFormat.Keys.timelineStep)
            guard let after = fields["after"], let status = fields["status"] else { throw node.fail("expected \"after\" and \"status\"") }
            if try status.status() != .rejected, let code = fields["rejection_code"] ?? fields["rejection_reason"] {
                throw code.fail("expected only with status REJECTED")
            }
            let code = try fields["rejection_code"]?.reasonCode()
            if let code, let node = fields["rejection_code"] { try checkRejectionCode(code, at: node, reach: reach, vocabulary) }
            let step = TimelineStep(after: .zero, status: try status.status(),
                                    reasonCode: code,
                                    reason: try fields["rejection_reason"]?.string(),
                                    bankReference: try fields["bank_reference_id"]?.string(),
                                    statusDetail: try fields["status_reason"]?.string())
            return TimelineStepSpec(after: try after.delay(), step: step)
        }
    }

    package static func readFault(_ node: ScenarioNode) throws(ScenarioError) -> Fault {
        let fields = try node.object(allowed: ScenarioFormat.Keys.fault)
        var request = try fields["when"].map { (node) throws(ScenarioError) in try readFaultPattern(node) }
        let about = try fields["when"]?.object(allowed: ScenarioFormat.Keys.faultWhen)
        let account = try about?["account"].map(readMatcher)
        var payout: [String: Matcher] = [:]
        if let node = about?["payout"] {
            guard case .object(let members) = node.value else { throw node.fail("expected an object of field: matcher") }
            for name in members.keys.sorted() { payout[name] = try readCondition(name, node.child(name, members[name]!)) }
        }
        // A `when` of these alone tests no request's method, path or body.
        if let pattern = request, pattern.isEmpty { request = nil }
        guard let kindNode = fields["kind"] else { throw node.fail("expected \"kind\"") }
        if let name = (try? kindNode.string()).flatMap(FaultKind.init(rawValue:)),
           let stray = FaultKind.allCases.flatMap(\.keyNames).first(where: { fields[$0] != nil && !name.keyNames.contains($0) }) {
            throw fields[stray]!.fail("expected only with kind \(FaultKind.allCases.first { $0.keyNames.contains(stray) }!.rawValue)")
        }
        guard let name = FaultKind(rawValue: try kindNode.string()) else {
            let kinds = ScenarioFormat.Keys.faultKinds.map { "\"\($0)\"" }
            throw kindNode.failShowingValue("expected \(kinds.dropLast().joined(separator: ", ")) or \(kinds.last!)")
        }
        let action = try name.action(fields, node: node)
        let (every, rate) = (try fields["every"]?.integer(ScenarioFormat.Ranges.faultEvery), try fields["rate"]?.rate())
        guard (every == nil) != (rate == nil) else { throw node.fail("expected exactly one of \"every\" or \"rate\"") }
        return Fault(request: request, account: account, payout: payout, action: action, every: every, rate: rate,
                     times: try fields["times"]?.integer(ScenarioFormat.Ranges.faultTimes))
    }

    /// A fault's `when`: a request pattern as a verification reads it (``RequestPattern/read(_:)``),
    /// or `endpoint`, its shorthand for `method` and `path`, which may come with the other keys
    /// but not with those two.
    static func readFaultPattern(_ node: ScenarioNode) throws(ScenarioError) -> RequestPattern {
        let parts = try node.object(allowed: ScenarioFormat.Keys.faultWhen)
        guard case .object(var members) = node.value else { return try RequestPattern.read(node) }
        // What the request is about is the fault's to test (`Fault.account`, `Fault.payout`), not the pattern's.
        members["account"] = nil
        members["payout"] = nil
        guard let endpoint = parts["endpoint"] else {
            var pattern = try RequestPattern.read(ScenarioNode(value: .object(members), path: node.path, file: node.file))
            pattern.json = node.value  // as written
            return pattern
        }
        if let both = parts["method"] ?? parts["path"] { throw both.fail("expected only without \"endpoint\" (its shorthand)") }
        let text = try endpoint.string()
        let words = text.split(separator: " ")
        guard words.count == 2, text.contains(" /"), !text.contains("?") else {
            throw endpoint.failShowingValue("expected \"METHOD /path\" without a query, such as \"POST /v3/cashout\"")
        }
        members["endpoint"] = nil
        members["method"] = .string(String(words[0]))
        members["path"] = .string(String(words[1]))
        var pattern = try RequestPattern.read(ScenarioNode(value: .object(members), path: node.path, file: node.file))
        pattern.json = node.value  // as written
        return pattern
    }
}
