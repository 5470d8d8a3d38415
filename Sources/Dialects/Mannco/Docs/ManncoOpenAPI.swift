import SandboxContract
import SandboxBank
import SandboxSupport
import SandboxWire

// The Mannco endpoints as ManncoAPI and ManncoLinks serve them. Every answer is the envelope
// `{"err","success","content"}` (ManncoResponse): HTTP 200 with the content, HTTP 300 for a
// business error and 403 for credentials, both with the message as `content` (ManncoError). The
// messages are ManncoMessage's, the example cashout ManncoExample's, and the answers' examples
// are what a fresh sandbox answers at 2026-01-05T09:00:00Z (OpenAPIDocumentTests checks them).

extension OpenAPIDocument {
    /// Its endpoints, each declared once: route, description and handler (the router serves
    /// them in this order, the email outbox last).
    static var manncoEndpoints: [Endpoint<ManncoAPI>] {
        [manncoLogin, manncoProcessCashout, manncoCashoutHistory, manncoBalance] + manncoLinkEndpoints + [manncoEmails]
    }

    static var manncoLogin: Endpoint<ManncoAPI> {
        Endpoint<ManncoAPI>(ManncoOperation.login, OpenAPI.operation(
            tag: "Mannco", summary: "Log in with an API key",
            description: "`content.jwt` is the token every other Mannco route takes as `Authorization: Bearer <jwt>`.",
            body: [
                "required": true,
                "content": [
                    "application/json": ["schema": Schema.ref("ManncoLoginRequest"),
                                         "examples": ["default user": ["value": ["apiKey": .string(ManncoDocs.user.apiKey)]]]],
                    "application/x-www-form-urlencoded": ["schema": Schema.ref("ManncoLoginRequest")],
                ],
            ],
            responses: [
                "200": OpenAPI.json("The token", envelope(Schema.object(["jwt": Schema.string("An HS256 JWT")], required: ["jwt"])),
                                    example: success(["jwt": .string(ManncoToken.issue(user: ManncoDocs.user.id, at: exampleTime))])),
                "300": refusals("No `apiKey`", [ManncoMessage.missing("apiKey")]),
                "403": refusals("An API key no user has", [ManncoMessage.invalidAPIKey]),
            ])) { api, request in api.answer { () throws(ManncoError) in try api.login(request) } }
    }

    static var manncoProcessCashout: Endpoint<ManncoAPI> {
        Endpoint<ManncoAPI>(ManncoOperation.process, OpenAPI.operation(
            tag: "Mannco", summary: "Request a cashout",
            description: """
                Debits `amount` cents from the balance; the provider pays `netAmount` (`amount` less the fee: Payoneer \
                2 %, Tipalti 1.5 %, rounded half away from zero). Checks in this order, the first failure answered: \
                the input, the $50 minimum, verification, the method linked, one cashout pending or processing, 24 h \
                (virtual clock) since the last accepted request, the balance. Then `pending`, `processing` after 5 s and \
                `completed` 10 s later, each emailed (GET /sandbox/emails). A payout email starting `fail@`, \
                `late-fail@`, `stuck@`, `never@` or `slow@` picks another outcome; `decline@` is refused (300).
                """,
            body: OpenAPI.body(Schema.ref("ManncoCashoutRequest"), examples: ["document 002": [
                "amount": whole(ManncoExample.amount), "method": .string(ManncoExample.method.rawValue), "email": .string(ManncoExample.email),
            ]]),
            security: ["ManncoJWT"],
            responses: [
                "200": OpenAPI.json("Submitted", envelope(Schema.ref("ManncoCashout")), example: success(cashoutExample)),
                "300": refusals("Bad input, or a business rule refused it", [
                    ManncoMessage.missing("amount"), ManncoMessage.missing("method"), ManncoMessage.invalidAmount,
                    ManncoMessage.invalidMethod, ManncoMessage.invalidEmail, ManncoMessage.belowMinimum,
                    ManncoMessage.verificationRequired, ManncoMessage.methodNotLinked, ManncoMessage.pendingExists,
                    ManncoMessage.cooldown, ManncoMessage.insufficientBalance,
                ]),
                "403": forbidden,
            ])) { api, request in api.answer { () throws(ManncoError) in try api.process(request, user: try api.user(request)) } }
    }

