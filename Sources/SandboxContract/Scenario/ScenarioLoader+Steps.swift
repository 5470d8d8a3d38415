import SandboxBank
import SandboxSupport

// The `steps` section: each step is an object with one action key (plus `expect`, `save` and
// `as` where they apply).

extension ScenarioLoader {
    /// The steps' own actions, as `ScenarioFormat` declares them (the dialects add theirs).
    static let actions = ScenarioFormat.Keys.actions

    static func readStep(_ node: ScenarioNode, _ vocabulary: ScenarioVocabulary) throws(ScenarioError) -> Step {
        let all = actions + vocabulary.stepActions.keys.sorted()
        let fields = try node.object(allowed: all + ScenarioFormat.Keys.stepExtras)
        let present = all.filter { fields[$0] != nil }
        guard present.count == 1, let action = present.first, let body = fields[action] else {
            throw node.fail("expected exactly one action: \(all.joined(separator: ", "))")
        }
        if let check = vocabulary.stepActions[action] {
            if let save = fields["save"] { throw save.fail("expected only with \"request\" (\"as\" names what \(action) makes)") }
            try check(body)
            if let expectCheck = vocabulary.expectChecks[action] {
                if let node = fields["expect"] { try expectCheck(node) }
                return .dialect(Step.DialectStep(action: action, body: body.value, name: try fields["as"]?.string(),
                                                 ownExpect: fields["expect"]?.value))
            }
            return .dialect(Step.DialectStep(action: action, body: body.value, expect: try fields["expect"].map(readExpectation),
                                             name: try fields["as"]?.string()))
        }
        let expect = try fields["expect"].map(readExpectation)
        if action == "wait_for_request", let extra = fields["save"] {
            throw extra.fail("expected only with \"request\" or \"create_cashout\" (\"as\" names the cashout the request created)")
        }
        if action == "wait_for_request", let node = fields["expect"] {
            let parts = try node.object(allowed: ["status"])
            guard parts["status"] != nil else { throw node.fail("expected \"status\": the answer the app's request had") }
        }
        if !["request", "create_cashout", "wait_for_request"].contains(action),
           let extra = ["expect", "save", "as"].first(where: { fields[$0] != nil }) {
            throw fields[extra]!.fail("expected only with \"request\" or \"create_cashout\"")
        }
        if chaosActions.contains(action) { return try readChaosStep(action, body, vocabulary) }
        switch action {
        case "request":
            if let name = fields["as"] { throw name.fail("expected only with \"create_cashout\" (use \"save\" with \"request\")") }
            var save: [String: String] = [:]
            if let saves = fields["save"] {
                guard case .object(let members) = saves.value else { throw saves.fail("expected an object of name: JSON key") }
                for name in members.keys.sorted() { save[name] = try saves.child(name, members[name]!).string() }
            }
            return .request(try readRequest(body), expect: expect, save: save)
        case "create_cashout":
            if let save = fields["save"] { throw save.fail("expected only with \"request\" (\"as\" names a created cashout)") }
            guard case .object(var values) = body.value else { throw body.fail("expected an object of create fields") }
            let merchant = try values["merchant"].map { (value) throws(ScenarioError) in try body.child("merchant", value).string() }
            values["merchant"] = nil
            return .createCashout(fields: values, merchant: merchant, name: try fields["as"]?.string(), expect: expect)
        case "create_cashouts":
            let spec = try body.object(allowed: ScenarioFormat.Keys.createCashouts)
            guard let count = spec["count"] else { throw body.fail("expected \"count\"") }
            var values: [String: JSON] = [:]
            if let fields = spec["fields"] {
                guard case .object(let members) = fields.value else { throw fields.fail("expected an object of create fields") }
                values = members
            }
            return .createCashouts(count: try count.integer(ScenarioFormat.Ranges.createCount), fields: values,
                                   merchant: try spec["merchant"]?.string(),
                                   prefix: try spec["external_id_prefix"]?.string() ?? "bulk")
        case "advance":
            return .advance(try body.duration())
        case "settle":
            let period = try body.duration()
            guard period > .zero, period <= .seconds(60) else { throw body.failShowingValue("expected a quiet period from 1ms to 1m") }
            return .settle(period)
        case "advance_to_next_event":
            guard try body.bool() else { throw body.fail("expected true") }
            return .advanceToNextEvent
        case "expect_cashout":
            let spec = try body.object(allowed: ScenarioFormat.Keys.expectCashout)
            guard let ref = spec["ref"] else { throw body.fail("expected \"ref\"") }
            var status: Matcher?
            if let node = spec["status"] {
                status = try readMatcher(node)
                for test in status!.tests {
                    let names: [String] = switch test {
                    case .eq(let name): [name.text]
                    case .oneOf(let names): names.map(\.text)
                    default: []
                    }
                    if names.contains(where: { !isStatus($0, vocabulary) }) { throw notAStatus(node, vocabulary) }
                }
            }
            return .expectCashout(ref: try ref.string(), status: status, reasonCode: try spec["rejection_code"]?.reasonCode(0 ... 99999),
                                  bankReference: try spec["bank_reference_id"]?.string(), decidedBy: try spec["decided_by"].map(readDecidedBy))
        case "expect_webhooks":
            let spec = try body.object(allowed: ScenarioFormat.Keys.expectWebhooks)
            var expectedFields: [String: String] = [:]
            if let node = spec["fields"] {
                guard case .object(let members) = node.value else { throw node.fail("expected an object of form field: value") }
                for key in members.keys.sorted() { expectedFields[key] = try node.child(key, members[key]!).text() }
            }
            return .expectWebhooks(
                ref: try spec["ref"]?.string(), count: try spec["count"]?.integer(ScenarioFormat.Ranges.webhookCount),
                statuses: try spec["statuses"]?.array().map { (node) throws(ScenarioError) -> String in
                    guard case .string(let name) = node.value, isStatus(name, vocabulary) else { throw notAStatus(node, vocabulary) }
                    return name
                },
                fields: expectedFields, attempts: try spec["attempts"]?.integer(ScenarioFormat.Ranges.webhookAttempts))
        case "expect_requests":
            _ = try RequestVerification.read(body)
            return .expectRequests(body.value)
        case "wait_for_request":
            let spec = try body.object(allowed: ScenarioFormat.Keys.waitForRequest)
            guard let request = spec["request"] else { throw body.fail("expected \"request\": a request pattern, as expect_requests takes") }
            _ = try RequestPattern.read(request)
            let timeout = try spec["timeout"]?.duration() ?? .seconds(30)
            guard timeout <= .seconds(3600) else { throw spec["timeout"]!.failShowingValue("expected at most 1h") }
            return .waitForRequest(request: request.value, timeout: timeout, name: try fields["as"]?.string(), status: expect?.status)
        case "expect_report":
            let spec = try body.object(allowed: ScenarioFormat.Keys.expectReport)
            guard spec["no_errors"] != nil || spec["findings"] != nil || spec["exercised"] != nil else {
                throw body.fail("expected \"no_errors\": true, \"findings\": [ids] or \"exercised\": [ids] or \"all\" (or more than one)")
            }
            func checkID(_ node: ScenarioNode, _ what: String) throws(ScenarioError) -> String {
                let id = try node.string()
                guard vocabulary.reportFindings.contains(id) else {
                    throw node.failShowingValue("expected \(what): \(vocabulary.reportFindings.sorted().joined(separator: ", "))")
                }
                return id
            }
            let findings = try spec["findings"]?.array().map { (node) throws(ScenarioError) in try checkID(node, "a finding's id") }
            var exercised: Step.ReportExpectation.Exercised?
            if let node = spec["exercised"] {
                if case .string = node.value {
                    guard try node.string() == "all" else { throw node.failShowingValue("expected \"all\" or an array of checks' ids") }
                    exercised = .all
                } else {
                    guard case .array = node.value else { throw node.failShowingValue("expected \"all\" or an array of checks' ids") }
                    exercised = .checks(try node.array().map { (node) throws(ScenarioError) in try checkID(node, "a check's id") })
                }
            }
            return .expectReport(Step.ReportExpectation(account: try spec["account"]?.string(), noErrors: try spec["no_errors"]?.bool() ?? false,
                                                        findings: findings, exercised: exercised))
        case "expect_balance":
            // An account of any API: by its id (`account`), a merchant by login, a user by id; amounts by currency, or in cents.
            let names = Step.BalanceAccount.allCases.map(\.rawValue)
            guard case .object(let members) = body.value, members.keys.filter(names.contains).count == 1,
                  let named = Step.BalanceAccount.allCases.first(where: { members[$0.rawValue] != nil }),
                  case .string(let account)? = members[named.rawValue] else {
                throw body.fail("expected {\"account\": ID, \"USD\": \"0.00\"}, {\"merchant\": LOGIN, \"USD\": \"0.00\"} "
                                + "or {\"user\": ID, \"cents\": 5000}")
            }
            var amounts: [String: Money] = [:]
            for key in members.keys.sorted() where !names.contains(key) {
                let value = body.child(key, members[key]!)
                // `cents`, or `balance` as Mannco's API names it: hundredths of the account's currency.
                let inCents = key == "cents" || key == "balance"
                amounts[inCents ? "cents" : key] = inCents ? Money(hundredths: Int64(try value.integer(0 ... Int.max))) : try value.money()
            }
            guard !amounts.isEmpty else {
                throw body.fail("expected a currency and its amount, such as \"USD\": \"0.00\", or \"cents\" (or \"balance\")")
            }
            return .expectBalance(account: account, named: named, amounts: amounts)
        case "expect_reconciled":
            let spec = try body.object(allowed: ScenarioFormat.Keys.expectReconciled)
            return .expectReconciled(account: try spec["account"]?.string(), ledger: try spec["ledger"].map(readLedgerLocation))
        default:
            let spec = try body.object(allowed: ScenarioFormat.Keys.expectLedger)
            guard let merchant = spec["merchant"], let count = spec["count"] else { throw body.fail("expected \"merchant\" and \"count\"") }
            return .expectLedger(merchant: try merchant.string(), count: try count.integer(ScenarioFormat.Ranges.ledgerCount))
        }
    }

