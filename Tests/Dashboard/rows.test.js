// The views' rows (list.js, pages.js, requests.js, webhooks.js, report.js, Mannco's script.js):
// what each row shows of the admin API's answer, amounts with their currencies, server text as
// text (never HTML), and the actions each status offers.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./harness.js");

const d24 = (id, status, extra) => ({ cashout_id: id, dialect: "d24", merchant: "sandbox_login", external_id: "e-" + id, country: "BR",
                                      amount: "10.00", currency: "BRL", settlement_amount: "2.00", status, created_at: "2026-01-01T00:00:0" + id + "Z",
                                      history: [{ status: "PENDING", at: "2026-01-01T00:00:00Z", by: "api" }], ...extra });
const enabled = (page) => page.document.querySelectorAll("#actions button[data-action]").filter((b) => !b.disabled).map((b) => b.getAttribute("data-action"));

test("the cashouts list: newest first, each row's cells, its countries offered, the country filter", async () => {
  const cashouts = [d24("1", "COMPLETED", { returned_after_completion: true }), d24("3", "PENDING", { country: "UY", currency: "UYU" }),
                    { ...d24("2", "PENDING"), dialect: "mannco", merchant: "765", country: null, currency: "USD", api_status: "pending" }];
  const page = await load({ hash: "#/cashouts", routes: { "GET /sandbox/cashouts": { json: { cashouts } } } });
  assert.deepEqual(page.rows("cashouts-body"), [
    ["3", "d24", "e-3", "sandbox_login", "UY", "10.00 UYU", "PENDING", "2026-01-01 00:00:03Z"],
    ["2", "mannco", "e-2", "765", "—", "10.00 USD", "pending PENDING", "2026-01-01 00:00:02Z"],
    ["1", "d24", "e-1", "sandbox_login", "BR", "10.00 BRL", "COMPLETED returned", "2026-01-01 00:00:01Z"],
  ]);
  assert.equal(page.$("cashouts-count").textContent, "3 cashouts");
  assert.deepEqual(page.$("filter-country").options.map((o) => o.value), ["", "BR", "UY"]);
  page.$("filter-country").value = "UY";
  page.$("filter-country").dispatchEvent({ type: "change" });
  await page.settle();
  assert.deepEqual(page.$("cashouts-body").children.map((row) => row.getAttribute("data-id")), ["3"]);
  assert.equal(page.$("filter-country").value, "UY", "the choice stays across a refresh");
  page.$("filter-merchant").value = "sandbox_login";
  page.$("filter-status").value = "PENDING";
  page.$("filter-status").dispatchEvent({ type: "change" });
  await page.settle();
  assert.equal(page.requests.pop().url, "/sandbox/cashouts?merchant=sandbox_login&status=PENDING");
});

test("a cashout's page: its details, fields, history, and the actions its status offers", async () => {
  let cashout = d24("5", "PENDING", { fields: { amount: "10.00", country: "BR" }, scheduled: [{ at: "2026-01-01T00:00:05Z", status: "DELIVERED" }] });
  const routes = { "GET /sandbox/cashouts/5": () => ({ json: cashout }),
                   "POST /sandbox/cashouts/5/actions": (request) => ({ json: (cashout = { ...cashout, ...JSON.parse(request.body).status }) }) };
  const page = await load({ hash: "#/cashouts/5", routes });
  const details = Object.fromEntries(page.$("cashout-details").querySelectorAll("dd").map((dd) => [dd.getAttribute("data-field"), dd.textContent]));
  assert.equal(details.amount, "10.00 BRL");
  assert.equal(details.settlement_amount, "2.00 USD", "the settlement is in the merchant's currency");
  assert.equal(details.merchant, "sandbox_login");
  assert.equal(details.rejection_code, "—");
  assert.equal(page.$("cashout-fields").textContent, "amount10.00 BRLcountryBR");
  assert.deepEqual(page.rows("history-body"), [["PENDING", "2026-01-01 00:00:00Z", "api", "—"]]);
  assert.deepEqual(page.rows("scheduled-body"), [["2026-01-01 00:00:05Z", "DELIVERED", "—"]]);
  for (const [status, offered] of [["PENDING", ["hold", "cancel", "deliver", "reject"]], ["ON_HOLD", ["release", "cancel"]],
                                   ["DELIVERED", ["complete", "reject"]], ["COMPLETED", ["late-reject"]], ["REJECTED", []], ["CANCELLED", []],
                                   ["STAGED", ["cancel"]]]) {
    page.run(`renderCashout(${JSON.stringify(d24("5", status))})`);
    assert.deepEqual(enabled(page), offered, status);
    assert.equal(page.$("reject-code").disabled, !offered.includes("reject"), status);
  }
});

