import SandboxJSON

// The integration report, `GET /sandbox/report`, as Sources/CashoutSandbox/Admin/AdminAPI+Report.swift
// serves it and Sources/SandboxReport/IntegrationReport.swift writes it.

extension OpenAPIDocument {
    static var reportEndpoint: OpenAPIEndpoint {
        OpenAPIEndpoint(route: "GET /sandbox/report", operation: OpenAPI.operation(
            "getReport", tag: "Sandbox", summary: "What my app gets wrong (the integration report)",
            description: """
                For each account that made a request or has a cashout (or `account` alone): what its app gets wrong, \
                from evidence, each finding with the requests and delivery attempts that show it and what to change; the \
                checks that held (`passed`) and those nothing exercised, each by its id (`late_rejection_missed`, \
                `signature_errors`...; the Testing your app guide, "What your app gets wrong"). `ok` when no finding is an error. Made from \
                the request journal, the cashouts and their notifications each time it is asked for: answered 409, never \
                guessed, when the journal pushed requests out since it was last cleared (`serve --request-journal N` \
                keeps more). Made off the event loops, so no other request waits for it; its `ETag` names what it was made \
                from (the journal, the bank's changes, the virtual time), and sent back in `If-None-Match` it is answered 304 \
                while none of them moved.
                """,
            parameters: [OpenAPI.query("account", Schema.string(example: "sandbox_login"),
                                       "Only this account's (a D24 login, a Mannco user, a PayoutService merchant)"),
                         OpenAPI.header("If-None-Match", "The ETag of a report already read: 304 while it still holds")],
            responses: [
                "200": reportAnswer,
                "304": ["description": "Nothing the report reads changed since the one whose ETag was sent", "headers": etag],
                "404": OpenAPI.error(404, AdminMessage.noReportAccount("nobody")),
                "409": OpenAPI.json("Unknowable: the request journal lost evidence the report needs", Schema.ref("ReportUnknowable"), example: [
                    "ok": false, "unknowable": true,
                    "message": .string("the request journal pushed out 12 requests (it keeps 1000): a report now would miss their evidence; "
                        + "start the sandbox with a larger --request-journal, or DELETE /sandbox/requests before the run"),
                ]),
            ]))
    }

    static var suiteEndpoint: OpenAPIEndpoint {
        OpenAPIEndpoint(route: "GET /sandbox/suite", operation: OpenAPI.operation(
            "getSuite", tag: "Sandbox", summary: "Whether the suite's steps are over",
            description: """
                While `cashout-sandbox test SUITE --serve` runs a suite's steps against this sandbox: `running` (with the \
                step running now), `passed` (every step held) or `failed` (with the step that failed and why). The command \
                `--exec` runs gets its URL as `$CASHOUT_SANDBOX_SUITE_URL`: a driver polls it until `state` is no longer \
                `running`, then prints what it learnt and exits (the Testing your app guide, "Knowing when the steps are \
                over"). A sandbox that runs no suite (`serve`) answers 404.
                """,
            responses: [
                "200": OpenAPI.json("How far the steps have come", Schema.ref("SuiteProgress"), example: [
                    "state": "failed", "step": 5, "steps": 12,
                    "failure": "step 5: expect_cashout order-1: expected status COMPLETED, got PENDING",
                ]),
                "404": OpenAPI.error(404, AdminMessage.noSuite),
            ]))
    }

    static var suiteSchemas: [String: JSON] {
        ["SuiteProgress": Schema.object([
            "state": Schema.oneOf(["running", "passed", "failed"], "running: steps are left; passed: every step held; failed: a step failed"),
            "step": Schema.integer("The step running now (from 1), the one that failed, or the last when every step held", example: 5),
            "steps": Schema.integer("The suite's steps", example: 12),
            "failure": Schema.nullable("string", "The failed step and what was expected against what happened; null unless failed",
                                       example: "step 5: expect_cashout order-1: expected status COMPLETED, got PENDING"),
        ], required: ["state", "step", "steps", "failure"])]
    }

