import SandboxBank
import SandboxSupport

// The sandbox's own endpoints under /sandbox/ as Sources/CashoutSandbox/Admin/AdminAPI*.swift serves
// them; bodies as AdminJSON writes them. Errors are `{"code": <HTTP status>, "message": "..."}`.

extension OpenAPIDocument {
    /// The admin API's endpoints, each declared once (route, description, handler), in the order
    /// the admin API serves them: those up to the accounts, then (after each API's older account
    /// paths, which the APIs document) the others. Descriptions name the APIs served where an
    /// endpoint does: their names, their words for the statuses (`GET /sandbox/cashouts?status=`),
    /// their scenario sections.
    package static func adminEndpoints<Admin: AdminServing>(for _: Admin.Type)
        -> (upToAccounts: [Endpoint<Admin>], afterAccounts: [Endpoint<Admin>]) {
        (clockEndpoints() + cashoutEndpoints() + AccountsResource.endpoints(),
         webhookEndpoints() + chaosEndpoints() + sinkEndpoints() + snapshotEndpoints() + requestLogEndpoints()
            + [reportEndpoint(), reconcileEndpoint(), suiteEndpoint()])
    }

    private static func clockEndpoints<Admin: AdminServing>() -> [Endpoint<Admin>] {
        [
            Endpoint<Admin>(AdminRoute.getHealth, OpenAPI.operation(
                tag: "Sandbox", summary: "Health",
                description: "Status, version and the virtual clock; with `--state-dir`, 503 and the journal's state while the disk "
                    + "cannot be written (changes are refused meanwhile: Running it, \"When the disk fails\").",
                responses: ["200": OpenAPI.json("Up", Schema.ref("Health")),
                            "503": OpenAPI.json("Up, but changes cannot be saved", Schema.ref("Health"))])) { $0.getHealth($1) },
            Endpoint<Admin>(AdminRoute.getClock, OpenAPI.operation(
                tag: "Sandbox", summary: "The virtual clock", description: "Mode, now, and the next scheduled event.",
                responses: ["200": OpenAPI.json("The clock", Schema.ref("Clock"))])) { $0.getClock($1) },
            metricsEndpoint(),
            Endpoint<Admin>(AdminRoute.advanceClock, OpenAPI.operation(
                tag: "Sandbox", summary: "Move the clock forward",
                description: "Runs every due bank event and webhook delivery in time order; answers how many ran.",
                body: OpenAPI.body(Schema.ref("AdvanceClockRequest"), examples: [
                    "by": ["by": "2d"], "to": ["to": "2026-01-07T00:00:00Z"], "next event": ["to_next_event": true],
                ]),
                responses: [
                    "200": OpenAPI.json("The clock after the advance", Schema.ref("Clock")),
                    "400": OpenAPI.error(400, AdminMessage.notAnObject, AdminMessage.advanceBy, AdminMessage.advanceTo,
                                         AdminMessage.advanceForms),
                    "409": OpenAPI.error(409, AdminMessage.clockInThePast("2026-01-01T00:00:00Z")),
                ])) { $0.advanceClock($1) },
            Endpoint<Admin>(AdminRoute.loadScenario, OpenAPI.operation(
                tag: "Sandbox", summary: "Load a scenario",
                description: """
                    A scenario file's JSON (format in the Scenario files guide; its JSON Schema, scenarios/schema.json in \
                    the APIs served, is the component `Scenario`) over the ones in force: its merchants, rules (tried \
                    first), faults and webhook policy.
                    """,
                body: OpenAPI.body(Schema.ref(scenarioSchema), examples: [
                    "decline": ["name": "KYC decline", "bank": ["rules": [
                        ["when": ["beneficiary_name": "Minor"], "decline": ["code": 504, "reason_code": 105]],
                    ]]],
                ]),
                responses: [
                    "200": OpenAPI.json("Loaded", Schema.ref("ScenarioLoaded")),
                    "400": OpenAPI.error(400, "bank.rules[0].then[0].status: expected one of PENDING, ON_HOLD, ..."),
                    "409": OpenAPI.error(409, AdminMessage.currencyKept("acme")),
                ])) { $0.loadScenario($1) },
            Endpoint<Admin>(AdminRoute.reset, OpenAPI.operation(
                tag: "Sandbox", summary: "Forget everything but the clock",
                description: "Every cashout, ledger entry, webhook and sink request; back to the starting merchants, bank, faults and sinks.",
                responses: ["200": OpenAPI.json("Reset", Schema.ref("Reset"))])) { $0.reset($1) },
        ]
    }

