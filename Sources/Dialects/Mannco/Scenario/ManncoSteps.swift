import SandboxBank
import SandboxContract
import SandboxWire
import SandboxSupport

// Mannco's scenario steps. Each acts as the user would, through the API: it logs in with the
// user's API key (the default user when the step names none), then calls.
//   {"login": {"user": ID} | {"api_key": KEY}, "as": "NAME"}              saves the JWT as {{NAME}} (default {{jwt}})
//   {"process_cashout": {"user": ID, "amount": 5000, "method": "payoneer", "email": …}, "as": "c1"}
//   {"link": {"user": ID, "provider": "payoneer" | "paypal" | "tipalti", …Tipalti's payee fields, "open": true}}
//   {"expect_emails": {"user": ID, "ref": "c1", "count": 3, "statuses": ["pending", …], "to": ADDRESS}}
// `expect` works as after `request`; without it a step expects status 200 (expect_emails takes none).

enum ManncoSteps {
    static let checks: [String: ScenarioVocabulary.StepCheck] = [
        "login": { node throws(ScenarioError) in
            let fields = try node.object(allowed: ManncoDialect.loginFormat.keys)
            if fields.count > 1 { throw node.fail("expected \"user\" or \"api_key\", not both") }
            for value in fields.values { _ = try value.nonEmptyString() }
        },
        "process_cashout": { node throws(ScenarioError) in
            guard case .object(let members) = node.value else { throw node.fail("expected an object of body fields and \"user\"") }
            if let user = members["user"] { _ = try node.child("user", user).nonEmptyString() }
        },
        "link": { node throws(ScenarioError) in
            guard case .object(let members) = node.value else { throw node.fail("expected an object with \"provider\"") }
            if let user = members["user"] { _ = try node.child("user", user).nonEmptyString() }
            if let open = members["open"] { _ = try node.child("open", open).bool() }
        },
        "expect_emails": { node throws(ScenarioError) in
            let fields = try node.object(allowed: ManncoDialect.expectEmailsFormat.keys)
            _ = try fields["count"]?.integer(ManncoDialect.expectEmailsFormat.property("count")!.range)
            for status in try fields["statuses"]?.array() ?? [] {
                let words = ManncoDialect.statusWords
                guard words.contains(try status.string()) else {
                    throw status.fail("expected \(words.dropLast().joined(separator: ", ")) or \(words.last!)")
                }
            }
            for key in ["user", "ref", "to"] { _ = try fields[key]?.string() }
        },
    ]

    static func perform(_ step: Step.DialectStep, in run: inout some ScenarioRun) -> String? {
        guard case .object(var body) = step.body else { return "\(step.action): expected an object" }
        let id = body.removeValue(forKey: "user")?.stringValue
        if step.action == "expect_emails" { return expectEmails(body, user: id, in: run) }
        if step.action == "login", let key = body["api_key"]?.stringValue {
            return login(apiKey: key, step: step, in: &run).problem
        }
        guard let found = id.map({ run.bank.account(id: $0) }) ?? defaultUser(run.bank), let user = ManncoUser(owned: found) else {
            return "\(step.action): no Mannco user \"\(id ?? "")\" (define one in \"users\")"
        }
        if step.action == "login" { return login(apiKey: user.apiKey, step: step, in: &run).problem }
        let (token, problem) = login(apiKey: user.apiKey, step: Step.DialectStep(action: "\(step.action): login", body: [:]), in: &run)
        guard let token else { return problem }
        let open = body.removeValue(forKey: "open")?.boolValue ?? true
        let operation = step.action == "link" ? ManncoOperation.link : ManncoOperation.process
        let request = HTTPRequest(method: operation.method, target: operation.path,
                                  headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"],
                                  body: JSON.object(body).serialized())
        let (response, failure) = run.send(request, expect: step.expect ?? Step.Expectation(status: 200), action: step.action)
        if let failure { return failure }
        let content = response.flatMap { try? JSON.parse($0.body) }?["content"]
        if step.action == "process_cashout", let name = step.name, let id = content?["cashoutId"]?.numberText.flatMap({ Int($0) }) {
            run.name(name, payoutID: id, reference: String(id))
        }
        let pages = ManncoOperation.openLink.path.prefix { $0 != "{" }  // "/cashout/link/"
        if step.action == "link", open, let url = content?["link"]?.stringValue, let start = url.firstRange(of: pages) {
            let page = HTTPRequest(method: "GET", target: String(url[start.lowerBound...]))
            return run.send(page, expect: Step.Expectation(status: 200), action: "link: opening \(url)").problem
        }
        return nil
    }

    /// `POST /user/login`: the JWT, kept as `{{NAME}}` when `step` is a login step.
    private static func login(apiKey: String, step: Step.DialectStep, in run: inout some ScenarioRun) -> (token: String?, problem: String?) {
        let login = ManncoOperation.login
        let request = HTTPRequest(method: login.method, target: login.path, headers: ["Content-Type": "application/json"],
                                  body: JSON.object(["apiKey": .string(apiKey)]).serialized())
        let (response, problem) = run.send(request, expect: step.expect ?? Step.Expectation(status: 200), action: step.action)
        if let problem { return (nil, problem) }
        let token = response.flatMap { try? JSON.parse($0.body) }?["content"]?["jwt"]?.stringValue
        if step.action == "login", let token { run.save(step.name ?? "jwt", token) }
        return (token, nil)
    }

    /// The default user when it is in the bank, else the first Mannco user.
    private static func defaultUser(_ bank: Bank) -> Account? {
        bank.account(id: ManncoUser.sandboxDefault.id) ?? bank.account(where: { $0.dialect == ManncoDialect.name })
    }

    private static func expectEmails(_ spec: [String: JSON], user: String?, in run: some ScenarioRun) -> String? {
        var subject = "expect_emails"
        var payouts = run.bank.payouts(account: user)
        if let ref = spec["ref"]?.stringValue {
            guard let id = run.payoutID(named: ref) else { return "expect_emails: no cashout named \"\(ref)\" (name one with \"as\")" }
            payouts = payouts.filter { $0.id == id }
            subject += " \(ref)"
        }
        let emails = ManncoEmail.outbox(of: payouts)
        if let count = spec["count"]?.numberText.flatMap({ Int($0) }), emails.count != count {
            return "\(subject): expected \(count) emails, got \(emails.count)"
        }
        if let statuses = spec["statuses"]?.arrayValue?.compactMap(\.stringValue), emails.map(\.status) != statuses {
            return "\(subject): expected emails for \(statuses.joined(separator: ", ")), got \(emails.map(\.status).joined(separator: ", "))"
        }
        if let to = spec["to"]?.stringValue, let other = emails.first(where: { $0.to != to }) {
            return "\(subject): expected every email to \(to), got one to \(other.to)"
        }
        return nil
    }
}
