import SandboxJSON

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

    /// Its operations for `apis` (those that declare accounts).
    static func endpoints(_ apis: [APIDocsFragment]) -> [OpenAPIEndpoint] {
        let declared = apis.compactMap(\.accounts)
        guard let first = declared.first else { return [] }
        let names = declared.map(\.dialect)
        let dialect = OpenAPI.path("dialect", Schema.oneOf(names), "The API: \(names.joined(separator: ", "))")
        let id = OpenAPI.path("id", Schema.string(example: first.exampleID), "The account's id in its API (D24: the merchant's login)")
        let account: JSON = ["oneOf": .array(declared.map { Schema.ref($0.schema) })]
        let update: JSON = ["oneOf": .array(declared.map { Schema.ref($0.update) })]
        let unknown = unknownAPI("paypal", served: names)
        return [
            OpenAPIEndpoint(route: "GET /sandbox/accounts", operation: OpenAPI.operation(
                "listAccounts", tag: "Sandbox", summary: "Every API's accounts",
                description: "By API (\(names.joined(separator: ", "))), each account as its API's own path shows it.",
                responses: ["200": OpenAPI.json("The accounts by API", Schema.object([
                    "accounts": Schema.object(Dictionary(uniqueKeysWithValues: names.map { ($0, Schema.array(of: account)) }), required: names),
                ], required: ["accounts"]))])),
            OpenAPIEndpoint(route: "GET /sandbox/accounts/{dialect}", operation: OpenAPI.operation(
                "listAccountsOfAPI", tag: "Sandbox", summary: "One API's accounts", description: "In the order they were created.",
                parameters: [dialect],
                responses: ["200": OpenAPI.json("Its accounts", Schema.object(["accounts": Schema.array(of: account)], required: ["accounts"])),
                            "404": OpenAPI.error(404, unknown)])),
            OpenAPIEndpoint(route: "GET /sandbox/accounts/{dialect}/{id}", operation: OpenAPI.operation(
                "getAccount", tag: "Sandbox", summary: "One account", description: "As its API's own path shows it.",
                parameters: [dialect, id],
                responses: ["200": OpenAPI.json("The account", account),
                            "404": OpenAPI.error(404, unknown, noAccount(first.dialect, "nobody"))])),
            OpenAPIEndpoint(route: "PUT /sandbox/accounts/{dialect}/{id}", operation: OpenAPI.operation(
                "putAccount", tag: "Sandbox", summary: "Create or update an account",
                description: "Creates the account, or changes the members given, as its API's own path does ("
                    + declared.compactMap(\.legacyPath).map { "`PUT \($0)/{id}`" }.joined(separator: ", ") + "), with the same answers.",
                parameters: [dialect, id], body: OpenAPI.body(update),
                responses: [
                    "200": OpenAPI.json("Updated", account), "201": OpenAPI.json("Created", account),
                    "400": OpenAPI.error(400, AdminMessage.notAnObject, "colour: unknown field"),
                    "404": OpenAPI.error(404, unknown),
                    "409": OpenAPI.errors(declared.map(\.currencyKept).joined(separator: "; "),
                                          declared.map { OpenAPI.failure(409, $0.currencyKept) }),
                ])),
        ]
    }
}

/// One API's accounts as `AccountsResource` documents them: its name in the path, the schemas of
/// an account and of a `PUT`'s body, its older path, an example id, and the 409 of a currency change.
package struct AccountsDocs: Sendable {
    package var dialect: String
    package var schema: String
    package var update: String
    package var legacyPath: String?
    package var exampleID: String
    package var currencyKept: String

    package init(dialect: String, schema: String, update: String, legacyPath: String?, exampleID: String, currencyKept: String) {
        (self.dialect, self.schema, self.update, self.legacyPath, self.exampleID, self.currencyKept) =
            (dialect, schema, update, legacyPath, exampleID, currencyKept)
    }
}