    private static func cashoutEndpoints<Admin: AdminServing>() -> [Endpoint<Admin>] {
        let id = OpenAPI.path("id", Schema.integer(example: 1_000_001), "The cashout id")
        let noCashout = OpenAPI.error(404, AdminMessage.noCashout("1000001"))
        return [
            Endpoint<Admin>(AdminRoute.listCashouts, describedAmong: { apis in
                // As the handler reads it: a status by the sandbox's name (STAGED and EXPIRED too), else by an API's own word.
                let statuses = Set(PayoutStatus.allCases.map(\.name) + apis.flatMap(\.statusWords)).sorted()
                return OpenAPI.operation(
                tag: "Sandbox", summary: "Cashouts", description: "Every cashout, optionally of one merchant or status.",
                parameters: [
                    OpenAPI.query("merchant", Schema.string(example: "sandbox_login"), "Only this merchant's"),
                    OpenAPI.query("status", Schema.oneOf(statuses), "Only in this status, by the sandbox's name or the cashout's API's word"),
                ],
                responses: [
                    "200": OpenAPI.json("The cashouts", Schema.object(["cashouts": Schema.array(of: Schema.ref("CashoutSummary"))],
                                                                      required: ["cashouts"])),
                    "400": OpenAPI.error(400, AdminMessage.statusFilter(statuses)),
                ])
            }) { $0.listCashouts($1) },
            Endpoint<Admin>(AdminRoute.getCashout, OpenAPI.operation(
                tag: "Sandbox", summary: "One cashout",
                description: "Its fields, status history, scheduled bank steps and webhooks.", parameters: [id],
                responses: ["200": OpenAPI.json("The cashout", Schema.ref("Cashout")), "404": noCashout])) { $0.getCashout($1) },
            Endpoint<Admin>(AdminRoute.getCashoutTimeline, OpenAPI.operation(
                tag: "Sandbox", summary: "What happened to a cashout, in order",
                description: "The app's requests about it and their answers (or the injected fault that replaced one), its status "
                    + "changes, its notifications and the app's answers, the clock's stops for the app (under `test --serve` and "
                    + "`explore`), the app's ledger as last read, and the integration report's error findings that name it. The "
                    + "dashboard's cashout page draws it; `explore` writes the same for a failing run beside its file.",
                parameters: [id, OpenAPI.header("If-None-Match", "The ETag of a timeline already read: 304 while it still holds")],
                responses: ["200": OpenAPI.json("Its timeline", Schema.ref("Timeline")),
                            "304": ["description": "Nothing the timeline reads changed since the one whose ETag was sent",
                                    "headers": ["ETag": ["description": "What the timeline was made from",
                                                         "schema": Schema.string(example: "\"c1000001-r42.0-317-1767603710000-0-s3\"")]]],
                            "404": noCashout])) { $0.getCashoutTimeline($1) },
            Endpoint<Admin>(AdminRoute.forceCashoutAction, OpenAPI.operation(
                tag: "Sandbox", summary: "Force an outcome",
                description: "`reject` on a COMPLETED cashout is a late return (default code 826, else 807). Ends the bank's timeline.",
                parameters: [id],
                body: OpenAPI.body(Schema.ref("CashoutAction"), examples: ["reject": ["action": "reject", "rejection_code": 801]]),
                responses: [
                    "200": OpenAPI.json("The cashout after the change", Schema.ref("Cashout")),
                    "400": OpenAPI.error(400, AdminMessage.notAnObject, AdminMessage.rejectionCode, AdminMessage.forcedAction,
                                         AdminMessage.expectedString("status_reason")),
                    "404": noCashout,
                    "409": OpenAPI.errors("A change the lifecycle forbids", schema: "TransitionConflict", [
                        ["code": 409, "message": "cannot hold a COMPLETED cashout: COMPLETED -> ON_HOLD is not allowed",
                         "from": "COMPLETED", "to": "ON_HOLD"],
                    ]),
                ])) { $0.forceCashoutAction($1) },
            Endpoint<Admin>(AdminRoute.getLedger, OpenAPI.operation(
                tag: "Sandbox", summary: "The ledger", description: "Every debit and refund with the balance after it.",
                parameters: [OpenAPI.query("merchant", Schema.string(example: "sandbox_login"), "Only this merchant's")],
                responses: ["200": OpenAPI.json("The entries", Schema.object(["entries": Schema.array(of: Schema.ref("LedgerEntry"))],
                                                                             required: ["entries"]))])) { $0.getLedger($1) },
        ]
    }

