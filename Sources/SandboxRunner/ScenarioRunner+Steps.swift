import CashoutSandbox
import SandboxBank
import SandboxContract
import SandboxWire
import SandboxSupport

// Each step either holds (nil) or says what was expected and what happened instead.

extension ScenarioRunner {
    mutating func perform(_ step: Step) -> String? {
        if let failure = templateFailure(in: step) { return failure }
        switch step {
        case .request(let request, let expect, let save):
            return send(request, expect: expect, save: save)
        case .createCashout(let fields, let merchant, let name, let expect):
            return create(fields, merchant: merchant, name: name, expect: expect)
        case .createCashouts(let count, let fields, let merchant, let prefix):
            return createMany(count, fields, merchant: merchant, prefix: prefix)
        case .advance(let duration):
            // Beside an app, the clock stops for it on the way (`AppTurns`).
            guard turns != nil else {
                sandbox.bank.advance(by: duration)
                return nil
            }
            let target = sandbox.bank.clock.now.adding(duration)
            if let note = turns?.advance(to: target) { notes.append(note) }
            return nil
        case .advanceToNextEvent:
            guard turns != nil else {
                sandbox.bank.advanceToNextEvent()
                return nil
            }
            if let note = turns?.advance(to: nil) { notes.append(note) }
            return nil
        case .settle:
            return nil  // the run waited before the step (ScenarioRunner.waitForQuiet)
        case .expectCashout(let ref, let status, let reasonCode, let bankReference, let decidedBy):
            guard let payout = payout(ref) else { return "expect_cashout: no cashout named \"\(ref)\" (name one with \"as\")" }
            // The sandbox's name, or the payout's API's own word for it (Mannco's "completed").
            let word = sandbox.dialects[payout.dialect]?.statusWord(payout.status)
            if let status, !status.matches(payout.status.name), !(word.map(status.matches) ?? false) {
                return "expect_cashout \(ref): expected status \(Self.describe(status)), got \(statusText(payout.status, dialect: payout.dialect))"
            }
            if let reasonCode, payout.reasonCode != reasonCode {
                return "expect_cashout \(ref): expected rejection_code \(reasonCode), got \(payout.reasonCode ?? "none")"
            }
            if let bankReference, payout.bankReference != bankReference {
                return "expect_cashout \(ref): expected bank_reference_id \(bankReference), got \(payout.bankReference ?? "none")"
            }
            return decidedBy.flatMap { check(decidedBy: $0, of: payout, ref: ref) }
        case .expectWebhooks(let ref, let count, let statuses, let fields, let attempts):
            return expectWebhooks(ref: ref, count: count, statuses: statuses, fields: fields, attempts: attempts)
        case .expectBalance(let id, let named, let amounts):
            guard let account = sandbox.bank.account(id: id) else {
                return named == .account ? noAccount(id, action: "expect_balance") : "expect_balance: no merchant or user \"\(id)\""
            }
            for (currency, amount) in amounts.sorted(by: { $0.key < $1.key }) {
                if currency == "cents" {
                    if account.balance != amount {
                        return "expect_balance \(id): expected \(amount.hundredths) cents, got \(account.balance.hundredths)"
                    }
                    continue
                }
                guard currency == account.currency else {
                    return "expect_balance \(id): expected a \(currency) balance, the account settles in \(account.currency)"
                }
                if account.balance != amount { return "expect_balance \(id): expected \(currency) \(amount), got \(account.balance)" }
            }
            return nil
        case .expectDeliveries(let expectation):
            return expectDeliveries(expectation)
        case .expectSink(let expectation):
            return expectSink(expectation)
        case .expectRequests(let verification):
            return expectRequests(expand(verification))
        case .waitForRequest(let request, let timeout, let name, let status):
            return waitForRequest(expand(request), timeout: timeout, name: name, status: status)
        case .expectReport(let expected):
            return expectReport(expected)
        case .expectReconciled(let account, let ledger):
            switch reconcile(ledger ?? scenario.appLedger ?? "", account: account, action: "expect_reconciled") {
            case .agreed: return nil
            case .notServed(let sentence):
                notes.append("expect_reconciled: \(sentence)")
                return nil
            case .failed(let message, let unreadable):
                if !unreadable { judged = mismatches(action: "expect_reconciled") }
                return message
            }
        case .expectLedger(let login, let count):
            guard sandbox.bank.account(id: login) != nil else { return "expect_ledger: no merchant \"\(login)\"" }
            let entries = sandbox.bank.ledgerCount(account: login)
            return entries == count ? nil : "expect_ledger \(login): expected \(count) entries, got \(entries)"
        case .dialect(var step):
            guard let dialect = sandbox.dialects.values.lazy.compactMap({ $0.asScenarioDialect })
                .first(where: { $0.scenarioVocabulary.stepActions[step.action] != nil }) else {
                return "\(step.action): no API of this sandbox performs it"
            }
            step.body = expand(step.body)
            step.ownExpect = step.ownExpect.map { expand($0) }
            return dialect.perform(step, in: &self)
        }
    }