    private static let etag: JSON = ["ETag": ["description": "What the report was made from", "schema": Schema.string(example: "\"r42.0-317-1767603710000\"")]]

    private static var reportAnswer: JSON {
        guard case .object(var answer) = OpenAPI.json("The report", Schema.ref("IntegrationReport"), example: reportExample) else { return .null }
        answer["headers"] = etag
        return .object(answer)
    }

    static var reportSchemas: [String: JSON] {
        let checks = Schema.array(of: Schema.string(example: "notification_failed"))
        let request = [
            "kind": Schema.oneOf(["request"]), "id": Schema.integer("Its id in the request journal (GET /sandbox/requests)", example: 7),
            "at": Schema.time(), "method": Schema.string(example: "POST"), "path": Schema.string(example: "/v3/cashout/status"),
            "status": Schema.nullable("integer", "The answer's status; null: the connection was dropped instead"),
            "answer": Schema.string("Only when the answer was dropped: why", example: "dropped after commit (fault drop_after_commit)"),
            "note": Schema.string("What this request shows, when more than its line", example: "answered 200 again for the same external_id"),
        ]
        let delivery = [
            "kind": Schema.oneOf(["delivery"]), "notification": Schema.integer("The notification (GET /sandbox/webhooks)", example: 3),
            "cashout": Schema.integer(example: 1_000_001), "status": Schema.string("The status it reported, in its API's words", example: "REJECTED"),
            "attempt": Schema.integer(example: 1), "at": Schema.time(),
            "answered": Schema.nullable("integer", "The app's HTTP status; null: no answer (see error)"),
            "error": Schema.nullable("string", "Why there was no answer", example: "timed out"),
            "chaos": Schema.either(["string", "null"], "The webhook chaos that sent it (duplicate, forged...); null for its own attempts"),
        ]
        return [
            "IntegrationReport": Schema.object([
                "ok": Schema.boolean("No finding is an error"), "errors": Schema.integer("Findings that are errors", example: 1),
                "warnings": Schema.integer("Findings that are warnings", example: 0), "at": Schema.time("The virtual time it was made at"),
                "accounts": Schema.array(of: Schema.ref("AccountReport"), description: "By API, then account"),
            ], required: ["ok", "errors", "warnings", "at", "accounts"]),
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
                                                        Schema.object(delivery, required: delivery.keys.sorted())]],
                                         description: "The requests and delivery attempts that show it, in time order"),
                "advice": Schema.string("What to change in the app"),
            ], required: ["id", "severity", "cashouts", "occurrences", "evidence", "advice"]),
            "ReportUnknowable": Schema.object([
                "ok": ["type": "boolean", "const": false], "unknowable": ["type": "boolean", "const": true], "message": Schema.string(),
            ], required: ["ok", "unknowable", "message"]),
        ]
    }

    /// A D24 app that missed a late rejection, and sent a request with a wrong pass.
    private static var reportExample: JSON {
        [
            "ok": false, "errors": 2, "warnings": 0, "at": "2026-01-07T10:10:00Z",
            "accounts": [[
                "account": "sandbox_login", "dialect": "d24", "known": true, "requests": 3, "cashouts": 1,
                "findings": [
                    [
                        "id": "late_rejection_missed", "severity": "error", "cashouts": [1_000_001],
                        "occurrences": ["the REJECTED notification of cashout 1000001 was acknowledged, but POST /v3/cashout/status was not asked for it at all"],
                        "evidence": [[
                            "kind": "delivery", "notification": 3, "cashout": 1_000_001, "status": "REJECTED", "attempt": 1,
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
                "not_exercised": ["forged_notification_accepted", "duplicate_after_lost_response", "idempotency_key_reused", "status_polling_excessive"],
            ]],
        ]
    }
}
