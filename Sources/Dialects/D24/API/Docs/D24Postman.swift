import SandboxContract
import SandboxSupport

// The merchant's D24 calls and their refusals. Codes and messages are the sandbox's own
// (Sources/Dialects/D24/API/D24Error.swift), HTTP statuses those of the D24 guide, "Codes": 401 for credentials and
// signature, 400 for malformed JSON and KYC, 412 for the rest.

extension PostmanCollection {
    /// A Brazilian cashout of BRL 100.00 whose notifications go to the sandbox's sink `postman`,
    /// with the external id in `variable` (by default a fresh one: see `signatureScript`).
    static func createBody(externalID variable: String = "newExternalId", amount: String = "100.00",
                           beneficiaryName: String = D24Example.value("beneficiary_name")) -> String {
        let given: [String: String] = ["amount": amount, "beneficiary_name": beneficiaryName]
        return body([("login", "{{apiKey}}"), ("pass", "{{apiPassphrase}}"), ("external_id", .string("{{\(variable)}}"))]
            + D24Example.createFields.map { ($0.name, .string(given[$0.name] ?? $0.value)) }
            + [("notification_url", "{{baseUrl}}/sandbox/sink/postman")])
    }

    /// The magic `beneficiary_name` of the default bank (`scenarios/default.json`) that leaves a
    /// cashout PENDING: the cashouts the collection holds, cancels or forces, which on the default
    /// timeline could no longer be held 5 s after their creation, when a person is still reading.
    static let pendingName = "NEVER"

    /// `POST /v3/cashout` with a fresh external id, saving the answer's id in `cashoutID` and the
    /// external id in `externalID` (when given).
    static func create(_ name: String, externalID: String? = nil, cashoutID: String, beneficiaryName: String,
                       description: String? = nil) -> Item {
        Item(name, OpenAPIDocument.createCashout, body: createBody(beneficiaryName: beneficiaryName), expect: 200, description: description,
             tests: ["pm.test('cashout_id is a string', function () { pm.expect(typeof pm.response.json().cashout_id).to.eql('string'); });",
                     save("cashout_id", as: cashoutID)]
                + (externalID.map { ["pm.collectionVariables.set('\($0)', pm.collectionVariables.get('newExternalId'));"] } ?? []))
    }

    static func statusBody(_ status: String) -> String {
        body(["login": "{{apiKey}}", "pass": "{{apiPassphrase}}", "cashout_id": .literal("{{cashoutId}}"), "status": .string(status)])
    }

    static var d24Requests: [Item] {
        [
            create("Create cashout", externalID: "externalId", cashoutID: "cashoutId", beneficiaryName: pendingName,
                   description: "POST /v3/cashout: answers {\"cashout_id\":\"1000001\"}. The collection's script picks a new external_id. "
                       + "The beneficiary_name \(pendingName) is a magic value that keeps the cashout PENDING, so the hold, release and "
                       + "cancel below work however long you take; any other name is DELIVERED after 5 s (then it can no longer be held "
                       + "or cancelled: 510) and COMPLETED 10 s later."),
            Item("Cashout status (by cashout_id)", OpenAPIDocument.getCashoutStatus,
                 body: body(["login": "{{apiKey}}", "pass": "{{apiPassphrase}}", "cashout_id": .literal("{{cashoutId}}")]), expect: 200,
                 description: "0 Pending, 1 Completed, 2 Canceled, 3 Rejected, 4 Delivered, 5 On Hold.",
                 tests: ["pm.test('cashout_status is a number', function () { "
                             + "pm.expect(typeof pm.response.json().cashout_status).to.eql('number'); });"]),
            Item("Cashout status (by external_id)", OpenAPIDocument.getCashoutStatus,
                 body: body(["login": "{{apiKey}}", "pass": "{{apiPassphrase}}", "external_id": "{{externalId}}"]), expect: 200),
            Item("Put cashout on hold", OpenAPIDocument.updateCashoutStatus, body: statusBody("ON_HOLD"), expect: 200,
                 description: "PUT /v3/cashout/status: PENDING -> ON_HOLD. Holding stops the bank's timeline.",
                 tests: [expect("cashout_status", "5"), expect("cashout_status_description", "'On Hold'")]),
            Item("Release cashout (back to PENDING)", OpenAPIDocument.updateCashoutStatus, body: statusBody("PENDING"), expect: 200,
                 tests: [expect("cashout_status", "0")]),
            Item("Cancel cashout", OpenAPIDocument.cancelCashout,
                 body: body(["login": "{{apiKey}}", "pass": "{{apiPassphrase}}", "cashout_id": .literal("{{cashoutId}}"),
                             "external_id": "{{externalId}}"]), expect: 200,
                 description: "DELETE /v3/cashout/cancel: both ids; from PENDING or ON_HOLD only.",
                 tests: [expect("cashout_status", "2"), expect("cashout_status_description", "'Canceled'")]),
            Item("Bank codes", OpenAPIDocument.listBanks, query: "country=BR", headers: [("Authorization", "Bearer {{readOnlyKey}}")], expect: 200,
                 description: "The read-only endpoints take the merchant's read-only key as a Bearer token.",
                 tests: ["pm.test('a list of banks', function () { pm.expect(Array.isArray(pm.response.json())).to.eql(true); });"]),
            Item("Exchange rate", OpenAPIDocument.getExchangeRate, query: "country=BR&amount=10",
                 headers: [("Authorization", "Bearer {{readOnlyKey}}")],
                 expect: 200, tests: [expect("currency", "'BRL'")]),
            Item("Merchants (admin API)", D24Merchant.kind.legacyOperations!.list, expect: 200,
                 description: "The D24 merchants with their credentials and balances; PUT /sandbox/merchants/{login} creates or updates one."),
        ]
    }

