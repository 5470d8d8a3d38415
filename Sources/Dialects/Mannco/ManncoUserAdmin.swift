import SandboxBank
import SandboxHTTP
import SandboxJSON

/// Mannco's users and their email outbox in the sandbox's admin API: `GET /sandbox/users`,
/// `PUT /sandbox/users/{id}` (creates a user, or changes the fields given), and
/// `GET /sandbox/emails[?user=]`. Errors in the admin API's `{"code","message"}`.
struct ManncoUserAdmin {
    let bank: Bank

    func register(in router: inout Router) {
        router.add("GET /sandbox/users") { _ in
            .json(["users": .array(bank.accounts.compactMap(ManncoUser.init(owned:)).map(Self.json))])
        }
        router.add("PUT /sandbox/users/{id}") { request in put(request) }
        router.add("GET /sandbox/emails") { request in
            .json(["emails": .array(ManncoEmail.outbox(of: bank.payouts(account: request.query("user"))).map(\.json))])
        }
    }

    private func put(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.parameters["id"], !id.isEmpty, id.count <= 64 else { return Router.error(400, "id: 1 to 64 characters") }
        guard case .object(let body)? = try? JSON.parse(request.body) else { return Router.error(400, "the body must be a JSON object") }
        if let given = body["id"], given != .string(id) { return Router.error(400, "id: expected the path's id, \(id), or none") }
        if let key = body["api_key"]?.stringValue,
           let other = bank.account(where: { $0.id != id && ManncoUser(owned: $0)?.apiKey == key }) {
            return Router.error(409, "api_key: already the key of user \(other.id)")
        }
        do throws(Bank.AccountChangeError) {
            let template = ManncoUser.account(id: id, apiKey: "", balanceCents: 0)
            let (account, created) = try bank.updateAccount(id: id, creatingFrom: template) { account in
                guard ManncoUser(owned: account) != nil else { return "\(id) is an account of \(account.dialect)" }
                if let problem = Self.apply(body, to: &account) { return problem }
                return ManncoUser(account).apiKey.isEmpty ? "a new user needs \"api_key\"" : nil
            }
            return .json(Self.json(ManncoUser(account)), status: created ? 201 : 200)
        } catch .invalid(let problem) {
            return Router.error(400, problem)
        } catch {
            return Router.error(409, "a user keeps its currency")
        }
    }

    /// Applies the fields present in `body`; returns what is wrong with the first bad one.
    static func apply(_ body: [String: JSON], to account: inout Account) -> String? {
        let known: Set = ["id", "api_key", "balance", "verified", "linked", "email"]
        if let unknown = body.keys.sorted().first(where: { !known.contains($0) }) { return "\(unknown): unknown field" }
        for key in [ManncoUser.Key.apiKey, ManncoUser.Key.email] {
            guard let value = body[key] else { continue }
            guard let text = value.stringValue, !text.isEmpty else { return "\(key): expected a non-empty string" }
            account.settings[key] = text
        }
        if let balance = body["balance"] {
            guard let cents = balance.numberText.flatMap({ Int64($0) }), (0 ... ManncoProcessRequest.maximumAmount).contains(cents) else {
                return "balance: expected a whole number of cents, such as 100000"
            }
            account.balance = Money(hundredths: cents)
        }
        if let verified = body["verified"] {
            guard let flag = verified.boolValue else { return "verified: expected true or false" }
            account.settings[ManncoUser.Key.verified] = flag ? nil : "false"
        }
        if let linked = body["linked"] {
            guard let names = linked.arrayValue?.compactMap(\.stringValue), names.count == linked.arrayValue?.count else {
                return "linked: expected an array of \"payoneer\", \"tipalti\" or \"paypal\""
            }
            for provider in ManncoProvider.allCases { ManncoUser.setting(provider, linked: false, in: &account) }
            for name in names {
                guard let provider = ManncoProvider(rawValue: name) else { return "linked: \(name) is not payoneer, tipalti or paypal" }
                ManncoUser.setting(provider, linked: true, in: &account)
            }
        }
        return nil
    }

    /// A user as the admin API shows it.
    static func json(_ user: ManncoUser) -> JSON {
        [
            "id": .string(user.id), "api_key": .string(user.apiKey), "balance": .number(String(user.balanceCents)),
            "verified": .bool(user.verified), "linked": .array(user.linked.map { .string($0.rawValue) }),
            "email": .string(user.email), "tipalti_payee_id": user.tipaltiPayeeID.map { .string($0) } ?? .null,
        ]
    }
}