test("an action posts what its button says; a reject sends its code, a late reject 826, an API without codes none", async () => {
  const posted = [];
  const routes = { "GET /sandbox/cashouts/5": () => ({ json: d24("5", "DELIVERED") }),
                   "POST /sandbox/cashouts/5/actions": (request) => { posted.push(JSON.parse(request.body)); return { json: d24("5", "REJECTED") }; } };
  const page = await load({ hash: "#/cashouts/5", routes });
  page.$("reject-code").value = "801";
  page.$("action-reject").click();
  await page.settle();
  page.run(`renderCashout(${JSON.stringify(d24("5", "COMPLETED"))})`);
  page.$("action-late-reject").click();
  await page.settle();
  page.run("apis.d24 = { rejectionCode: false }");
  page.run(`renderCashout(${JSON.stringify(d24("5", "COMPLETED"))})`);
  assert.equal(page.$("action-late-reject").textContent, "Late reject");
  assert.equal(page.$("reject-code").hidden, true);
  page.$("action-late-reject").click();
  await page.settle();
  assert.deepEqual(posted, [{ action: "reject", rejection_code: 801 }, { action: "reject", rejection_code: 826 }, { action: "reject" }]);
});

test("from one cashout's page to another: nothing of the first stays; a missing one is one message", async () => {
  const routes = { "GET /sandbox/cashouts/5": { json: d24("5", "PENDING") }, "GET /sandbox/cashouts/999": { status: 404, json: { message: "no" } } };
  const page = await load({ hash: "#/cashouts/5", routes });
  assert.deepEqual(enabled(page), ["hold", "cancel", "deliver", "reject"]);
  page.location.hash = "#/cashouts/999";
  page.window.listeners.hashchange.forEach((fn) => fn());  // the route, before any answer
  assert.equal(page.$("cashout-status").textContent, "…");
  assert.deepEqual(enabled(page), []);
  assert.equal(["cashout-details", "cashout-fields", "history-body", "scheduled-body", "webhooks"].map((id) => page.$(id).children.length).join(), "0,0,0,0,0");
  await page.settle();
  assert.equal(page.$("cashout-status").textContent, "NOT FOUND");
  assert.equal(page.$("cashout-missing").hidden, false);
  assert.equal(page.$("cashout-body").hidden, true);
  assert.match(page.$("cashout-missing").textContent, /^There is no cashout 999 in this sandbox/);
});

test("merchants and a ledger: balances and amounts in the merchant's currency", async () => {
  const routes = { "GET /sandbox/ledger": { json: { entries: [{ id: 1, at: "2026-01-01T00:00:00Z", cashout_id: "5", kind: "debit", amount: "-10.00",
                                                                  balance_after: "9990.00" },
                                                                { id: 2, at: "2026-01-01T00:01:00Z", cashout_id: "5", kind: "refund", amount: "10.00",
                                                                  balance_after: "10000.00" }] } } };
  const page = await load({ hash: "#/merchants/sandbox_login", routes });
  assert.deepEqual(page.rows("ledger-body"), [["2", "2026-01-01 00:01:00Z", "5refund, 2026-01-01 00:01:00Z", "refund", "10.00 USD", "10000.00 USD"],
                                              ["1", "2026-01-01 00:00:00Z", "5debit, 2026-01-01 00:00:00Z", "debit", "-10.00 USD", "9990.00 USD"]]);
  assert.equal(page.$("merchants-body").children[0].children[4].textContent, "10000.00 USD");
  assert.equal(page.$("ledger-merchant").textContent, "sandbox_login");
});

