import SandboxBank
import SandboxSupport

// The integration report, `GET /sandbox/report`, as Sources/CashoutSandbox/Admin/AdminAPI+Report.swift
// serves it and Sources/SandboxContract/Report/IntegrationReport.swift writes it; `POST /sandbox/reconcile`, the
// reconciliation it shows (Sources/SandboxContract/Report/Reconciliation.swift).

extension OpenAPIDocument {

    static func reportEndpoint<Admin: AdminServing>() -> Endpoint<Admin> {
        Endpoint<Admin>(AdminRoute.getReport, OpenAPI.operation(
            tag: "Sandbox", summary: "What my app gets wrong (the integration report)",
            description: """
                For each account that made a request or has a cashout (or `account` alone): what its app gets wrong, \
                from evidence, each finding with the requests and delivery attempts that show it and what to change; the \
                checks that held (`passed`) and those nothing exercised, each by its id (`late_rejection_missed`, \
                `signature_errors`...; the Testing your app guide, "What your app gets wrong"), each explained in a line in \
                `check_descriptions`. `ok` when no finding is an error; `checks` and `not_exercised` count what it judged (a clean \
                report with most checks not exercised judged little). Its thresholds (`thresholds`) are the loaded scenarios' \
                (their `report` key), or the query's; by default 1m to follow a notification up and 10 status queries of a \
                cashout per 1m. Made from \
                the request journal, the cashouts and their notifications each time it is asked for: answered 409, never \
                guessed, when the journal pushed requests out since it was last cleared (`serve --request-journal N` \
                keeps more). Made off the event loops, so no other request waits for it; its `ETag` names what it was made \
                from (the journal, the bank's changes, the virtual time, thresholds other than the standard ones), and sent \
                back in `If-None-Match` it is answered 304 while none of them moved.
                """,
            parameters: [OpenAPI.query("account", Schema.string(example: "sandbox_login"),
                                       "Only this account's, by its id in its API (as `GET /sandbox/accounts` lists them)"),
                         OpenAPI.query("follow_up_within", Schema.string(example: "2m", pattern: DurationText.pattern),
                                       "D24: how long after acknowledging a notification the app has to ask POST /v3/cashout/status "
                                           + "(notification_not_followed_up, late_rejection_missed); a duration from 1s to 7d. "
                                           + "Default: the scenarios' report.follow_up_within, else 1m"),
                         OpenAPI.query("polling_limit", Schema.integer(example: 20, minimum: ReportThresholds.limits.lowerBound,
                                                                      maximum: ReportThresholds.limits.upperBound),
                                       "status_polling_excessive: the most status queries of one cashout within polling_per, 1 to 1000000. "
                                           + "Default: the scenarios' report.status_polling.limit, else 10"),
                         OpenAPI.query("polling_per", Schema.string(example: "1m", pattern: DurationText.pattern),
                                       "The window polling_limit counts in, from 1s to 7d. "
                                           + "Default: the scenarios' report.status_polling.per, else 1m"),
                         OpenAPI.header("If-None-Match", "The ETag of a report already read: 304 while it still holds")],
            responses: [
                "200": reportAnswer,
                "304": ["description": "Nothing the report reads changed since the one whose ETag was sent", "headers": etag],
                "400": OpenAPI.error(400, AdminMessage.reportDuration("follow_up_within", "soon"), AdminMessage.reportLimit("0")),
                "404": OpenAPI.error(404, AdminMessage.noReportAccount("nobody")),
                "409": OpenAPI.json("Unknowable: the request journal lost evidence the report needs", Schema.ref("ReportUnknowable"), example: [
                    "ok": false, "unknowable": true,
                    "message": .string("the request journal pushed out 12 requests (it keeps 1000): a report now would miss their evidence; "
                        + "start the sandbox with a larger --request-journal, or DELETE /sandbox/requests before the run"),
                ]),
            ])) { $0.getReport($1) }
    }