    /// A step's account id that no API of the sandbox has: the closest id, else the ids there
    /// are (the first few), each with its API as `/sandbox/accounts/{dialect}` names it.
    func noAccount(_ id: String, action: String) -> String {
        let accounts = sandbox.bank.accounts
        let message = "\(action): no account \"\(id)\" in any API of this sandbox"
        if let close = Suggestion.closest(to: id, among: accounts.map(\.id)), let account = accounts.first(where: { $0.id == close }) {
            return message + "; did you mean \"\(close)\" (\(account.dialect))?"
        }
        let shown = accounts.prefix(5).map { "\($0.id) (\($0.dialect))" }.joined(separator: ", ")
        return message + (accounts.isEmpty ? "" : "; it has \(shown)") + (accounts.count > 5 ? " and \(accounts.count - 5) more" : "")
    }

    func payout(_ ref: String) -> Payout? {
        references[ref].flatMap { sandbox.bank.payout(id: $0.cashoutID) }
    }

    /// The create of the step's account (by default the first dialect's default account), in its
    /// dialect's terms, with notifications to the sink named after the account; or what is wrong.
    func prepareCreate(_ given: [String: JSON], account id: String?, action: String) throws(StepFailure) -> ScenarioCreate {
        guard let id = id ?? sandbox.defaultAccountID, let account = sandbox.bank.account(id: id) else {
            throw StepFailure(message: "\(action): no merchant \"\(id ?? "")\"")
        }
        guard let create = sandbox.dialects[account.dialect]?.asScenarioDialect?.scenarioCreate(
            fields: given.mapValues(expand), account: account, notificationURL: "\(sandbox.baseURL)/sandbox/sink/\(id)") else {
            throw StepFailure(message: "\(action): \"\(id)\" is an account of \(account.dialect), whose scenarios cannot create payouts")
        }
        return create
    }

    /// What a step expected and what happened instead.
    struct StepFailure: Error {
        let message: String
    }

    private mutating func create(_ given: [String: JSON], merchant: String?, name: String?, expect: Step.Expectation?) -> String? {
        let create: ScenarioCreate
        do { create = try prepareCreate(given, account: merchant, action: "create_cashout") } catch { return error.message }
        created += 1
        let reference = create.fixedReference ?? "\(scenario.name.prefix(40))-\(created)"
        let request = create.request(reference)
        let outcome = exchange(request.method, request.target, headers: request.headers, body: request.body)
        var expected = expect ?? Step.Expectation()
        if expected.status == nil, !expected.noResponse { expected.status = 200 }  // a create is expected to succeed unless told
        if let problem = check(outcome, expected, action: "create_cashout") {
            return problem
        }
        if let name, case .response(let response) = outcome, let id = create.payoutID(response) {
            references[name] = Reference(cashoutID: id, externalID: reference)
        }
        return nil
    }

    private mutating func send(_ request: Step.Request, expect: Step.Expectation?, save: [String: String]) -> String? {
        let body = request.json.map { expand($0).serialized() } ?? Array(expand(request.body ?? "").utf8)
        var headers = HTTPHeaders()
        for header in request.headers { headers.add(header.name, expand(header.value)) }
        let outcome = exchange(request.method, expand(request.path), headers: headers, body: body)
        if let expect, let problem = check(outcome, expect, action: "request \(request.method) \(request.path)") { return problem }
        guard !save.isEmpty else { return nil }
        guard case .response(let response) = outcome, let json = try? JSON.parse(response.body) else {
            return "request \(request.method) \(request.path): expected a JSON body to save from"
        }
        for (name, key) in save {
            var value: JSON? = json
            for part in key.split(separator: ".") { value = value?[String(part)] ?? Int(part).flatMap { value?[$0] } }
            guard let found = value?.stringValue ?? value?.numberText else { return "save \(name): no \"\(key)\" in \(json.serializedString())" }
            saved[name] = found
        }
        return nil
    }

    enum Outcome {
        case response(HTTPResponse)
        case noResponse(String)
    }

