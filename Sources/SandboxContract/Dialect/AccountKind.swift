package import SandboxBank
package import SandboxSupport

/// One API's accounts (D24's merchants, Mannco's users, PayoutService's merchants) as the
/// sandbox reads, shows and changes them whatever the API: the scenario file's section, the admin
/// API's resource (`/sandbox/accounts/{dialect}/{id}`, and the API's older path kept as an
/// alias), what a `PUT` takes and refuses, the start-up log's line and the credentials an app
/// reads from its environment. A dialect gives one (`Dialect.accounts`); the admin API, the
/// scenario loader, the start-up log and `test --serve` serve every API's accounts from it.
///
/// A `PUT` creates the account from `template` or changes the members given (`apply`), then
/// refuses an account `lacking` what it needs; its errors are the admin API's `{"code","message"}`:
/// 400 for a bad id or body, 409 for a `conflict` with another account or a currency change on an
/// account with payouts.
package struct AccountKind: Sendable {
    /// The scenario file's top-level key holding them (`merchants`), and its reader of one; nil
    /// when scenarios cannot name them.
    var section: (name: String, read: ScenarioVocabulary.AccountReader)?
    /// That section's declaration in the scenario format (its description, and its accounts'
    /// definition: `.array("D24 merchant accounts...", of: .ref("merchant"))`); nil leaves it out of
    /// scenarios/schema.json.
    var sectionFormat: KeySpec?
    /// Their admin path before `/sandbox/accounts/{dialect}` (`/sandbox/merchants`), which still
    /// answers, the member of its list (`{"merchants": [...]}`) and the operation ids of its list
    /// and its create-or-update (`listMerchants`, `putMerchant`); nil for none.
    package var legacyPath: (path: String, listMember: String, ids: (list: String, put: String))?
    /// What the id is called in messages and the older path (`login`), and its longest length.
    package var idName: String

    /// The operations of its older path, when it has one: the list (`GET /sandbox/merchants`) and
    /// the create-or-update (`PUT /sandbox/merchants/{login}`), which the admin API serves and its
    /// API's part of the OpenAPI document describes.
    package var legacyOperations: (list: APIOperation, put: APIOperation)? {
        legacyPath.map { legacy in
            (APIOperation(legacy.ids.list, .http("GET", legacy.path), role: .admin),
             APIOperation(legacy.ids.put, .http("PUT", "\(legacy.path)/{\(idName)}"), role: .admin))
        }
    }
    package var idLimit: Int
    /// What a `PUT` whose path's id is empty or too long is refused with.
    package var idRefusal: String { AdminMessage.accountID(idName, limit: idLimit) }
    /// The body member that may repeat the path's id (`merchant_id`); nil when none is checked.
    package var idMember: String?
    /// The accounts it starts with when no scenario names others.
    package var defaults: [Account]
    /// The OpenAPI schemas of one account and of a `PUT`'s body, by their names in the document;
    /// nil leaves its accounts out of the document.
    package var schemaNames: (account: String, update: String)?
    /// A new account named `id`, before `apply` gives it the body's members.
    package var template: @Sendable (_ id: String) -> Account
    /// Applies the members present in a `PUT`'s body; what is wrong with the first bad one.
    package var apply: @Sendable (_ body: [String: JSON], _ account: inout Account) -> String?
    /// What a created or changed account still lacks (`a new merchant needs "api_key"`); nil when none.
    package var lacking: @Sendable (Account) -> String?
    /// What a `PUT` of `body` to `id` conflicts with among the other accounts (409); nil for nothing.
    package var conflict: @Sendable (_ id: String, _ body: [String: JSON], _ bank: Bank) -> String?
    /// The 409's message for a currency change on an account with payouts.
    package var currencyKept: String
    /// One account as the admin API shows it.
    package var json: @Sendable (Account) -> JSON
    /// How the start-up log shows one: the text line, and the event with its fields for JSON logs
    /// (D24: `server.merchant` with `login`, `currency`, `balance`).
    var startupLine: @Sendable (Account) -> (text: String, event: String, fields: [(String, String)])
    /// Its credentials as an app reads them from its environment, each under a short upper-case
    /// name (D24: `LOGIN`, `PASS`, `SECRET_KEY`); the sandbox prefixes them
    /// (`CASHOUT_SANDBOX_D24_LOGIN`).
    var environment: @Sendable (Account) -> [(name: String, value: String)]

    /// Accounts made from `template`; what is not given is the neutral account's: the admin API
    /// shows and takes `currency`, `balance`, `limits` and `notification_url` (`neutralJSON`,
    /// `applyNeutral`), the start-up log says its id and balance, and an app reads no credentials.
    package init(template: @escaping @Sendable (_ id: String) -> Account, defaults: [Account] = [],
                section: (name: String, read: ScenarioVocabulary.AccountReader)? = nil,
                legacyPath: (path: String, listMember: String, ids: (list: String, put: String))? = nil, idName: String = "id", idLimit: Int = 64,
                idMember: String? = nil,
                sectionFormat: KeySpec? = nil,
                schemaNames: (account: String, update: String)? = nil,
                apply: @escaping @Sendable (_ body: [String: JSON], _ account: inout Account) -> String? = AccountKind.applyNeutral,
                lacking: @escaping @Sendable (Account) -> String? = { _ in nil },
                conflict: @escaping @Sendable (_ id: String, _ body: [String: JSON], _ bank: Bank) -> String? = { _, _, _ in nil },
                currencyKept: String = "currency: an account with payouts keeps its currency",
                json: @escaping @Sendable (Account) -> JSON = AccountKind.neutralJSON,
                startupLine: @escaping @Sendable (Account) -> (text: String, event: String, fields: [(String, String)]) = AccountKind.neutralLine,
                environment: @escaping @Sendable (Account) -> [(name: String, value: String)] = { _ in [] }) {
        self.section = section
        self.sectionFormat = sectionFormat
        self.legacyPath = legacyPath
        self.idName = idName
        self.idLimit = idLimit
        self.idMember = idMember
        self.defaults = defaults
        self.schemaNames = schemaNames
        self.template = template
        self.apply = apply
        self.lacking = lacking
        self.conflict = conflict
        self.currencyKept = currencyKept
        self.json = json
        self.startupLine = startupLine
        self.environment = environment
    }
}

