import SandboxContract
import SandboxSupport

// PayoutService's calls over Connect JSON, in an order a Collection Runner run passes on a fresh
// sandbox or a used one (each payout gets a fresh merchantPayoutId from its request's script):
// Create, the same Create again, Get, Void; Stage, Transfer, the clock advanced to the payout's
// SUCCESS, a Void it refuses; CreateLink and its page; a decline inside an OK answer and the
// errors; last CreateRecipient, EnrollDisburseAccount and a Create to the enrolled method.
// Bodies are PrismExample's, messages PrismMessage's.

extension PostmanCollection {
    /// The default merchant's metadata, from the collection variables.
    private static let prismMetadata = [(key: PrismCaller.Header.connector, value: "sandbox"), (key: PrismCaller.Header.auth, value: "header-key"),
                                        (key: PrismCaller.Header.apiKey, value: "{{prismApiKey}}"),
                                        (key: PrismCaller.Header.merchantID, value: "{{prismMerchantId}}")]

    /// A call of `method` (`POST /types.PayoutService/<Method>`) with `body` and the default merchant's metadata (or `headers`).
    private static func prism(_ name: String, _ method: APIOperation, _ body: JSON, headers: [(key: String, value: String)] = prismMetadata,
                              expect: Int = 200, description: String? = nil, tests: [String] = [], prerequest: [String] = []) -> Item {
        Item(name, method.route, body: body.serializedPretty(), headers: headers, expect: expect, description: description,
             tests: tests, prerequest: prerequest)
    }

    /// `prism(_:_:_:...)` named by the method's name.
    private static func prism(_ method: APIOperation, _ body: JSON, headers: [(key: String, value: String)] = prismMetadata, expect: Int = 200,
                              description: String? = nil, tests: [String] = [], prerequest: [String] = []) -> Item {
        prism(method.grpcMethod ?? method.id, method, body, headers: headers, expect: expect, description: description, tests: tests,
              prerequest: prerequest)
    }

    /// A request script giving the collection variable `variable` a new merchant payout id.
    private static func fresh(_ variable: String) -> [String] {
        ["pm.collectionVariables.set('\(variable)', 'postman-' + Date.now() + '-' + Math.floor(Math.random() * 1e6));"]
    }

    /// Test lines of an OK answer in `status`, saving `connectorPayoutId` in `variable` when given.
    private static func answered(_ status: String, saving variable: String? = nil) -> [String] {
        [expect("payoutStatus", javaScript(status)), expect("statusCode", "200")] + (variable.map { [save("connectorPayoutId", as: $0)] } ?? [])
    }

    /// Test lines of a Connect error.
    private static func refused(_ code: String, _ message: String) -> [String] {
        [expect("code", javaScript(code)), expect("message", javaScript(message))]
    }

    /// Test line: `connectorPayoutId` is the one saved in `variable`.
    private static func same(_ variable: String) -> String {
        expect("connectorPayoutId", "pm.collectionVariables.get('\(variable)')")
    }

