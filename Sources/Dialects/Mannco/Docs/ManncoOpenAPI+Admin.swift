import SandboxContract
import SandboxSupport
import SandboxBank
import SandboxWire

// Mannco's users and their email outbox in the admin API, as ManncoUser.kind and ManncoAPI serve them (as D24
// documents its merchants in its own fragment). Errors are the admin API's `{"code","message"}`.

extension OpenAPIDocument {
    static var manncoAdminEndpoints: [OpenAPIEndpoint] {
        let userID = OpenAPI.path("id", Schema.string("1 to \(ManncoUser.kind.idLimit) characters", example: "76561198000000042"), "The user's id")
        return [
            OpenAPIEndpoint(ManncoUser.kind.legacyOperations!.list, OpenAPI.operation(
                tag: "Sandbox", summary: "Mannco users", description: "With their API keys, balances and linked methods.",
                responses: ["200": OpenAPI.json("The users", Schema.object(["users": Schema.array(of: Schema.ref("ManncoUser"))],
                                                                           required: ["users"]))])),
            OpenAPIEndpoint(ManncoUser.kind.legacyOperations!.put, OpenAPI.operation(
                tag: "Sandbox", summary: "Create or update a Mannco user",
                description: "Creates the user (which needs `api_key`), or changes the members given.",
                parameters: [userID],
                body: OpenAPI.body(Schema.ref("ManncoUserUpdate"), examples: [
                    "a second user": ["api_key": "second_user_key", "balance": 500_000, "verified": true, "linked": ["payoneer"],
                                      "email": "second@example.com"],
                ]),
                responses: [
                    "200": OpenAPI.json("Updated", Schema.ref("ManncoUser")),
                    "201": OpenAPI.json("Created", Schema.ref("ManncoUser")),
                    "400": OpenAPI.error(400, AdminMessage.notAnObject, ManncoUser.kind.idRefusal, AdminMessage.unknownField("limit"),
                                         ManncoUser.needsAPIKey, ManncoUser.balanceRefusal,
                                         AdminMessage.otherAPIsAccount("sandbox_login", of: "d24")),
                    "409": OpenAPI.error(409, ManncoUser.keyTaken(by: "76561198000000001"), ManncoUser.currencyKept),
                ])),
        ]
    }

    /// `GET /sandbox/emails`: the users' email outbox, which Mannco's notifications go to.
    static var manncoEmails: Endpoint<ManncoAPI> {
        Endpoint<ManncoAPI>(ManncoOperation.emails, OpenAPI.operation(
            tag: "Sandbox", summary: "Mannco's email outbox",
            description: "One email per status a cashout enters (pending, processing, completed, failed, cancelled), oldest first.",
            parameters: [OpenAPI.query("user", Schema.string(example: ManncoDocs.user.id), "Only this user's cashouts'")],
            responses: ["200": OpenAPI.json("The emails", Schema.object(["emails": Schema.array(of: Schema.ref("ManncoEmail"))],
                                                                        required: ["emails"]))])) { api, request in
            .json(["emails": .array(ManncoEmail.outbox(of: api.bank.payouts(account: request.query("user"))).map(\.json))])
        }
    }

    static var manncoAdminSchemas: [String: JSON] {
        let providers = Schema.array(of: Schema.oneOf(ManncoProvider.allCases.map(\.rawValue)), description: "The linked payout methods")
        let user: [String: JSON] = [
            "id": Schema.string(example: ManncoDocs.user.id), "api_key": Schema.string(example: ManncoDocs.user.apiKey),
            "balance": cents("The balance"), "verified": Schema.boolean("Needed to cash out"), "linked": providers,
            "email": Schema.string(example: ManncoDocs.user.email),
            "tipalti_payee_id": Schema.nullable("string", "Set when Tipalti was linked with POST /cashout/link"),
        ]
        let nonEmpty = Schema.string().merging(["minLength": 1])
        return [
            "ManncoUser": Schema.object(user, required: user.keys.sorted()),
            "ManncoUserUpdate": Schema.object([
                "id": Schema.string("The path's id, or absent: a user's id does not change, so another is refused (400)"), "api_key": nonEmpty,
                "balance": cents("The balance").merging(["minimum": 0, "maximum": whole(ManncoProcessRequest.maximumAmount)]),
                "verified": Schema.boolean(), "linked": providers, "email": nonEmpty,
            ], description: "Only the members given change."),
            "ManncoEmail": Schema.object([
                "to": Schema.string(example: ManncoExample.email), "subject": Schema.string(), "body": Schema.string(),
                "cashout_id": Schema.integer(example: 1_000_001), "status": Schema.oneOf(statuses), "at": Schema.time(),
            ], required: ["to", "subject", "body", "cashout_id", "status", "at"]),
        ]
    }
}