    static var manncoCashoutHistory: Endpoint<ManncoAPI> {
        Endpoint<ManncoAPI>(ManncoOperation.history, OpenAPI.operation(
            tag: "Mannco", summary: "The user's cashouts",
            description: "Newest first, `perpage` a page (20 by default, at most 50), pages from 1.",
            parameters: [
                OpenAPI.query("page", pageNumber(example: 1), "The page, from 1 (default 1)"),
                OpenAPI.query("perpage", pageNumber(example: 20), "Cashouts a page (default 20; above 50 counts as 50)"),
                OpenAPI.query("count", pageNumber(example: 20), "`perpage`, when that is absent"),
                OpenAPI.query("limit", pageNumber(example: 20), "`perpage`, when that and `count` are absent"),
            ],
            security: ["ManncoJWT"],
            responses: [
                "200": OpenAPI.json("A page of cashouts", envelope(Schema.ref("ManncoHistory")), example: success([
                    "cashouts": [["id": 1_000_001, "amount": whole(ManncoExample.amount), "method": .string(ManncoExample.method.rawValue),
                                  "status": "pending", "requestedAt": whole(exampleTime.unixSeconds), "completedAt": nil,
                                  "estimatedCompletionAt": whole(exampleCompletion), "transactionId": nil]],
                    "total": 1, "page": 1, "perpage": 20, "totalCashedOut": 0,
                ])),
                "300": refusals("`page` or the page size is not a whole number of at least 1",
                                [ManncoMessage.invalidPage, ManncoMessage.invalidPerpage]),
                "403": forbidden,
            ])) { api, request in api.answer { () throws(ManncoError) in try api.history(request, user: try api.user(request)) } }
    }

    static var manncoBalance: Endpoint<ManncoAPI> {
        Endpoint<ManncoAPI>(ManncoOperation.balance, OpenAPI.operation(
            tag: "Mannco", summary: "The user's balance", description: "In cents.", security: ["ManncoJWT"],
            responses: [
                "200": OpenAPI.json("The balance", envelope(Schema.object(["balance": cents("The balance")], required: ["balance"])),
                                    example: success(["balance": whole(ManncoDocs.user.balanceCents)])),
                "403": forbidden,
            ])) { api, request in api.answer { () throws(ManncoError) in try api.balance(request) } }
    }

    /// `POST /cashout/link`, `POST /cashout/unlink` and the link page.
    private static var manncoLinkEndpoints: [Endpoint<ManncoAPI>] {
        [manncoLinkMethod, manncoUnlinkMethod, manncoOpenLink]
    }

    static var manncoLinkMethod: Endpoint<ManncoAPI> {
        Endpoint<ManncoAPI>(ManncoOperation.link, OpenAPI.operation(
            tag: "Mannco", summary: "Link a payout method",
            description: """
                Payoneer and PayPal answer `link`, a page of this sandbox that links the method when opened \
                (GET /cashout/link/{token}); Tipalti links at once from its payee fields.
                """,
            body: OpenAPI.body(Schema.ref("ManncoLinkRequest"), examples: [
                "payoneer": ["provider": "payoneer"],
                "tipalti": ["provider": "tipalti", "firstName": "Ana", "lastName": "Silva", "email": .string(ManncoDocs.user.email),
                            "address": ["address1": "1 Main St", "city": "Springfield", "postalCode": "12345", "country": "US"]],
            ]),
            security: ["ManncoJWT"],
            responses: [
                "200": OpenAPI.json("A link to open (Payoneer, PayPal), or the Tipalti payee",
                                    envelope(["oneOf": [Schema.ref("ManncoLinkCreated"), Schema.ref("ManncoTipaltiPayee")]]),
                                    example: success(["message": .string(ManncoMessage.linkCreated), "link": .string(linkExample),
                                                      "provider": "payoneer", "method": "link"])),
                "300": refusals("No or an unknown provider, or a missing Tipalti payee field", [
                    ManncoMessage.missing("provider"), ManncoMessage.invalidProvider, ManncoMessage.invalidPayeeType,
                    ManncoMessage.missing("firstName"), ManncoMessage.missing("address.city"),
                ]),
                "403": forbidden,
            ])) { api, request in api.answer { () throws(ManncoError) in try api.links.link(request, user: try api.user(request)) } }
    }

