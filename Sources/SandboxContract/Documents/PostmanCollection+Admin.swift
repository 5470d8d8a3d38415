import SandboxSupport

// The sandbox's admin calls (/sandbox/...; CashoutSandbox/Admin/AdminAPI*.swift): three cashouts, one
// forced through deliver, complete and a late rejection, one rejected at once (both left PENDING by
// the bank, so the forced changes work at any pace), and one left to the bank's timeline while the
// clock is advanced; then its webhooks and the sink that received them.

extension PostmanCollection {
    /// `POST /sandbox/cashouts/{id}/actions` on the cashout saved in `variable`.
    static func force(_ name: String, _ variable: String, _ body: String, expect status: Int = 200, tests: [String]) -> Item {
        Item(name, AdminRoute.forceCashoutAction, parameters: ["id": "{{\(variable)}}"], body: body, expect: status, tests: tests)
    }

    /// The request log: the last requests, the refused ones with their diagnosis, and clearing it.
    static let requestLogRequests = [
        Item("Requests (the request journal)", AdminRoute.listRequests, query: "limit=20", expect: 200,
             description: "The newest requests to the payout APIs and their answers, newest first.",
             tests: ["pm.test('a journal', function () { pm.expect(pm.response.json().capacity >= 0).to.eql(true); });"]),
        Item("Refused requests, with why", AdminRoute.listRequests, query: "status=4xx", expect: 200,
             description: "A refused authentication carries its diagnosis (which check failed, and the likely cause); "
                 + "a 404 or 405 the route most likely meant."),
        Item("Clear the request journal", AdminRoute.clearRequests, expect: 204),
    ]

    /// The integration report, last: what the app that made the requests before it gets wrong. Its
    /// test fails while `ok` is false, its name listing each finding (`late_rejection_missed on
    /// sandbox_login (error)`).
    static let reportRequest = Item(
        "What my app gets wrong (report)", AdminRoute.getReport, expect: 200,
        description: """
            The integration report (GET /sandbox/report[?account=ID]): for each account, what the app that called the \
            payout APIs gets wrong, from evidence (the requests and notifications that show it), with advice; then the \
            checks that passed and those nothing exercised. Run your app's flow, then this: its test fails while any \
            finding is an error, and names them; its name says how many checks nothing exercised (a clean report that \
            exercised few judged little). Add follow_up_within=2m, polling_limit=20 or polling_per=1m to the query to judge \
            by other thresholds. 409 when the request journal pushed out requests the report needs.
            """,
        tests: [
            "var report = pm.response.json(), findings = [];",
            "report.accounts.forEach(function (a) { a.findings.forEach(function (f) { "
                + "findings.push(f.id + ' on ' + a.account + ' (' + f.severity + ')'); }); });",
            "var idle = report.not_exercised ? '; ' + report.not_exercised + ' of ' + report.checks + ' checks not exercised' : '';",
            "pm.test((report.ok ? 'ok: no error finding' : 'not ok: ' + findings.join(', ')) + idle, "
                + "function () { pm.expect(report.ok).to.eql(true); });",
        ])

    /// A reconciliation of the app's ledger (here an empty one: fill in the app's payouts), after
    /// the report, which it would otherwise change. Its test names each mismatch.
    static let reconcileRequest = Item(
        "Compare my app's ledger (reconcile)", AdminRoute.reconcile,
        body: #"{"payouts": [{"external_id": "my-order-1", "status": "COMPLETED", "amount": "100.00"}]}"#, expect: 400,
        description: """
            Reconciliation (POST /sandbox/reconcile[?account=ID]): paste your app's ledger, one entry per payout with its \
            reference (external_id, merchant_payout_id or cashout_id), the status it believes in its API's words and the \
            amount; the answer lists each cashout where the app and the bank disagree, and the report shows it as \
            ledger_mismatch. As it stands, the example names a cashout the bank never made: 400, and the message says so.
            """,
        tests: ["pm.test(pm.response.json().message || 'reconciled', function () { pm.expect(pm.response.code).to.be.oneOf([200, 400]); });"])