    private static func webhookEndpoints<Admin: AdminServing>() -> [Endpoint<Admin>] {
        [
            Endpoint<Admin>(AdminRoute.listWebhooks, OpenAPI.operation(
                tag: "Sandbox", summary: "The webhook journal", description: "Every notification with every attempt.",
                parameters: [OpenAPI.query("cashout_id", Schema.string(example: "1000001"), "Only this cashout's")],
                responses: ["200": OpenAPI.json("The notifications", Schema.object(["webhooks": Schema.array(of: Schema.ref("Webhook"))],
                                                                                   required: ["webhooks"]))])) { $0.listWebhooks($1) },
            Endpoint<Admin>(AdminRoute.redeliverWebhook, OpenAPI.operation(
                tag: "Sandbox", summary: "Send a notification again now",
                description: "A manual attempt, journaled like the others.",
                parameters: [OpenAPI.path("id", Schema.integer(example: 1), "The notification id")],
                responses: [
                    "200": OpenAPI.json("The notification with the new attempt", Schema.ref("Webhook")),
                    "404": OpenAPI.error(404, AdminMessage.noWebhook("1")),
                    "409": OpenAPI.error(409, AdminMessage.noNotificationURL(1)),
                ])) { $0.redeliverWebhook($1) },
        ]
    }

    private static func chaosEndpoints<Admin: AdminServing>() -> [Endpoint<Admin>] {
        let rulesExample: JSON = [
            ["name": "at least once", "when": ["status": "COMPLETED"], "kind": "duplicate", "after": "30s"],
            ["kind": "forged", "rate": .number("0.5")],
            ["when": ["status": "DELIVERED"], "kind": "out_of_order"],
        ]
        return [
            Endpoint<Admin>(AdminRoute.sendWebhookChaos, OpenAPI.operation(
                tag: "Sandbox", summary: "Send a duplicate, forged or replayed notification now",
                description: """
                    One chaos delivery of the notification, journaled among its attempts with its `chaos` mark: a \
                    `duplicate` (the same body), a `forged` copy (signed with a wrong secret: the receiver should refuse \
                    it) or a `replay`. Never retried; the notification's state and retries stay as they are. Answers once \
                    the receiver's answer is recorded.
                    """,
                parameters: [OpenAPI.path("id", Schema.integer(example: 1), "The notification id")],
                body: OpenAPI.body(Schema.ref("ChaosRequest"), examples: ["forged": ["kind": "forged"], "duplicate": ["kind": "duplicate"]]),
                responses: [
                    "200": OpenAPI.json("The notification with the new attempt", Schema.ref("Webhook")),
                    "400": OpenAPI.error(400, AdminMessage.chaosKind),
                    "404": OpenAPI.error(404, AdminMessage.noWebhook("1")),
                    "409": OpenAPI.error(409, AdminMessage.noNotificationURL(1)),
                ])) { $0.sendWebhookChaos($1) },
            Endpoint<Admin>(AdminRoute.getWebhookChaos, OpenAPI.operation(
                tag: "Sandbox", summary: "The webhook chaos rules in force",
                description: "As a scenario file's `webhooks.chaos` holds them (the Scenario files guide, 'Webhook chaos'); `[]` for none.",
                responses: ["200": OpenAPI.json("The rules", Schema.array(of: Schema.ref("ChaosRule")), example: rulesExample)])) {
                $0.getWebhookChaos($1)
            },
            Endpoint<Admin>(AdminRoute.putWebhookChaos, OpenAPI.operation(
                tag: "Sandbox", summary: "Put webhook chaos rules in force",
                description: """
                    Replaces the rules in force, as a scenario loaded with only `webhooks.chaos` would (journaled with \
                    `--state-dir`, kept by snapshots, undone by a reset); `[]` ends the chaos. Each rule's `every` counts \
                    from zero again. Answers with the rules in force.
                    """,
                // As the loader reads them: a scenario's `webhooks.chaos` rules, each member only with its kind.
                body: OpenAPI.body(Schema.array(of: Schema.ref("\(scenarioSchema).chaosRule")),
                                   examples: ["three kinds": rulesExample, "none": []]),
                responses: [
                    "200": OpenAPI.json("The rules in force", Schema.array(of: Schema.ref("ChaosRule"))),
                    "400": OpenAPI.error(400, AdminMessage.chaosRules,
                                         "[0].kind: expected one of duplicate, out_of_order, delayed, forged, replay"),
                ])) { $0.putWebhookChaos($1) },
        ]
    }