test("Requests: rows, a diagnosis first, a near miss, the filters' query, Clear", async () => {
  const request = (id, path, status, extra) => ({ id, method: "POST", path, query: "", protocol: "HTTP/1.1", at: "2026-01-01T00:00:00Z",
                                                  received_at: "2026-01-01T00:00:00Z", headers: { "content-type": "application/json" }, body: "{}",
                                                  response: { status, headers: {}, body: "{}" }, route: null, dialect: null, ...extra });
  const requests = [request(2, "/v3/cashouts", 404, { near_miss: "POST /v3/cashout" }),
                    request(1, "/v3/cashout", 401, { route: "POST /v3/cashout", dialect: "d24",
                                                      diagnosis: { check: "signature_mismatch", message: "The signature is in upper case", expected: "ab" } })];
  let cleared = false;
  const routes = { "GET /sandbox/requests": () => ({ json: { requests: cleared ? [] : requests, kept: 2, capacity: 1000 } }),
                   "DELETE /sandbox/requests": () => { cleared = true; return { status: 204, text: "" }; } };
  const page = await load({ hash: "#/requests", routes });
  assert.deepEqual(page.rows("requests-rows"), [["2", "2026-01-01 00:00:00Z", "POST /v3/cashoutsnear miss", "404", "no route", "near miss"],
                                                ["1", "2026-01-01 00:00:00Z", "POST /v3/cashoutsignature_mismatch", "401", "POST /v3/cashout (d24)",
                                                 "signature_mismatch"]]);
  assert.equal(page.$("requests-kept").textContent, "2 kept of 1000");
  await page.go("#/requests/1");
  assert.equal(page.$("request-detail").hidden, false);
  assert.equal(page.$("request-diagnosis").hidden, false);
  assert.equal(page.document.querySelector("[data-testid=request-diagnosis-message]").textContent, "The signature is in upper case");
  assert.equal(page.$("request-title").textContent, "#1 POST /v3/cashout → HTTP 401");
  await page.go("#/requests/2");
  assert.equal(page.document.querySelector("[data-testid=request-near-miss]").textContent,
               "No route matches POST /v3/cashouts. Did you mean POST /v3/cashout?");
  page.$("requests-status").value = "4xx";
  page.$("requests-status").dispatchEvent({ type: "change" });
  await page.settle();
  assert.equal(page.requests.filter((r) => r.path === "/sandbox/requests").pop().url, "/sandbox/requests?status=4xx");
  page.$("requests-clear").click();
  await page.settle();
  assert.equal(page.$("requests-empty").hidden, false);
  assert.equal(page.$("notice").textContent, "The request journal is cleared.");
  assert.equal(page.location.hash, "#/requests");
});

test("Webhooks: each attempt numbered once, retries and chaos marked, the counts", async () => {
  const webhook = { id: 4, cashout_id: "5", status: "COMPLETED", state: "delivered", changed_at: "2026-01-01T00:00:00Z", url: "http://app/hook",
                    attempts: [{ number: 1, at: "2026-01-01T00:00:00Z", response_status: 500, response_body: "oops" },
                               { number: 2, at: "2026-01-01T00:00:10Z", retry: true, response_status: 200 },
                               { number: 3, at: "2026-01-01T00:00:20Z", manual: true, chaos: { kind: "forged", summary: "a wrong signature" },
                                 response_status: 200 }] };
  const page = await load({ hash: "#/webhooks", routes: { "GET /sandbox/webhooks": { json: { webhooks: [webhook] } } } });
  const attempts = page.$("webhooks-all").querySelectorAll("li");
  assert.deepEqual(attempts.map((li) => li.textContent), ["Attempt 1 2026-01-01 00:00:00Z HTTP 500oops",
                                                          "Attempt 2 2026-01-01 00:00:10Z retry HTTP 200",
                                                          "Attempt 3 2026-01-01 00:00:20Z manual forged HTTP 200a wrong signature"]);
  assert.deepEqual(attempts.map((li) => li.getAttribute("data-chaos")), [null, null, "forged"]);
  assert.equal(page.$("webhooks-count").textContent, "1 notification, 3 attempts, 1 with chaos");
  assert.ok(page.document.querySelector("[data-testid=forged-4]"), "its Send forged button");
});

