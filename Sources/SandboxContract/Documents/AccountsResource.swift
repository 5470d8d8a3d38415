import SandboxSupport

/// Every API's accounts in one admin resource, `/sandbox/accounts/{dialect}/{id}`: the messages of
/// its own errors (the admin API's handler answers them, the OpenAPI document shows them), and its
/// operations, made from the accounts each API's fragment declares (`APIDocsFragment.accounts`).
/// What one API's `PUT` takes and refuses is its own schema's and its older path's.
package enum AccountsResource {
    /// The 404 of a path naming an API that is not served, or that has no accounts.
    package static func unknownAPI(_ name: String, served: [String]) -> String {
        "no API \(name) with accounts; this sandbox serves \(served.joined(separator: ", "))"
    }

    /// The 404 of an id that is not an account of that API.
    package static func noAccount(_ dialect: String, _ id: String) -> String { "no \(dialect) account \(id)" }

    /// Its endpoints, described among the APIs served (those that declare accounts).
    static func endpoints<Admin: AdminServing>() -> [Endpoint<Admin>] {
        [
            Endpoint<Admin>(AdminRoute.listAccounts, describedAmong: { apis in
                let parts = Parts(apis)
                return OpenAPI.operation(
                    tag: "Sandbox", summary: "Every API's accounts",
                    description: "By API (\(parts.names.joined(separator: ", "))), each account as its API's own path shows it.",
                    responses: ["200": OpenAPI.json("The accounts by API", Schema.object([
                        "accounts": Schema.object(Dictionary(uniqueKeysWithValues: parts.names.map { ($0, Schema.array(of: parts.account)) }),
                                                  required: parts.names),
                    ], required: ["accounts"]))])
            }) { $0.listAccounts($1) },
            Endpoint<Admin>(AdminRoute.listAccountsOfAPI, describedAmong: { apis in
                let parts = Parts(apis)
                return OpenAPI.operation(
                    tag: "Sandbox", summary: "One API's accounts", description: "In the order they were created.",
                    parameters: [parts.dialect],
                    responses: ["200": OpenAPI.json("Its accounts", Schema.object(["accounts": Schema.array(of: parts.account)],
                                                                                  required: ["accounts"])),
                                "404": OpenAPI.error(404, parts.unknown)])
            }) { $0.listAccountsOfAPI($1) },
            Endpoint<Admin>(AdminRoute.getAccount, describedAmong: { apis in
                let parts = Parts(apis)
                return OpenAPI.operation(
                    tag: "Sandbox", summary: "One account", description: "As its API's own path shows it.",
                    parameters: [parts.dialect, parts.id],
                    responses: ["200": OpenAPI.json("The account", parts.account),
                                "404": OpenAPI.error(404, parts.unknown, noAccount(parts.names.first ?? "d24", "nobody"))])
            }) { $0.getAccount($1) },
            Endpoint<Admin>(AdminRoute.putAccount, describedAmong: { apis in
                let parts = Parts(apis)
                return OpenAPI.operation(
                    tag: "Sandbox", summary: "Create or update an account",
                    description: "Creates the account, or changes the members given, as its API's own path does ("
                        + parts.declared.compactMap(\.legacyPath).map { "`PUT \($0)/{id}`" }.joined(separator: ", ")
                        + "), with the same answers.",
                    parameters: [parts.dialect, parts.id], body: OpenAPI.body(parts.update),
                    responses: [
                        "200": OpenAPI.json("Updated", parts.account), "201": OpenAPI.json("Created", parts.account),
                        "400": OpenAPI.error(400, AdminMessage.notAnObject, AdminMessage.unknownField("colour")),
                        "404": OpenAPI.error(404, parts.unknown),
                        "409": OpenAPI.errors(parts.declared.isEmpty ? "A currency change of an account with payouts"
                                                  : parts.declared.map(\.currencyKept).joined(separator: "; "),
                                              parts.declared.map { OpenAPI.failure(409, $0.currencyKept) }),
                    ])
            }) { $0.putAccount($1) },
        ]
    }

    /// What the operations say of the APIs served that declare accounts.
    private struct Parts {
        let declared: [AccountsDocs]
        let names: [String]
        let dialect, id, account, update: JSON
        let unknown: String

        init(_ apis: [APIDocsFragment]) {
            declared = apis.compactMap(\.accounts)
            names = declared.map(\.dialect)
            // With no API that has accounts (a sandbox of other APIs), every path answers 404:
            // any name, any body, rather than a choice among none (which JSON Schema refuses).
            dialect = OpenAPI.path("dialect", names.isEmpty ? Schema.string() : Schema.oneOf(names),
                                   names.isEmpty ? "The API (none served has accounts)" : "The API: \(names.joined(separator: ", "))")
            id = OpenAPI.path("id", Schema.string(example: declared.first?.exampleID ?? "acme"),
                              "The account's id in its API (D24: the merchant's login)")
            account = .object(Schema.oneOf(schemas: declared.map { Schema.ref($0.schema) }))
            // Any API's: `{"balance": "5.00"}` is both D24's and PayoutService's update, which the path's API tells apart.
            update = .object(Schema.anyOf(schemas: declared.map { Schema.ref($0.update) }))
            unknown = unknownAPI("paypal", served: names)
        }
    }
}

/// One API's accounts as `AccountsResource` documents them: its name in the path, the schemas of
/// an account and of a `PUT`'s body, its older path, an example id, and the 409 of a currency change.
package struct AccountsDocs: Sendable {
    package var dialect: String
    var schema: String
    package var update: String
    var legacyPath: String?
    var exampleID: String
    var currencyKept: String

    /// The route of the older path's list (`GET /sandbox/merchants`), as `AccountKind.legacyOperations`
    /// has it, and its name in the Postman collection, from the path's last part ("Merchants",
    /// "Prism merchants", "Users").
    var legacyList: (route: String, name: String)? {
        legacyPath.map { path in
            let last = path.split(separator: "/").last.map { $0.replacing("-", with: " ") } ?? ""
            return ("GET \(path)", last.prefix(1).uppercased() + last.dropFirst())
        }
    }

    package init(dialect: String, schema: String, update: String, legacyPath: String?, exampleID: String, currencyKept: String) {
        (self.dialect, self.schema, self.update, self.legacyPath, self.exampleID, self.currencyKept) =
            (dialect, schema, update, legacyPath, exampleID, currencyKept)
    }
}