    static var manncoUnlinkMethod: Endpoint<ManncoAPI> {
        Endpoint<ManncoAPI>(ManncoOperation.unlink, OpenAPI.operation(
            tag: "Mannco", summary: "Unlink Payoneer", description: "Only Payoneer can be unlinked.",
            body: OpenAPI.body(Schema.ref("ManncoUnlinkRequest"), examples: ["payoneer": ["provider": "payoneer"]]),
            security: ["ManncoJWT"],
            responses: [
                "200": OpenAPI.json("Unlinked", envelope(Schema.ref("ManncoUnlinked")),
                                    example: success(["message": .string(ManncoMessage.payoneerUnlinked), "provider": "payoneer"])),
                "300": refusals("Not Payoneer, or Payoneer is not linked",
                                [ManncoMessage.missing("provider"), ManncoMessage.invalidProvider, ManncoMessage.unlinkFailed]),
                "403": forbidden,
            ])) { api, request in api.answer { () throws(ManncoError) in try api.links.unlink(request, user: try api.user(request)) } }
    }

    static var manncoOpenLink: Endpoint<ManncoAPI> {
        Endpoint<ManncoAPI>(ManncoOperation.openLink, OpenAPI.operation(
            tag: "Mannco", summary: "Open a Payoneer or PayPal link",
            description: "The page `POST /cashout/link` answered as `link`: opening it links the method. "
                + "No token needed; it works for a day of virtual time.",
            parameters: [OpenAPI.path("token", Schema.string(), "The last segment of `link`")],
            responses: ["200": page("The method is linked"), "404": page("Not a link of this sandbox, or its user is gone"),
                        "410": page("The link expired: it was made more than a day ago")])) { api, request in
            api.links.page(request.parameters["token"] ?? "")
        }
    }

    // MARK: - Parts

    /// When the examples happen: the virtual clock's start in the documents' examples (a Monday).
    private static let exampleTime = VirtualTime(milliseconds: 1_767_603_600_000)  // 2026-01-05T09:00:00Z

    /// When the example cashout, made at `exampleTime`, should be complete (unix seconds).
    private static var exampleCompletion: Int64 { ManncoExample.method.estimatedCompletion(from: exampleTime).unixSeconds }

    /// The default user's Payoneer link, as a sandbox on port 8080 answers it.
    private static var linkExample: String {
        "http://127.0.0.1:8080/cashout/link/" + ManncoToken.linkToken(user: ManncoDocs.user.id, provider: .payoneer, at: exampleTime)
    }

    /// The answer to the example request of Mannco.store's API docs ("Cashout"), named "document 002": the first cashout of a fresh sandbox.
    private static var cashoutExample: JSON {
        let fee = ManncoExample.method.fee(ManncoExample.amount)
        return ["cashoutId": 1_000_001, "amount": whole(ManncoExample.amount), "method": .string(ManncoExample.method.rawValue),
                "fee": whole(fee), "netAmount": whole(ManncoExample.amount - fee), "status": "pending",
                "estimatedCompletion": .string(String(exampleCompletion)), "message": .string(ManncoMessage.submitted)]
    }

    /// The schema of a success, `{"err":false,"success":true,"content":…}`, whose `content` is `content`.
    private static func envelope(_ content: JSON) -> JSON {
        Schema.object(["err": ["const": false], "success": ["const": true], "content": content], required: ["err", "success", "content"])
    }

    /// A success's body: `{"err":false,"success":true,"content":content}`.
    private static func success(_ content: JSON) -> JSON {
        ["err": false, "success": true, "content": content]
    }

    /// A refusal of this HTTP status (300 or 403), one named example per message.
    private static func refusals(_ description: String, _ messages: [String]) -> JSON {
        let examples = messages.map { message -> (String, JSON) in
            (message, ["summary": .string(message), "value": ["err": true, "success": false, "content": .string(message)]])
        }
        return ["description": .string(description),
                "content": ["application/json": ["schema": Schema.ref("ManncoError"),
                                                 "examples": .object(Dictionary(examples) { first, _ in first })]]]
    }

    /// What every protected route answers without a valid token.
    private static var forbidden: JSON {
        refusals("No `Authorization: Bearer <jwt>`, or a malformed, wrongly signed or expired one", [ManncoMessage.forbidden])
    }

    /// A whole number of cents.
    static func cents(_ description: String) -> JSON {
        Schema.integer(description + ", in cents")
    }

    /// A JSON number of a whole amount.
    static func whole(_ value: Int64) -> JSON {
        .number(String(value))
    }

    /// A page number or size as a query gives it: a whole number of at least 1 (else 300).
    private static func pageNumber(example: Int) -> JSON {
        Schema.integer(example: example).merging(["minimum": 1])
    }

    /// An HTML page's answer.
    private static func page(_ description: String) -> JSON {
        ["description": .string(description), "content": ["text/html": ["schema": Schema.string()]]]
    }
}