    static var prismRequests: [Item] {
        var noAmount = PrismExample.create().objectValue ?? [:]
        noAmount["amount"] = nil
        noAmount["merchantPayoutId"] = nil  // a payout id it has already would be answered before the amount is read
        return [
            prism(PrismOperation.create, PrismExample.create("{{prismPayoutRef}}", holder: PrismExample.pendingHolder,
                                                          webhookURL: "{{baseUrl}}/sandbox/sink/postman"),
                  headers: prismMetadata + [(key: PrismCaller.Header.requestID, value: "postman-create")],
                  description: "USD 10.00 to a card held by \(PrismExample.pendingHolder): a name starting NEVER (a magic value) keeps it "
                      + "PENDING, so the Get and Void below work however long you take; any other name is INITIATED after 5 s and "
                      + "SUCCESS 10 s later, and can no longer be voided. Saves connectorPayoutId as prismPayoutId.",
                  tests: answered("PENDING", saving: "prismPayoutId") + [
                      expect("merchantPayoutId", "pm.collectionVariables.get('prismPayoutRef')"),
                      "pm.test('x-request-id is echoed', function () { "
                          + "pm.expect(pm.response.headers.get('x-request-id')).to.eql('postman-create'); });",
                  ], prerequest: fresh("prismPayoutRef")),
            prism("Create again (same merchantPayoutId)", PrismOperation.create,
                  PrismExample.create("{{prismPayoutRef}}", holder: PrismExample.pendingHolder),
                  description: "Idempotent: the first payout as it stands, no second debit.",
                  tests: answered("PENDING") + [same("prismPayoutId")]),
            prism(PrismOperation.get, PrismExample.payout("{{prismPayoutId}}"), tests: answered("PENDING") + [same("prismPayoutId")]),
            prism(PrismOperation.void, PrismExample.payout("{{prismPayoutId}}"),
                  description: "Before it is sent (PENDING): CANCELLED, refunded.",
                  tests: answered("CANCELLED")),
            prism("Get by merchant_payout_id (proto names)", PrismOperation.get, ["merchant_payout_id": "{{prismPayoutRef}}"],
                  description: "Requests may name fields as the .proto does; answers use lowerCamelCase.",
                  tests: answered("CANCELLED") + [same("prismPayoutId")]),

            prism(PrismOperation.stage, PrismExample.stage("{{prismQuoteRef}}"),
                  description: "No debit: REQUIRES_FULFILLMENT until Transfer.",
                  tests: answered("REQUIRES_FULFILLMENT", saving: "prismStagedId"), prerequest: fresh("prismQuoteRef")),
            prism(PrismOperation.transfer, PrismExample.payout("{{prismStagedId}}"),
                  description: "Debits it: PENDING, then the bank's timeline.",
                  tests: answered("PENDING") + [same("prismStagedId")]),
            Item("Advance the clock by 15 s", AdminRoute.advanceClock, body: body(["by": "15s"]), expect: 200,
                 description: "INITIATED after 5 s, SUCCESS 10 s later."),
            prism("Get the transferred payout", PrismOperation.get, PrismExample.payout("{{prismStagedId}}"), tests: answered("SUCCESS")),
            prism("Void after SUCCESS (400 failed_precondition)", PrismOperation.void, PrismExample.payout("{{prismStagedId}}"), expect: 400,
                  tests: refused("failed_precondition", PrismMessage.forbidden("void", status: "SUCCESS"))),

            prism(PrismOperation.createLink, PrismExample.createLink("{{prismLinkRef}}"),
                  description: "No debit: REQUIRES_PAYOUT_METHOD_DATA. The header x-payout-link is the recipient's page.",
                  tests: answered("REQUIRES_PAYOUT_METHOD_DATA") + [
                      "pm.test('x-payout-link is a page of the sandbox', function () { "
                          + "pm.expect(pm.response.headers.get('x-payout-link')).to.include('\(PrismLinks.path)'); });",
                      "pm.collectionVariables.set('prismLinkToken', pm.response.headers.get('x-payout-link').split('\(PrismLinks.path)')[1]);",
                  ], prerequest: fresh("prismLinkRef")),
            Item("Open the payout link", "GET", PrismLinks.path + "{{prismLinkToken}}", expect: 200,
                 description: "The recipient's form; sending it executes the payout.",
                 tests: ["pm.test('the form', function () { pm.expect(pm.response.text()).to.include('Receive your payout'); });"]),

            prism("Create declined (inside a 200)", PrismOperation.create, PrismExample.create("{{prismDeclineRef}}", holder: "DECLINE Ana"),
                  description: "A recipient named DECLINE...: the connector's decline is an OK answer with FAILED, error and statusCode 400.",
                  tests: [expect("payoutStatus", "'FAILED'"), expect("statusCode", "400"), expect("error.connectorDetails.code", "'card_declined'")],
                  prerequest: fresh("prismDeclineRef")),
            prism("Get an unknown payout (404 not_found)", PrismOperation.get, PrismExample.payout("999999999"), expect: 404,
                  tests: refused("not_found", PrismMessage.payoutNotFound("999999999"))),
            prism("Create to a method never enrolled (404 not_found)", PrismOperation.create,
                  PrismExample.create("order-unknown-method", methodID: "pm_999999"),
                  expect: 404, tests: refused("not_found", PrismMessage.payoutMethodNotFound("pm_999999"))),
            prism("Create without amount (400 invalid_argument)", PrismOperation.create, .object(noAmount), expect: 400,
                  tests: refused("invalid_argument", PrismMessage.missing("amount"))),
            prism("Wrong API key (401 unauthenticated)", PrismOperation.get, PrismExample.payout("{{prismPayoutId}}"),
                  headers: prismMetadata.map { $0.key == PrismCaller.Header.apiKey ? (key: $0.key, value: "not-the-key") : $0 }, expect: 401,
                  tests: refused("unauthenticated", PrismMessage.invalidCredentials)),

            prism(PrismOperation.createRecipient, PrismExample.createRecipient("{{prismRecipientRef}}"),
                  description: "The recipient's id (rcp_...) is saved as prismRecipientId.",
                  tests: answered("REQUIRES_VENDOR_ACCOUNT_CREATION", saving: "prismRecipientId") + [
                      "pm.test('a recipient id', function () { pm.expect(pm.response.json().connectorPayoutId).to.include('rcp_'); });",
                  ], prerequest: fresh("prismRecipientRef")),
            prism(PrismOperation.enrollDisburseAccount,
                  PrismExample.enrollDisburseAccount(recipientID: "{{prismRecipientId}}"),
                  description: "The method's id (pm_...) is saved as prismMethodId.",
                  tests: answered("REQUIRES_CREATION", saving: "prismMethodId") + [
                      "pm.test('a method id', function () { pm.expect(pm.response.json().connectorPayoutId).to.include('pm_'); });",
                  ]),
            prism("Create to the enrolled method", PrismOperation.create, PrismExample.create("{{prismEnrolledRef}}", methodID: "{{prismMethodId}}"),
                  tests: answered("PENDING"), prerequest: fresh("prismEnrolledRef")),
        ]
    }
}
