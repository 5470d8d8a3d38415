import SandboxContract
import SandboxSupport

// A Mannco user's calls and their refusals, in an order a Collection Runner run passes on a fresh
// sandbox with a manual clock: one cashout only (a second within 24 h is refused), made once
// Payoneer is linked and before it is unlinked; the refusals that need a cashout in flight or
// Payoneer unlinked come after both. Messages are ManncoMessage's, the cashout ManncoExample's.

extension PostmanCollection {
    /// The JWT "Login" saved, as every protected Mannco request sends it.
    private static let manncoAuthorization = [(key: "Authorization", value: "Bearer {{manncoJwt}}")]

    /// A Mannco request with the user's token.
    private static func mannco(_ name: String, _ endpoint: Endpoint<ManncoAPI>, query: String? = nil, body: String? = nil, expect: Int = 200,
                               description: String? = nil, tests: [String] = []) -> Item {
        Item(name, endpoint, query: query, body: body, headers: manncoAuthorization, expect: expect, description: description, tests: tests)
    }

    /// A test line accepting any status of a cashout on its way, whatever the clock: sent at human
    /// speed on a real clock, a cashout is processing 5 s after it was requested and completed 10 s later.
    private static func inFlight(_ member: String) -> String {
        "pm.test('\(member) is pending, processing or completed', function () { "
            + "pm.expect(['pending', 'processing', 'completed']).to.include(pm.response.json().\(member)); });"
    }

    /// A test line checking `content` of the envelope, for a refusal: `{"err":true,"success":false,"content":message}`.
    private static func manncoRefusal(_ message: String) -> [String] {
        [expect("err", "true"), expect("content", javaScript(message))]
    }

    /// A `POST /cashout/process` body: the example of Mannco.store's API docs ("Cashout") unless told otherwise.
    private static func cashoutBody(amount: Int64 = ManncoExample.amount, method: String = ManncoExample.method.rawValue,
                            email: String = ManncoExample.email) -> String {
        body([("amount", .literal(String(amount))), ("method", .string(method)), ("email", .string(email))])
    }