    /// The admin calls; those on cashouts create them with the first API that can (none without).
    static func adminRequests(_ apis: [APIDocsFragment]) -> [Item] {
        let general = [
            Item("Health", AdminRoute.getHealth, expect: 200, tests: [expect("status", "'ok'")]),
            Item("Clock", AdminRoute.getClock, expect: 200, description: "Mode, now and the next scheduled event."),
            Item("Metrics", AdminRoute.getMetrics, expect: 200, description: "Prometheus text format 0.0.4.",
                 tests: ["pm.test('Prometheus text', function () { pm.expect(pm.response.text()).to.include('cashout_sandbox_build_info'); });"]),
            Item("Clear the sink", AdminRoute.clearSink, parameters: ["name": "postman"], expect: 204),
            Item("Suite (whether its steps are over)", AdminRoute.getSuite, expect: 404,
                 description: """
                    While 'cashout-sandbox test SUITE --serve' runs a suite's steps: {"state": "running"|"passed"|"failed", "step", \
                    "steps", "failure"}. A sandbox started with 'serve' runs none, and answers 404.
                    """),
        ] + requestLogRequests
        guard let api = apis.first(where: { $0.create != nil }), let create = api.create else { return general + [reportRequest, reconcileRequest] }
        let account = api.accountVariable ?? ""
        return general + [
            create("Create a cashout to force", "adminCashoutId", true),
            force("Force deliver", "adminCashoutId", body(["action": "deliver"]),
                  tests: [expect("status", "'DELIVERED'")]),
            force("Force complete", "adminCashoutId", body(["action": "complete", "bank_reference_id": "E2E-POSTMAN"]),
                  tests: [expect("status", "'COMPLETED'"), expect("decided_by.kind", "'forced'"), expect("decided_by.action", "'complete'")]),
            force("Force late reject (826)", "adminCashoutId", body(["action": "reject", "rejection_code": .literal("826")]),
                  tests: [expect("status", "'REJECTED'"), expect("returned_after_completion", "true"), expect("rejection_code", "826")]),
            force("Force a change the lifecycle forbids (409)", "adminCashoutId", body(["action": "complete"]), expect: 409,
                  tests: [expect("from", "'REJECTED'"), expect("to", "'COMPLETED'")]),

            create("Create a cashout to reject", "rejectCashoutId", true),
            force("Force reject (801)", "rejectCashoutId", body(["action": "reject", "rejection_code": .literal("801")]),
                  tests: [expect("status", "'REJECTED'"), expect("rejection_code", "801")]),

            create("Create a cashout for the clock", "timelineCashoutId", false),
            Item("Advance the clock to the next event", AdminRoute.advanceClock, body: body(["to_next_event": .literal("true")]),
                 expect: 200, description: "Runs the next scheduled bank event (and its webhooks).",
                 tests: ["pm.test('events_applied', function () { pm.expect(typeof pm.response.json().events_applied).to.eql('number'); });"]),
            Item("Advance the clock by 1 minute", AdminRoute.advanceClock, body: body(["by": "1m"]), expect: 200,
                 description: "Also {\"to\":\"2026-01-07T00:00:00Z\"}. Every event due on the way runs, in time order."),
            Item("Cashout (admin view)", AdminRoute.getCashout, parameters: ["id": "{{timelineCashoutId}}"], expect: 200,
                 description: "Fields, status history, scheduled bank steps, webhooks, and what decided its fate "
                     + "(decided_by: here the default timeline).",
                 tests: [expect("status", "'COMPLETED'"), expect("decided_by.kind", "'default'")]),
            Item("Cashout timeline", AdminRoute.getCashoutTimeline, parameters: ["id": "{{timelineCashoutId}}"], expect: 200,
                 description: "What happened to it, in order: the requests about it and their answers, its status changes, its "
                     + "webhooks and their answers, with virtual and real times (the dashboard's cashout page draws it).",
                 tests: [expect("cashouts[0].status", "'COMPLETED'")]),
            Item("Cashouts", AdminRoute.listCashouts, query: "merchant=\(account)", expect: 200),
            Item("Webhooks of a cashout", AdminRoute.listWebhooks, query: "cashout_id={{timelineCashoutId}}", expect: 200,
                 tests: [save("webhooks[0].id", as: "webhookId")]),
            Item("Redeliver a webhook", AdminRoute.redeliverWebhook, parameters: ["id": "{{webhookId}}"], expect: 200),
            Item("Send a duplicate of a webhook", AdminRoute.sendWebhookChaos, parameters: ["id": "{{webhookId}}"],
                 body: body(["kind": "duplicate"]), expect: 200,
                 description: "Webhook chaos, now: the same notification once more (also \"forged\": signed with a wrong secret, "
                     + "or \"replay\"). Marked in its attempts; never retried.",
                 tests: ["pm.test('a duplicate attempt', function () { var a = pm.response.json().attempts; "
                             + "pm.expect(a[a.length - 1].chaos.kind).to.eql('duplicate'); });"]),
            Item("Send a forged webhook", AdminRoute.sendWebhookChaos, parameters: ["id": "{{webhookId}}"],
                 body: body(["kind": "forged"]), expect: 200,
                 description: "Signed with a wrong secret: a careful receiver answers it 401.",
                 tests: ["pm.test('a forged attempt', function () { var a = pm.response.json().attempts; "
                             + "pm.expect(a[a.length - 1].chaos.kind).to.eql('forged'); });"]),
            Item("Put webhook chaos rules in force", AdminRoute.putWebhookChaos,
                 body: #"[{"name": "at least once", "when": {"status": "COMPLETED"}, "kind": "duplicate", "after": "30s"}]"#, expect: 200,
                 description: "The rules of a scenario's webhooks.chaos (the Scenario files guide, 'Webhooks'): "
                     + "here every COMPLETED notification is sent twice, 30 s apart.",
                 tests: ["pm.test('one rule', function () { pm.expect(pm.response.json().length).to.eql(1); });"]),
            Item("Webhook chaos rules", AdminRoute.getWebhookChaos, expect: 200),
            Item("End webhook chaos", AdminRoute.putWebhookChaos, body: "[]", expect: 200,
                 tests: ["pm.test('no rules', function () { pm.expect(pm.response.json()).to.eql([]); });"]),
            Item("Read the sink", AdminRoute.getSink, parameters: ["name": "postman"], expect: 200,
                 description: "The notifications the built-in receiver got, with their forms decoded. A notification reaches it as "
                     + "the bank sends it (on a real clock, a moment after the change): the request waits for the first, up to 10 s, "
                     + "so that a runner at full speed finds it.",
                 tests: ["pm.test('notifications received', function () { pm.expect(pm.response.json().requests.length > 0).to.eql(true); });"],
                 prerequest: [
                     "// Waits (pm.sendRequest every 250 ms, up to 10 s) until the sink has received a notification.",
                     "(function poll(left) {",
                     "  pm.sendRequest({ url: pm.variables.replaceIn('{{baseUrl}}/sandbox/sink/postman'),",
                     "                   header: { Authorization: 'Bearer ' + (pm.variables.get('adminToken') || '') } }, function (error, answer) {",
                     "    var received = !error && answer.code === 200 && answer.json().requests.length > 0;",
                     "    if (!received && left > 0) setTimeout(function () { poll(left - 1); }, 250);",
                     "  });",
                     "})(40);",
                 ]),
            Item("Script the sink's answers", AdminRoute.scriptSink, parameters: ["name": "postman"],
                 body: body(["answers": .literal("[500, 200]")]), expect: 204,
                 description: "Its next answers, one per request: here a failure then a success, to see a retry."),
            Item("Script the sink as a careful handler", AdminRoute.scriptSink, parameters: ["name": "postman"],
                 body: body(["check_signatures": .literal("true"), "deduplicate": .literal("true")]), expect: 204,
                 description: "It refuses a wrong signature or control with 401, and answers 200 to a notification it processed already "
                     + "without processing it again."),
            Item("Ledger", AdminRoute.getLedger, query: "merchant=\(account)", expect: 200),
        ] + (api.accounts?.legacyList.map { [Item($0.name, $0.route, expect: 200)] } ?? []) + [
            Item("Accounts of every API", AdminRoute.listAccounts, expect: 200,
                 description: "By API; GET or PUT /sandbox/accounts/{dialect}/{id} reads, creates or changes one."),
            Item("Save a snapshot", AdminRoute.getSnapshot, expect: 200,
                 description: "The whole state as a file (Send and Download in Postman); PUT it to /sandbox/snapshot, "
                     + "here or in another sandbox, to get it back.",
                 tests: ["pm.test('a snapshot file', function () { "
                             + "pm.expect(pm.response.headers.get('Content-Type')).to.eql('application/vnd.cashout-sandbox.snapshot'); });"]),
            Item("No such cashout (404)", AdminRoute.getCashout, parameters: ["id": "999999999"], expect: 404),
            Item("Verify what was sent", AdminRoute.verifyRequests,
                 body: #"{"request": {"method": "POST", "body": {"amount": {"gte": 1}}}, "count": {"at_least": 1}}"#, expect: 200,
                 description: """
                     Request verification, as WireMock's: how many journaled requests match (method, path, dialect, headers, \
                     body fields with the scenario files' matchers). 422 with the near misses when it does not hold; \
                     {"sequence": [...]} checks an order. The collection's description shows it in a test script.
                     """,
                 tests: ["pm.test('verified', function () { pm.expect(pm.response.json().ok).to.eql(true); });"]),
            reportRequest,
            reconcileRequest,
        ]
    }
}