extension AccountKind {
    /// An account as any API's is: `{"id", "currency", "balance", "limits", "notification_url"}`.
    @Sendable static func neutralJSON(_ account: Account) -> JSON {
        func optional(_ text: String?) -> JSON { text.map { .string($0) } ?? .null }
        return [
            "id": .string(account.id), "currency": .string(account.currency), "balance": .string(account.balance.description),
            "limits": ["transaction": optional(account.limits.transaction?.description), "daily": optional(account.limits.daily?.description),
                       "monthly": optional(account.limits.monthly?.description)],
            "notification_url": optional(account.callbackURL),
        ]
    }

    /// Applies `currency`, `balance` (a decimal amount), `limits` and `notification_url` (a URL or
    /// null); any other member is an unknown field.
    @Sendable static func applyNeutral(_ body: [String: JSON], to account: inout Account) -> String? {
        let known: Set = ["id", "currency", "balance", "limits", "notification_url"]
        if let unknown = body.keys.sorted().first(where: { !known.contains($0) }) { return AdminMessage.unknownField(unknown) }
        if let currency = body["currency"] {
            guard let text = currency.stringValue, !text.isEmpty else { return AdminMessage.expectedNonEmptyString("currency") }
            account.currency = text
        }
        if let balance = body["balance"] {
            guard let money = balance.stringValue.flatMap({ Money($0) }) ?? balance.numberText.flatMap({ Money($0) }), money >= .zero else {
                return AdminMessage.expectedAmount("balance")
            }
            account.balance = money
        }
        if let limits = body["limits"], let problem = account.limits.apply(limits) { return problem }
        if let url = body["notification_url"] {
            guard url.isNull || url.stringValue != nil else { return "notification_url: expected a URL or null" }
            account.callbackURL = url.stringValue
        }
        return nil
    }

    /// `echo account: echo_account, balance USD 1000.00`, event `server.account`.
    @Sendable static func neutralLine(_ account: Account) -> (text: String, event: String, fields: [(String, String)]) {
        ("\(account.dialect) account: \(account.id), balance \(account.currency) \(account.balance)", "server.account",
         [("dialect", account.dialect), ("id", account.id), ("currency", account.currency), ("balance", account.balance.description)])
    }
}