    /// The built-in webhook receiver.
    private static func sinkEndpoints<Admin: AdminServing>() -> [Endpoint<Admin>] {
        let name = OpenAPI.path("name", Schema.string(example: "orders"), "The sink's name")
        return [
            Endpoint<Admin>(AdminRoute.getSink, OpenAPI.operation(
                tag: "Sink", summary: "What a sink received",
                description: "Requests with their form decoded, what the sink did with each (and which notification it was), and its script.",
                parameters: [name], responses: ["200": OpenAPI.json("The sink", Schema.ref("Sink"))])) { $0.getSink($1) },
            Endpoint<Admin>(AdminRoute.scriptSink, OpenAPI.operation(
                tag: "Sink", summary: "Script a sink",
                description: """
                    Its next answers, one HTTP status per request it processes (200 once the script is used up), and \
                    whether it acts as a webhook handler: `check_signatures` refuses a wrong signature or `control` with 401, \
                    `deduplicate` answers 200 to a notification it processed already without processing it again. \
                    Sets what the body gives; the rest of the script, and what it received, stay.
                    """, parameters: [name],
                body: OpenAPI.body(Schema.ref("SinkScript"), examples: [
                    "fail twice": ["answers": [500, 500, 200]],
                    "a careful handler": ["check_signatures": true, "deduplicate": true],
                ]),
                responses: [
                    "204": OpenAPI.empty("Scripted"),
                    "400": OpenAPI.error(400, AdminMessage.sinkScript),
                ])) { $0.scriptSink($1) },
            Endpoint<Admin>(AdminRoute.clearSink, OpenAPI.operation(
                tag: "Sink", summary: "Clear a sink", description: "Forgets its requests and its script.",
                parameters: [name], responses: ["204": OpenAPI.empty("Cleared")])) { $0.clearSink($1) },
            Endpoint<Admin>(AdminRoute.postToSink, OpenAPI.operation(
                tag: "Sink", summary: "Post to a sink",
                description: """
                    What a notification does: recorded, and answered with the sink's next scripted status (200 by default). \
                    A sink scripted as a handler first reads it as one of the sandbox's notifications: a wrong signature \
                    gets 401, a notification processed already 200; its answer then says what it did.
                    """,
                parameters: [name],
                body: OpenAPI.body(Schema.map(of: Schema.string(), description: "Any body; notifications are form-encoded"),
                                   required: false, mediaType: "application/x-www-form-urlencoded"),
                responses: [
                    "200": OpenAPI.json("Received", Schema.ref("SinkReceived")),
                    "default": OpenAPI.json("Received, answered with the scripted status", Schema.ref("SinkReceived")),
                ])) { $0.postToSink($1) },
        ]
    }
}