    static var manncoRequests: [Item] {
        let fee = ManncoExample.method.fee(ManncoExample.amount)
        return [
            Item("Login", OpenAPIDocument.manncoLogin, body: body(["apiKey": "{{manncoApiKey}}"]), expect: 200,
                 description: "POST /user/login {\"apiKey\"} (JSON or a form): content.jwt, saved as manncoJwt for the requests after it.",
                 tests: [expect("success", "true"), save("content.jwt", as: "manncoJwt")]),
            mannco("Balance", OpenAPIDocument.manncoBalance, description: "In cents.",
                   tests: [expect("content.balance", String(ManncoDocs.user.balanceCents))]),
            mannco("Link Payoneer", OpenAPIDocument.manncoLinkMethod, body: body(["provider": "payoneer"]),
                   description: "Answers content.link, a page of this sandbox: opening it links Payoneer.",
                   tests: [expect("content.message", javaScript(ManncoMessage.linkCreated)), expect("content.method", "'link'"),
                           "pm.collectionVariables.set('manncoLinkToken', pm.response.json().content.link.split('/cashout/link/')[1]);"]),
            Item("Open the Payoneer link", OpenAPIDocument.manncoOpenLink, parameters: ["token": "{{manncoLinkToken}}"], expect: 200,
                 description: "What the user's browser does with content.link: no token needed.",
                 tests: ["pm.test('Payoneer linked', function () { pm.expect(pm.response.text()).to.include('Payoneer linked'); });"]),
            mannco("Link Tipalti", OpenAPIDocument.manncoLinkMethod, body: body([
                ("provider", "tipalti"), ("payeeType", "Individual"), ("firstName", "Ana"), ("lastName", "Silva"),
                ("email", .string(ManncoDocs.user.email)),
                ("address", .literal(#"{"address1": "1 Main St", "city": "Springfield", "postalCode": "12345", "country": "US"}"#)),
            ]), description: "Tipalti links at once from its payee fields; the default user has it linked already.",
                   tests: [expect("content.message", javaScript(ManncoMessage.tipaltiCreated)), expect("content.alreadyExists", "true")]),
            mannco("Process cashout", OpenAPIDocument.manncoProcessCashout, body: cashoutBody(),
                   description: "Document 002's example: $1,000.00 to Payoneer, 2 % fee. Saves content.cashoutId as manncoCashoutId.",
                   tests: [expect("content.status", "'pending'"), expect("content.fee", String(fee)),
                           expect("content.netAmount", String(ManncoExample.amount - fee)),
                           expect("content.message", javaScript(ManncoMessage.submitted)), save("content.cashoutId", as: "manncoCashoutId")]),
            mannco("Cashout history", OpenAPIDocument.manncoCashoutHistory, query: "page=1&perpage=20",
                   description: "Newest first; perpage at most 50.",
                   tests: [expect("content.total", "1"), inFlight("content.cashouts[0].status"),
                           expect("content.cashouts[0].id", "Number(pm.collectionVariables.get('manncoCashoutId'))")]),
            mannco("Unlink Payoneer", OpenAPIDocument.manncoUnlinkMethod, body: body(["provider": "payoneer"]),
                   description: "Only Payoneer can be unlinked.", tests: [expect("content.message", javaScript(ManncoMessage.payoneerUnlinked))]),
            Item("Users (admin API)", ManncoUser.kind.legacyOperations!.list, expect: 200,
                 description: "The Mannco users; PUT /sandbox/users/{id} creates or updates one.",
                 tests: [expect("users[0].linked", "['tipalti']")]),
            Item("Emails (admin API)", OpenAPIDocument.manncoEmails, query: "user={{manncoUserId}}", expect: 200,
                 description: "One email per status a cashout enters: pending first, then one per stage it has reached.",
                 tests: [expect("emails[0].status", "'pending'"),
                         expect("emails[0].to", javaScript(ManncoExample.email))]),
        ]
    }

    static var manncoErrorRequests: [Item] {
        [
            Item("Login without apiKey (300)", OpenAPIDocument.manncoLogin, body: "{}", expect: 300,
                 tests: manncoRefusal(ManncoMessage.missing("apiKey"))),
            Item("Invalid API key (403)", OpenAPIDocument.manncoLogin, body: body(["apiKey": "not-a-key"]), expect: 403,
                 tests: manncoRefusal(ManncoMessage.invalidAPIKey)),
            Item("No token (403)", OpenAPIDocument.manncoBalance, expect: 403, tests: manncoRefusal(ManncoMessage.forbidden)),
            Item("Bad token (403)", OpenAPIDocument.manncoBalance, headers: [("Authorization", "Bearer not.a.jwt")], expect: 403,
                 tests: manncoRefusal(ManncoMessage.forbidden)),
            mannco("Amount below minimum (300)", OpenAPIDocument.manncoProcessCashout, body: cashoutBody(amount: 4999), expect: 300,
                   description: "The minimum is 5000 cents ($50).", tests: manncoRefusal(ManncoMessage.belowMinimum)),
            mannco("Invalid payment method (300)", OpenAPIDocument.manncoProcessCashout, body: cashoutBody(method: "paypal"), expect: 300,
                   description: "PayPal can be linked but not cashed out to.", tests: manncoRefusal(ManncoMessage.invalidMethod)),
            mannco("Payment method not linked (300)", OpenAPIDocument.manncoProcessCashout, body: cashoutBody(), expect: 300,
                   description: "\"Unlink Payoneer\" unlinked it.", tests: manncoRefusal(ManncoMessage.methodNotLinked)),
            mannco("Pending cashout exists (300)", OpenAPIDocument.manncoProcessCashout, body: cashoutBody(method: "tipalti"), expect: 300,
                   description: "The cashout of \"Process cashout\" is still pending (or processing). Sent more than 15 s after it "
                       + "on a real clock, it has completed, and the answer is the cooldown's.",
                   tests: [expect("err", "true"), "pm.test('content is the pending or the cooldown refusal', function () { "
                       + "pm.expect([\(javaScript(ManncoMessage.pendingExists)), \(javaScript(ManncoMessage.cooldown))])"
                       + ".to.include(pm.response.json().content); });"]),
            mannco("Invalid perpage (300)", OpenAPIDocument.manncoCashoutHistory, query: "perpage=0", expect: 300,
                   tests: manncoRefusal(ManncoMessage.invalidPerpage)),
            mannco("Unlink what is not linked (300)", OpenAPIDocument.manncoUnlinkMethod, body: body(["provider": "payoneer"]), expect: 300,
                   tests: manncoRefusal(ManncoMessage.unlinkFailed)),
            Item("Advance the clock by 1 minute", AdminRoute.advanceClock, body: body(["by": "1m"]), expect: 200,
                 description: "The cashout is processing 5 s after its creation and completed 10 s later."),
            mannco("Cooldown period (300)", OpenAPIDocument.manncoProcessCashout, body: cashoutBody(method: "tipalti"), expect: 300,
                   description: "Nothing is pending any more, but the last request was less than 24 h ago.",
                   tests: manncoRefusal(ManncoMessage.cooldown)),
        ]
    }
}