test("Report: headlines, findings errors first in the index, evidence, an account's name as text", async () => {
  const html = '<img src=x onerror="window.__xss = 1">';
  const finding = (id, severity, evidence) => ({ id, severity, occurrences: ["1 request"], advice: "Fix it.", cashouts: [], evidence });
  const report = { at: "2026-01-01T00:00:00Z", ok: false, errors: 1, warnings: 1, checks: 3, not_exercised: 1,
                   accounts: [{ account: "sandbox_login", dialect: "d24", known: true, requests: 2, cashouts: 1,
                                findings: [finding("slow", "warning", []),
                                           finding("forged_notification_accepted", "error",
                                                   [{ kind: "delivery", at: "2026-01-01T00:00:00Z", cashout: "5", notification: 4, status: "COMPLETED",
                                                      copy_of: 1, answered: 200, chaos: "forged" }])],
                                passed: ["a"], not_exercised: ["b"] },
                              { account: html, dialect: "d24", known: false, requests: 1, cashouts: 0, findings: [], passed: [], not_exercised: ["a", "b"] }],
                   check_descriptions: { d24: { a: "looks at a", b: "looks at b" } } };
  const page = await load({ hash: "#/report", routes: { "GET /sandbox/report": { json: report } } });
  const testid = (id) => page.document.querySelectorAll("[data-testid]").find((e) => e.getAttribute("data-testid") === id);
  assert.equal(page.$("report-summary").textContent, "not ok 1 error, 1 warning in 2 accounts; 1 of 3 checks not exercised");
  assert.equal(testid("report-headline-sandbox_login").textContent, "1 error, 1 warning; 1 of 4 checks not exercised");
  assert.equal(testid("report-headline-" + html).textContent, "ok (no check exercised yet)");
  assert.deepEqual(page.$("report-index").children.map((li) => li.getAttribute("data-testid")),
                   ["report-index-sandbox_login-forged_notification_accepted", "report-index-sandbox_login-slow"]);
  const forged = testid("report-forged-accepted");
  assert.equal(forged.textContent, "200");
  assert.ok(forged.classList.contains("sev-error") && !forged.classList.contains("http-2xx"), "a forged copy accepted is red, not a 2xx's green");
  assert.equal(page.$("report-accounts").querySelectorAll("img").length, 0, "an account's name was built as HTML");
  assert.equal(testid("report-passed-sandbox_login").textContent, "a: looks at a");
});

test("Report: a report that cannot be made is one message", async () => {
  const routes = { "GET /sandbox/report": { status: 409, json: { unknowable: true, message: "the request journal is off (--request-journal 0)" } } };
  const page = await load({ hash: "#/report", routes });
  assert.equal(page.$("report-unavailable").textContent, "The report cannot be made: the request journal is off (--request-journal 0).");
  assert.equal(page.$("report-body").hidden, true);
});

test("Mannco: a user's row, cents as dollars, the emails of a cashout", async () => {
  const user = { id: "765", email: "a@example.com", balance: 123456, verified: true, linked: ["payoneer", "tipalti"], api_key: "k" };
  const page = await load({ hash: "#/users", routes: { "GET /sandbox/users": { json: { users: [user] } } } });
  assert.deepEqual(page.rows("mannco-users-body"), [["765", "a@example.com", "123456", "$1,234.56", "verified", "payoneer, tipalti", "k"]]);
  assert.deepEqual(page.$("filter-merchant").options.map((o) => o.value), ["", "sandbox_login", "765"], "the account filter offers the user");
});
