// The 2-second poll (core.js): one refresh at a time, none lost, none that a newer one overtook
// rendered, none while the page is hidden; the admin token; and the Report's ETag (report.js).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./harness.js");

const cashout = (id, status, extra) => ({ cashout_id: id, dialect: "d24", merchant: "sandbox_login", external_id: "e-" + id, country: "BR",
                                          amount: "10.00", currency: "BRL", status, created_at: "2026-01-01T00:00:00Z", history: [], ...extra });

test("a poll refreshes the clock, the health, the accounts and the view shown", async () => {
  const page = await load({ hash: "#/cashouts" });
  assert.equal(page.polls.length, 1, "one timer: the poll");
  page.requests.length = 0;
  page.poll();
  await page.settle();
  assert.deepEqual(page.requests.map((r) => r.method + " " + r.url),
                   ["GET /sandbox/clock", "GET /sandbox/health", "GET /sandbox/merchants", "GET /sandbox/users", "GET /sandbox/cashouts"]);
  assert.equal(page.$("clock-now").textContent, "2026-01-01 00:00:00Z");
  assert.equal(page.$("clock-mode").textContent, "(manual)");
  assert.equal(page.$("clock-next").textContent, "none");
  assert.ok(page.document.body.getAttribute("data-refreshed"));
});

test("no poll while the page is hidden; a refresh when it shows again", async () => {
  const page = await load({ hash: "#/cashouts" });
  page.document.hidden = true;
  page.requests.length = 0;
  page.poll();
  await page.settle();
  assert.deepEqual(page.requests, []);
  page.document.hidden = false;
  page.document.dispatchEvent({ type: "visibilitychange" });
  await page.settle();
  assert.ok(page.requests.some((r) => r.url === "/sandbox/clock"));
});

test("a refresh asked for while one runs runs when it ends: a filter change is not lost", async () => {
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  let first = true;
  const routes = { "GET /sandbox/cashouts": async (request) => {
    if (first) { first = false; await held; }
    const all = [cashout("1", "CANCELLED"), cashout("2", "PENDING")];
    const status = new URLSearchParams(request.query).get("status");
    return { json: { cashouts: all.filter((c) => !status || c.status === status) } };
  } };
  // The route's answer may be a promise: the fake fetch awaits it.
  const page = await load({ hash: "", routes });
  page.run("refreshNow()");
  await page.settle();
  page.$("filter-status").value = "CANCELLED";
  page.$("filter-status").dispatchEvent({ type: "change" });
  release();
  await page.settle();
  assert.deepEqual(page.$("cashouts-body").children.map((row) => row.getAttribute("data-id")), ["1"]);
  assert.ok(page.requests.some((r) => r.url === "/sandbox/cashouts?status=CANCELLED"));
});

test("a poll's answer that an action overtook is not rendered", async () => {
  let release, polled = false, status = "PENDING";
  const held = new Promise((resolve) => { release = resolve; });
  const routes = {
    "GET /sandbox/cashouts/9": async () => {
      const now = status;  // what the sandbox says when the request comes, answered later
      if (now === "ON_HOLD") await new Promise(() => {});  // the refresh after the action: never answered, so what shows is not its
      if (polled) await held;
      return { json: cashout("9", now) };
    },
    "POST /sandbox/cashouts/9/actions": () => { status = "ON_HOLD"; return { json: cashout("9", status) }; },
  };
  const page = await load({ hash: "#/cashouts/9", routes });
  assert.equal(page.$("cashout-status").textContent, "PENDING");
  polled = true;
  page.poll();
  await page.settle();
  page.$("action-hold").click();
  await page.settle();
  assert.equal(page.$("cashout-status").textContent, "ON_HOLD");
  release();
  await page.settle();
  assert.equal(page.$("cashout-status").textContent, "ON_HOLD", "the older poll's PENDING was drawn over the hold's answer");
  assert.equal(page.$("action-result").textContent, "hold: now ON_HOLD");
});

test("a 401 asks for the admin token; a refused one says so; the right one is kept for the tab and sent", async () => {
  const token = (request) => request.headers.Authorization === "Bearer right";
  const guard = (answer) => (request) => (token(request) ? answer : { status: 401, json: { message: "admin token required" } });
  const page = await load({ hash: "#/cashouts", routes: {
    "GET /sandbox/clock": guard({ json: { mode: "manual", now: "2026-01-01T00:00:00Z" } }),
    "GET /sandbox/health": guard({ json: {} }), "GET /sandbox/merchants": guard({ json: { merchants: [] } }),
  } });
  assert.equal(page.$("token-form").hidden, false);
  assert.equal(page.$("token-error").textContent, "");
  page.$("token-input").value = "wrong";
  page.$("token-form").submit();
  await page.settle();
  assert.equal(page.$("token-error").textContent, "That token was refused.");
  page.$("token-input").value = "right";
  page.$("token-form").submit();
  await page.settle();
  assert.equal(page.$("token-form").hidden, true);
  assert.equal(page.window.sessionStorage.getItem("cashout-sandbox-admin-token"), "right");
  assert.equal(page.$("clock-now").textContent, "2026-01-01 00:00:00Z");
  const last = page.requests.filter((r) => r.path === "/sandbox/clock").pop();
  assert.equal(last.headers.Authorization, "Bearer right");
});

test("the Report sends its ETag back; a 304 draws nothing; another account asks afresh", async () => {
  const report = (account) => ({ at: "2026-01-01T00:00:00Z", ok: true, errors: 0, warnings: 0, checks: 2, not_exercised: 0,
                                 accounts: [{ account, dialect: "d24", known: true, requests: 1, cashouts: 0, findings: [], passed: ["a", "b"], not_exercised: [] }],
                                 check_descriptions: { d24: { a: "A", b: "B" } } });
  let answers = 0;
  const routes = { "GET /sandbox/report": (request) => {
    answers += 1;
    const account = new URLSearchParams(request.query).get("account") || "sandbox_login";
    if (request.headers["If-None-Match"] === '"v1-' + account + '"') return { status: 304 };
    return { json: report(account), headers: { ETag: '"v1-' + account + '"' } };
  } };
  const page = await load({ hash: "#/report", routes });
  const reports = () => page.requests.filter((r) => r.path === "/sandbox/report");
  assert.equal(reports()[0].headers["If-None-Match"], undefined);
  assert.equal(page.$("report-headline-sandbox_login")?.textContent ?? page.document.querySelector("[data-testid=report-headline-sandbox_login]").textContent, "ok");
  page.$("report-accounts").firstChild = null;
  const drawn = page.$("report-accounts").children[0];
  page.poll();
  await page.settle();
  assert.equal(reports().pop().headers["If-None-Match"], '"v1-sandbox_login"');
  assert.equal(page.$("report-accounts").children[0], drawn, "a 304 drew the report again");
  await page.go("#/report/acme");
  const asked = reports().pop();
  assert.equal(asked.url, "/sandbox/report?account=acme");
  assert.equal(asked.headers["If-None-Match"], undefined, "another account's report was asked with the last one's ETag");
  assert.equal(page.$("report-all").hidden, false);
  // Leaving the view forgets the tag: back on it, the report is asked afresh.
  await page.go("#/cashouts");
  await page.go("#/report/acme");
  assert.equal(reports().pop().headers["If-None-Match"], undefined);
  assert.ok(answers >= 4);
});