    static func reconcileEndpoint<Admin: AdminServing>() -> Endpoint<Admin> {
        Endpoint<Admin>(AdminRoute.reconcile, describedAmong: { apis in
            let references = apis.compactMap { api in api.ledgerReference.map { "`\($0.key)` for \(api.tag)" } }.joined(separator: ", ")
            let summary = #"the app believes cashout 1000001 (external_id "shop-order-101") is COMPLETED; "#
                + "the bank's is REJECTED (reversed after it completed)"
            return OpenAPI.operation(
            tag: "Sandbox", summary: "Compare my app's ledger with the bank",
            description: """
                Reconciliation (the Testing your app guide, "Reconciliation"): the app's own view of its payouts, one entry \
                per payout with its API's reference (\(references)), the status it believes in its API's words and the \
                amount (a decimal string or number, at most two decimals), compared with the bank's cashouts \
                (of `account` alone, or of every account). \
                One mismatch per cashout whose fate (paid, not paid, not decided yet), amount, count or existence differs, \
                with the bank's history of it. The reconciliation is kept: `GET /sandbox/report` shows it as \
                `ledger_mismatch` (and its ETag changes). A ledger that cannot be compared (its shape, a status word its \
                API does not use, a reference the bank never made) is 400 with what was wrong.
                """,
            parameters: [OpenAPI.query("account", Schema.string(example: "sandbox_login"), "Only this account's cashouts are compared")],
            body: OpenAPI.body(Schema.ref("Ledger"), examples: [
                "d24": ["payouts": [["external_id": "shop-order-101", "status": "COMPLETED", "amount": "101.00"]]],
            ]),
            responses: [
                "200": OpenAPI.json("The mismatches (none: ok)", Schema.ref("Reconciliation"), example: [
                    "ok": false, "source": "request body", "entries": 1, "at": "2026-01-05T10:05:00Z",
                    "mismatches": [["account": "sandbox_login", "dialect": "d24", "cashouts": [1_000_001], "summary": .string(summary),
                                    "evidence": [["kind": "status", "cashout": 1_000_001, "status": "COMPLETED", "at": "2026-01-05T09:01:00Z",
                                                  "by": "bank"],
                                                 ["kind": "status", "cashout": 1_000_001, "status": "REJECTED", "at": "2026-01-05T10:01:00Z",
                                                  "by": "bank"]]]],
                ]),
                "400": OpenAPI.error(400, "ledger request body: payouts[0].status: expected one of STAGED, AWAITING_DETAILS, PENDING, ON_HOLD, "
                                         + #"DELIVERED, COMPLETED, REJECTED, CANCELLED, EXPIRED, got "PAID""#),
                "404": OpenAPI.error(404, AdminMessage.noReportAccount("nobody")),
            ])
        }) { $0.reconcile($1) }
    }

    static func suiteEndpoint<Admin: AdminServing>() -> Endpoint<Admin> {
        Endpoint<Admin>(AdminRoute.getSuite, OpenAPI.operation(
            tag: "Sandbox", summary: "Whether the suite's steps are over",
            description: """
                While `cashout-sandbox test SUITE --serve` runs a suite's steps against this sandbox: `running` (with the \
                step running now), then once the last step has run `passed` (every step held) or `failed` (with the first \
                step that failed and why), and once the run is judged its cases (the Testing your app guide, "Cases"). The command \
                `--exec` runs gets its URL as `$CASHOUT_SANDBOX_SUITE_URL`: a driver polls it until `state` is no longer \
                `running`, then prints what it learnt and exits (the Testing your app guide, "Knowing when the steps are \
                over"). A sandbox that runs no suite (`serve`) answers 404.
                """,
            responses: [
                "200": OpenAPI.json("How far the steps have come", Schema.ref("SuiteProgress"), example: [
                    "state": "failed", "step": 5, "steps": 12,
                    "failure": "step 5: expect_cashout order-1: expected status COMPLETED, got PENDING",
                    "cases": [
                        ["name": "order-1", "verdict": "failed", "steps": [1, 5], "failures": [
                            "step 5: expect_cashout order-1: expected status COMPLETED, got PENDING",
                        ], "skipped": [], "remarks": [], "cashouts": [1000001]],
                        ["name": "other steps", "verdict": "passed", "steps": [2, 3, 4, 6, 7, 8, 9, 10, 11, 12], "failures": [],
                         "skipped": [], "remarks": [], "cashouts": []],
                    ],
                ]),
                "404": OpenAPI.error(404, AdminMessage.noSuite),
            ])) { $0.getSuite($1) }
    }

    static var suiteSchemas: [String: JSON] {
        ["SuiteProgress": Schema.object([
            "state": Schema.oneOf(["running", "passed", "failed"], "running: steps are left; passed: every step held; failed: a step failed"),
            "step": Schema.integer("The step running now (from 1), the one that failed, or the last when every step held", example: 5),
            "steps": Schema.integer("The suite's steps", example: 12),
            "failure": Schema.nullable("string", "The first failed step and what was expected against what happened; null unless failed",
                                       example: "step 5: expect_cashout order-1: expected status COMPLETED, got PENDING"),
            "cases": Schema.array(of: Schema.ref("SuiteCase"),
                                  description: "The run's cases once it is judged (after the command ended); empty until then"),
        ], required: ["state", "step", "steps", "failure", "cases"]),
         "SuiteCase": Schema.object([
            "name": Schema.string("A payout's `as` name, a step's `case`, `report: CHECK`, `other steps` or `the app`", example: "order-1"),
            "verdict": Schema.oneOf(["passed", "failed", "skipped"], "skipped: none of its steps ran"),
            "steps": Schema.array(of: Schema.integer("A step of it (from 1)", example: 5), description: "Its steps"),
            "failures": Schema.array(of: Schema.string("What failed and where",
                                                       example: "step 5: expect_cashout order-1: expected status COMPLETED, got PENDING"),
                                     description: "What failed, in the order the run found it"),
            "skipped": Schema.array(of: Schema.string("A step that did not run, and why",
                                                  example: "step 6: skipped: `order-1` was never created (step 1 failed)"),
                                    description: "Its steps that did not run"),
            "remarks": Schema.array(of: Schema.string("Where a failure about it was judged instead",
                                                  example: "its finding on cashout 1000003 is judged in case \"refused\""),
                                    description: "What it says of itself without failing"),
            "cashouts": Schema.array(of: Schema.integer("A cashout it is about", example: 1000001), description: "The cashouts it is about"),
        ], required: ["name", "verdict", "steps", "failures", "skipped", "remarks", "cashouts"])]
    }

    private static let etag: JSON = [
        "ETag": ["description": "What the report was made from", "schema": Schema.string(example: "\"r42.0-317-1767603710000\"")],
    ]

    private static var reportAnswer: JSON {
        guard case .object(var answer) = OpenAPI.json("The report", Schema.ref("IntegrationReport"), example: reportExample) else { return .null }
        answer["headers"] = etag
        return .object(answer)
    }

    static func reportSchemas(_ apis: [APIDocsFragment]) -> [String: JSON] {
        let references = apis.compactMap { api in
            api.ledgerReference.map { ($0.key, Schema.either(["string", "integer"], "\(api.tag): \($0.meaning)")) }
        }
        let checks = Schema.array(of: Schema.string(example: "notification_failed"))
        let request = [
            "kind": Schema.oneOf(["request"]), "id": Schema.integer("Its id in the request journal (GET /sandbox/requests)", example: 7),
            "at": Schema.time(), "method": Schema.string(example: "POST"), "path": Schema.string(example: "/v3/cashout/status"),
            "status": Schema.nullable("integer", "The answer's status; null: the connection was dropped instead"),
            "answer": Schema.string("Only when a scenario's fault answered instead of the API (the answer dropped, an error, the "
                                     + "connection closed): which", example: "dropped after commit (fault drop_after_commit)"),
            "note": Schema.string("What this request shows, when more than its line", example: "answered 200 again for the same external_id"),
        ]
        let delivery = [
            "kind": Schema.oneOf(["delivery"]), "notification": Schema.integer("The notification (GET /sandbox/webhooks)", example: 3),
            "cashout": Schema.integer(example: 1_000_001), "status": Schema.string("The status it reported, in its API's words", example: "REJECTED"),
            "attempt": Schema.nullable("integer", "Its number among the notification's own attempts (the first, the retries, redeliveries), "
                                           + "as an occurrence counts them; null for a copy webhook chaos sent", example: 1),
            "copy_of": Schema.nullable("integer", "A chaos copy's: the own attempt it copies; null for an own attempt"),
            "at": Schema.time(),
            "answered": Schema.nullable("integer", "The app's HTTP status; null: no answer (see error)"),
            "error": Schema.nullable("string", "Why there was no answer", example: "timed out"),
            "chaos": Schema.either(["string", "null"], "The webhook chaos that sent it (duplicate, forged...); null for its own attempts"),
        ]
        return [
            "IntegrationReport": Schema.object([
                "ok": Schema.boolean("No finding is an error"), "errors": Schema.integer("Findings that are errors", example: 1),
                "warnings": Schema.integer("Findings that are warnings", example: 0), "at": Schema.time("The virtual time it was made at"),
                "checks": Schema.integer("Checks made: each account's, added up", example: 8),
                "not_exercised": Schema.integer("Of them, those nothing exercised either way", example: 4),
                "thresholds": Schema.object([
                    "follow_up_within": Schema.string("How long after a notification the app had to ask for the status", example: "1m"),
                    "status_polling": Schema.object(["limit": Schema.integer(example: 10), "per": Schema.string(example: "1m")],
                                                    required: ["limit", "per"]),
                ], required: ["follow_up_within", "status_polling"], description: "What the checks judged by"),
                "check_descriptions": Schema.map(of: Schema.map(of: Schema.string()),
                                                 description: "Each check of the report's accounts, by their API (an account's dialect) and id: "
                                                     + "what it looks for and what exercises it, in that API's words"),
                "accounts": Schema.array(of: Schema.ref("AccountReport"), description: "By API, then account"),
            ], required: ["ok", "errors", "warnings", "at", "checks", "not_exercised", "thresholds", "check_descriptions", "accounts"]),
            "AccountReport": Schema.object([
                "account": Schema.string(example: "sandbox_login"), "dialect": Schema.string("Its API", example: "d24"),
                "known": Schema.boolean("The sandbox has the account (false: only a request named it)"),
                "requests": Schema.integer("Journaled requests that named it"), "cashouts": Schema.integer("Its cashouts"),
                "findings": Schema.array(of: Schema.ref("Finding")), "passed": checks, "not_exercised": checks,
            ], required: ["account", "dialect", "known", "requests", "cashouts", "findings", "passed", "not_exercised"]),
            "Finding": Schema.object([
                "id": Schema.string("The check that failed", example: "late_rejection_missed"),
                "severity": Schema.oneOf(["error", "warning"]),
                "cashouts": Schema.array(of: Schema.integer(), description: "Every cashout it concerns, ascending"),
                "occurrences": Schema.array(of: Schema.string(), description: "One sentence per time it happened, oldest first"),
                "evidence": Schema.array(of: ["oneOf": [Schema.object(request, required: ["kind", "id", "at", "method", "path", "status"]),
                                                        Schema.object(delivery, required: delivery.keys.sorted()),
                                                        Schema.ref("StatusEvidence")]],
                                         description: "The requests and delivery attempts that show it, in time order"),
                "advice": Schema.string("What to change in the app"),
            ], required: ["id", "severity", "cashouts", "occurrences", "evidence", "advice"]),
            "StatusEvidence": Schema.object([
                "kind": Schema.oneOf(["status"]), "cashout": Schema.integer(example: 1_000_001),
                "status": Schema.string("The status it changed to, in its API's words", example: "REJECTED"), "at": Schema.time(),
                "by": Schema.string("Who changed it", example: "bank"),
            ], required: ["kind", "cashout", "status", "at", "by"]),
            "Ledger": Schema.object([
                "payouts": Schema.array(of: Schema.object(Dictionary(uniqueKeysWithValues: references).merging([
                    "status": Schema.string("What the app believes, in its API's words (any case)", example: "COMPLETED"),
                    "amount": Schema.either(["string", "number"], "At most two decimals, in the payout's currency", example: "101.00"),
                ]) { $1 }, required: ["status", "amount"], open: true)
                    .merging(Schema.oneOf(schemas: references.map { ["required": [.string($0.0)]] })),
                                        description: "Exactly one reference key each; other keys are ignored"),
            ], required: ["payouts"], open: true),
            "Reconciliation": Schema.object([
                "ok": Schema.boolean("No mismatch"), "source": Schema.string("Where the ledger was read", example: "request body"),
                "entries": Schema.integer("The ledger's entries", example: 9), "at": Schema.time("The virtual time it was made at"),
                "mismatches": Schema.array(of: Schema.object([
                    "account": Schema.string(example: "sandbox_login"), "dialect": Schema.string(example: "d24"),
                    "cashouts": Schema.array(of: Schema.integer()), "summary": Schema.string(),
                    "evidence": Schema.array(of: Schema.ref("StatusEvidence"), description: "The bank's history of the cashouts"),
                ], required: ["account", "dialect", "cashouts", "summary", "evidence"])),
            ], required: ["ok", "source", "entries", "at", "mismatches"]),
            "ReportUnknowable": Schema.object([
                "ok": ["type": "boolean", "const": false], "unknowable": ["type": "boolean", "const": true], "message": Schema.string(),
            ], required: ["ok", "unknowable", "message"]),
        ]
    }

    /// A D24 app that missed a late rejection, and sent a request with a wrong pass.
    private static var reportExample: JSON {
        [
            "ok": false, "errors": 2, "warnings": 0, "at": "2026-01-07T10:10:00Z", "checks": 8, "not_exercised": 4,
            "thresholds": ["follow_up_within": "1m", "status_polling": ["limit": 10, "per": "1m"]],
            "check_descriptions": ["d24": [
                "notification_failed": .string("a notification whose every attempt was answered non-2xx or timed out; exercised "
                    + "once a notification to the app was delivered or gave up"),
                "forged_notification_accepted": .string("a notification signed with a wrong key (webhook chaos's forged copy) answered 2xx; "
                    + "exercised by a forged copy once the app has acknowledged a genuine notification (refusing every one shows nothing)"),
            ]],
            "accounts": [[
                "account": "sandbox_login", "dialect": "d24", "known": true, "requests": 3, "cashouts": 1,
                "findings": [
                    [
                        "id": "late_rejection_missed", "severity": "error", "cashouts": [1_000_001],
                        "occurrences": [.string("the REJECTED notification of cashout 1000001 was acknowledged, "
                                                    + "but POST /v3/cashout/status was not asked for it at all")],
                        "evidence": [[
                            "kind": "delivery", "notification": 3, "cashout": 1_000_001, "status": "REJECTED", "attempt": 1, "copy_of": .null,
                            "at": "2026-01-07T10:05:00Z", "answered": 200, "error": .null, "chaos": .null,
                        ]],
                        "advice": .string("A completed cashout can still be reversed by the bank: ask POST /v3/cashout/status within 1m of "
                            + "its notification, and undo what completion did (credit the user back, reopen the order)."),
                    ],
                    [
                        "id": "signature_errors", "severity": "error", "cashouts": [],
                        "occurrences": [#"1 request refused: wrong_pass: pass does not match merchant sandbox_login's passphrase "sandbox_pass""#],
                        "evidence": [[
                            "kind": "request", "id": 1, "at": "2026-01-05T09:00:00Z", "method": "POST", "path": "/v3/cashout", "status": 401,
                            "note": #"pass does not match merchant sandbox_login's passphrase "sandbox_pass""#,
                        ]],
                        "advice": .string("Each refused request's diagnosis in GET /sandbox/requests says what was wrong and what was "
                            + "expected (login, pass and Payload-Signature); fix that before production, where a refusal says nothing."),
                    ],
                ],
                "passed": ["notification_failed", "notification_not_followed_up"],
                "not_exercised": ["forged_notification_accepted", "duplicate_after_lost_response", "idempotency_key_reused",
                                  "status_polling_excessive"],
            ]],
        ]
    }
}