    func exchange(_ method: String, _ path: String, headers: HTTPHeaders, body: [UInt8]) -> Outcome {
        do {
            return .response(try HTTPClient.send(method: method, url: "\(sandbox.baseURL)\(path)", headers: headers, body: body,
                                                 timeout: .seconds(30)))
        } catch {
            return .noResponse("\(error)")
        }
    }

    func check(_ outcome: Outcome, _ expect: Step.Expectation, action: String) -> String? {
        switch outcome {
        case .noResponse(let why):
            return expect.noResponse ? nil : "\(action): expected a response, got none (\(why))"
        case .response(let response):
            if expect.noResponse { return "\(action): expected no response, got \(response.status) \(response.bodyText)" }
            if let status = expect.status, response.status != status {
                return "\(action): expected status \(status), got \(response.status) \(response.bodyText)"
            }
            if let json = expect.json {
                guard let actual = try? JSON.parse(response.body), Self.equal(actual, expand(json)) else {
                    return "\(action): expected body \(expand(json).serializedString()), got \(response.bodyText)"
                }
            }
            if let partial = expect.jsonContains {
                guard let actual = try? JSON.parse(response.body), Self.contains(actual, expand(partial)) else {
                    return "\(action): expected a body containing \(expand(partial).serializedString()), got \(response.bodyText)"
                }
            }
            return nil
        }
    }

    /// Equal JSON, numbers by value (`1000001.0` equals `1000001`).
    static func equal(_ actual: JSON, _ expected: JSON) -> Bool {
        switch (actual, expected) {
        case (.number(let a), .number(let b)): a == b || Money(a).map { $0 == Money(b) } ?? false
        case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)): a.count == b.count && b.allSatisfy { key, value in a[key].map { equal($0, value) } ?? false }
        default: actual == expected
        }
    }

    /// Whether every key of `expected` is in `actual` with an equal value, nested the same way.
    static func contains(_ actual: JSON, _ expected: JSON) -> Bool {
        guard case .object(let wanted) = expected else { return equal(actual, expected) }
        guard case .object(let have) = actual else { return false }
        return wanted.allSatisfy { key, value in have[key].map { contains($0, value) } ?? false }
    }

    private func expectWebhooks(ref: String?, count: Int?, statuses: [String]?, fields: [String: String], attempts: Int?) -> String? {
        let payoutID: Int?
        do { payoutID = try cashoutID(ref, for: "expect_webhooks") } catch { return error.message }
        // Counted in place: a load scenario's million notifications are copied only to list them.
        let made = sandbox.bank.notificationCount(payoutID: payoutID)
        let subject = ref.map { "expect_webhooks \($0)" } ?? "expect_webhooks"
        // A count, the statuses or the attempts that differ come with every delivery made.
        func failure(_ message: String) -> String {
            let listing = deliveryListing(sandbox.bank.notifications(payoutID: payoutID))
            return "\(subject): \(message)" + (listing.isEmpty ? "" : "\n" + listing)
        }
        if let count, made.notifications != count { return failure("expected \(count) notifications, got \(made.notifications)") }
        guard statuses != nil || attempts != nil || !fields.isEmpty else { return nil }
        let notifications = statuses == nil && fields.isEmpty ? [] : sandbox.bank.notifications(payoutID: payoutID)
        if let statuses {
            // The sandbox's name, or the API's own word for it (PayoutService's SUCCESS), as expect_cashout.
            if notifications.count != statuses.count
                || zip(statuses, notifications).contains(where: { !isStatus($0, $1.status, dialect: $1.dialect) }) {
                return failure("expected statuses \(statuses.joined(separator: ", ")), got \(notifications.map(statusText).joined(separator: ", "))")
            }
        }
        if let attempts, made.attempts != attempts { return failure("expected \(attempts) delivery attempts, got \(made.attempts)") }
        if !fields.isEmpty, notifications.isEmpty {
            return "\(subject): expected notifications carrying \(fields.keys.sorted().joined(separator: ", ")), got none"
        }
        for notification in notifications where !fields.isEmpty {
            let sent = sandbox.notification(notification)?.fields ?? [:]
            for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
                let sent = sent[key]
                if sent != expand(value) {
                    return "\(subject): expected form field \(key)=\(expand(value)) in notification \(notification.id), got \(sent ?? "nothing")"
                }
            }
        }
        return nil
    }

    static func describe(_ matcher: Matcher) -> String {
        matcher.tests.map { test in
            switch test {
            case .eq(let value): value.text
            case .oneOf(let values): "one of \(values.map(\.text).joined(separator: ", "))"
            default: "\(test)"
            }
        }.joined(separator: " and ")
    }
}