    static func readRequest(_ node: ScenarioNode) throws(ScenarioError) -> Step.Request {
        let fields = try node.object(allowed: ScenarioFormat.Keys.request)
        guard let method = fields["method"], let path = fields["path"] else { throw node.fail("expected \"method\" and \"path\"") }
        var headers: [(name: String, value: String)] = []
        if let node = fields["headers"] {
            guard case .object(let members) = node.value else { throw node.fail("expected an object of header: value") }
            for name in members.keys.sorted() { headers.append((name, try node.child(name, members[name]!).string())) }
        }
        if fields["body"] != nil, fields["json"] != nil { throw node.fail("expected \"body\" or \"json\", not both") }
        let pathText = try path.string()
        guard pathText.hasPrefix("/") else { throw path.fail("expected a path starting with /") }
        return Step.Request(method: try method.string(), path: pathText, headers: headers,
                            body: try fields["body"]?.string(), json: fields["json"]?.value)
    }

    /// `expect_cashout`'s `decided_by`: a rule's name, a matcher on it, or an object of `kind`,
    /// `rule`, `index` and `outcome` (the two kinds of object share no key).
    static func readDecidedBy(_ node: ScenarioNode) throws(ScenarioError) -> DecidedByExpectation {
        let keys = ["kind", "rule", "index", "outcome"]
        guard case .object(let members) = node.value, members.keys.contains(where: keys.contains) else {
            if case .object(let members) = node.value, let key = members.keys.sorted().first(where: { !matcherOperators.contains($0) }) {
                let hint = ScenarioNode.didYouMean(key, among: matcherOperators + keys)
                throw node.child(key, .null).fail("unknown key (\(hint)expected a matcher's \(matcherOperators.joined(separator: ", ")), "
                                                  + "or \(keys.joined(separator: ", ")))")
            }
            return DecidedByExpectation(rule: try readMatcher(node))
        }
        let spec = try node.object(allowed: keys)
        var expected = DecidedByExpectation(rule: try spec["rule"].map(readMatcher), index: try spec["index"]?.integer(0 ... 1_000_000),
                                            outcome: try spec["outcome"]?.integer(0 ... 1_000_000))
        if let kind = spec["kind"] {
            let kinds = DecisionKind.allCases.filter { $0 != .unknown }
            guard let value = DecisionKind(rawValue: try kind.string()), kinds.contains(value) else {
                throw kind.failShowingValue("expected one of \(kinds.map(\.rawValue).joined(separator: ", "))")
            }
            expected.kind = value
        }
        return expected
    }

    static func readExpectation(_ node: ScenarioNode) throws(ScenarioError) -> Step.Expectation {
        let fields = try node.object(allowed: ScenarioFormat.Keys.expectation)
        return Step.Expectation(status: try fields["status"]?.integer(ScenarioFormat.Ranges.expectedStatus), json: fields["json"]?.value,
                                jsonContains: fields["json_contains"]?.value, noResponse: try fields["no_response"]?.bool() ?? false)
    }

    /// Whether `name` is a status (`COMPLETED`) or an API's own word for one (Mannco's
    /// `completed`, PayoutService's `SUCCESS`), as `expect_cashout` and `expect_webhooks` take them.
    static func isStatus(_ name: String, _ vocabulary: ScenarioVocabulary) -> Bool {
        PayoutStatus.names.contains(name) || vocabulary.statusWords.contains(name)
    }

    static func notAStatus(_ node: ScenarioNode, _ vocabulary: ScenarioVocabulary) -> ScenarioError {
        let words = vocabulary.statusWords.isEmpty ? "" : " (or an API's own word: \(vocabulary.statusWords.sorted().joined(separator: ", ")))"
        return node.failShowingValue("expected a status: \(ScenarioNode.statusNames)\(words)")
    }
}