    /// The tests of a request refused with `error`: its code and message (in single quotes: no message has one).
    private static func refused(_ error: D24Error) -> [String] {
        [expect("code", String(error.code)), expect("message", "'\(error.message)'")]
    }

    static var errorRequests: [Item] {
        let status = body(["login": "{{apiKey}}", "pass": "{{apiPassphrase}}", "cashout_id": .literal("{{cashoutId}}")])
        return [
            Item("Bad signature (302)", OpenAPIDocument.getCashoutStatus, body: status, expect: 401,
                 description: "This request's own pre-request script replaces the signature the collection's script computed.",
                 tests: refused(D24Error.invalidSignature),
                 prerequest: ["pm.request.headers.upsert({ key: 'Payload-Signature', value: '0'.repeat(64) });"]),
            Item("Bad credentials (401)", OpenAPIDocument.getCashoutStatus,
                 body: body(["login": "{{apiKey}}", "pass": "not-the-passphrase", "cashout_id": .literal("{{cashoutId}}")]), expect: 401,
                 tests: refused(D24Error.invalidCredentials)),
            Item("Malformed JSON (502)", OpenAPIDocument.createCashout, body: "{\"login\": \"{{apiKey}}\",", expect: 400,
                 tests: [expect("code", String(D24Error.malformedBody.code))]),
            Item("Invalid field (300)", OpenAPIDocument.createCashout,
                 body: createBody(externalID: "externalId", amount: "ten"), expect: 412,
                 description: "The first bad field in the documented order: `<field>: Invalid or missing <Field>`.",
                 tests: refused(D24Error.invalidParam("amount", "Amount"))),
            Item("Duplicate external_id (511)", OpenAPIDocument.createCashout, body: createBody(externalID: "externalId"), expect: 412,
                 description: "The external_id of \"Create cashout\" again.",
                 tests: refused(D24Error.duplicateExternalID)),
            Item("Cashout not found (509)", OpenAPIDocument.getCashoutStatus,
                 body: body(["login": "{{apiKey}}", "pass": "{{apiPassphrase}}", "cashout_id": .literal("999999999")]), expect: 412,
                 tests: refused(D24Error.notFound)),
            Item("Invalid status transition (510)", OpenAPIDocument.updateCashoutStatus, body: statusBody("ON_HOLD"), expect: 412,
                 description: "The cashout of \"Create cashout\" was canceled: it cannot be put on hold.",
                 tests: refused(D24Error.invalidTransition)),
            Item("Unsupported status (521)", OpenAPIDocument.updateCashoutStatus, body: statusBody("PAID"), expect: 412,
                 tests: refused(D24Error.statusNotSupported("PAID"))),
            Item("Cancel without cashout_id (300)", OpenAPIDocument.cancelCashout,
                 body: body(["login": "{{apiKey}}", "pass": "{{apiPassphrase}}", "external_id": "{{externalId}}"]), expect: 412,
                 tests: refused(D24Error.invalidParam("cashoutId", "Cashout ID"))),
            Item("KYC decline (504)", OpenAPIDocument.createCashout, body: createBody(beneficiaryName: "KYC 105"),
                 expect: 400, description: "The magic beneficiary_name `KYC 105` declines the cashout at creation.",
                 tests: [expect("code", "504"), expect("reason_code", "105")]),
            Item("Bad read-only key (100)", OpenAPIDocument.listBanks, query: "country=BR", headers: [("Authorization", "Bearer not-a-key")],
                 expect: 401,
                 tests: [expect("code", "100"), expect("description", "'Invalid credentials'")]),
            Item("Unknown country (empty 400)", OpenAPIDocument.listBanks, query: "country=ZZ",
                 headers: [("Authorization", "Bearer {{readOnlyKey}}")],
                 expect: 400),
        ]
    }
}
