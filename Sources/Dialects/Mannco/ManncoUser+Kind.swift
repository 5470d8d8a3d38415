import SandboxContract
import SandboxBank
import SandboxSupport

extension ManncoUser {
    /// What a user's `PUT` is refused with, beside the admin API's own (`AdminMessage`): the kind
    /// answers them and the API's OpenAPI document shows them.
    static let needsAPIKey = #"a new user needs "api_key""#
    static let balanceRefusal = "balance: expected a whole number of cents, such as 100000"
    static let currencyKept = "a user keeps its currency"
    static func keyTaken(by user: String) -> String { "api_key: already the key of user \(user)" }

    /// Mannco's users on the seam: the scenario's `users` section, the admin API's
    /// `/sandbox/accounts/mannco/{id}` (and `/sandbox/users`), where a new user needs `api_key`
    /// and no two users share one; an app reads `USER_ID` and `API_KEY` (what `POST /user/login`
    /// takes).
    static let kind = AccountKind(
        template: { id in account(id: id, apiKey: "", balanceCents: 0) }, defaults: [sandboxDefault],
        section: ("users", read), legacyPath: ("/sandbox/users", "users", ("listManncoUsers", "putManncoUser")), idMember: "id",
        sectionFormat: ManncoDialect.usersFormat,
        schemaNames: ("ManncoUser", "ManncoUserUpdate"),
        apply: { apply($0, to: &$1) },
        lacking: { ManncoUser($0).apiKey.isEmpty ? needsAPIKey : nil },
        conflict: { id, body, bank in
            guard let key = body[Key.apiKey]?.stringValue,
                  let other = bank.account(where: { $0.id != id && ManncoUser(owned: $0)?.apiKey == key }) else { return nil }
            return keyTaken(by: other.id)
        },
        currencyKept: currencyKept, json: { json(ManncoUser($0)) },
        startupLine: { account in
            let user = ManncoUser(account)
            return ("mannco user: id \(user.id), api key \(user.apiKey), balance \(user.balanceCents) cents, "
                    + "linked \(user.linked.map(\.rawValue).joined(separator: ", "))", "server.user",
                    [("id", user.id), ("api_key", user.apiKey), ("balance_cents", String(user.balanceCents))])
        },
        environment: { account in
            let user = ManncoUser(account)
            return [("USER_ID", user.id), ("API_KEY", user.apiKey)]
        })

    /// Applies the fields present in `body`; returns what is wrong with the first bad one.
    @Sendable static func apply(_ body: [String: JSON], to account: inout Account) -> String? {
        let known: Set = ["id", "api_key", "balance", "verified", "linked", "email"]
        if let unknown = body.keys.sorted().first(where: { !known.contains($0) }) { return AdminMessage.unknownField(unknown) }
        for key in [ManncoUser.Key.apiKey, ManncoUser.Key.email] {
            guard let value = body[key] else { continue }
            guard let text = value.stringValue, !text.isEmpty else { return AdminMessage.expectedNonEmptyString(key) }
            account.settings[key] = text
        }
        if let balance = body["balance"] {
            guard let cents = balance.numberText.flatMap({ Int64($0) }), (0 ... ManncoProcessRequest.maximumAmount).contains(cents) else {
                return balanceRefusal
            }
            account.balance = Money(hundredths: cents)
        }
        if let verified = body["verified"] {
            guard let flag = verified.boolValue else { return AdminMessage.expectedBool("verified") }
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
    @Sendable static func json(_ user: ManncoUser) -> JSON {
        [
            "id": .string(user.id), "api_key": .string(user.apiKey), "balance": .number(String(user.balanceCents)),
            "verified": .bool(user.verified), "linked": .array(user.linked.map { .string($0.rawValue) }),
            "email": .string(user.email), "tipalti_payee_id": user.tipaltiPayeeID.map { .string($0) } ?? .null,
        ]
    }
}
