// Hash routing (core.js): each hash's view, the sections shown, the active link, a malformed hash.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./harness.js");

test("each hash names its view, id, account or key", async () => {
  const page = await load({ apis: ["d24", "mannco", "prism"] });
  const cases = {
    "": { view: "cashouts" }, "#/": { view: "cashouts" }, "#/cashouts": { view: "cashouts", key: null }, "#/cashouts/42": { view: "cashout", id: "42" },
    "#/new": { view: "new", key: null }, "#/merchants": { view: "merchants", login: null }, "#/merchants/a%20b": { view: "merchants", login: "a b" },
    "#/requests/7": { view: "requests", key: "7" }, "#/webhooks/12": { view: "webhooks", key: "12" }, "#/report/acme": { view: "report", key: "acme" },
    "#/users/765": { view: "users", key: "765" }, "#/emails": { view: "emails", key: null }, "#/payoutservice": { view: "payoutservice", key: null },
    "#/nowhere": { view: "cashouts" }, "#/cashouts/%E0%A4%A": { view: "cashouts", malformed: true },
  };
  for (const [hash, expected] of Object.entries(cases)) {
    page.location._hash = hash;
    assert.deepEqual(page.get("parseHash()"), expected, hash);
  }
});

test("an API's views are routes only when its part is served", async () => {
  const page = await load({ apis: ["d24"] });
  assert.deepEqual(page.get("VIEWS"), ["cashouts", "new", "merchants", "requests", "webhooks", "report"]);
  page.location._hash = "#/users/1";
  assert.deepEqual(page.get("parseHash()"), { view: "cashouts" });
});

test("a route shows its section alone, marks its link and says so on the body", async () => {
  const page = await load({ hash: "#/merchants/sandbox_login" });
  const shown = () => page.document.querySelectorAll("main > section.view").filter((s) => !s.hidden).map((s) => s.id);
  assert.deepEqual(shown(), ["view-merchants"]);
  assert.equal(page.document.body.getAttribute("data-view"), "merchants");
  assert.deepEqual(page.document.querySelectorAll(".nav a.active").map((a) => a.id), ["nav-merchants"]);
  await page.go("#/cashouts/5");
  assert.deepEqual(shown(), ["view-cashout"]);
  assert.deepEqual(page.document.querySelectorAll(".nav a.active").map((a) => a.id), ["nav-cashouts"], "a cashout's page is under Cashouts");
  await page.go("#/users");
  assert.deepEqual(shown(), ["view-users"]);
});

test("the Menu toggle shows every section's link, and going to one closes it", async () => {
  const page = await load({ hash: "#/cashouts" });
  const top = page.$("top"), toggle = page.$("menu-toggle");
  assert.equal(toggle.getAttribute("aria-controls"), "nav");
  assert.equal(toggle.getAttribute("aria-expanded"), "false");
  toggle.click();
  assert.equal(top.classList.contains("nav-open"), true);
  assert.equal(toggle.getAttribute("aria-expanded"), "true");
  toggle.click();
  assert.equal(top.classList.contains("nav-open"), false, "a second click closes it");
  toggle.click();
  await page.go("#/report");
  assert.equal(top.classList.contains("nav-open"), false, "closed on going to a section");
  assert.equal(toggle.getAttribute("aria-expanded"), "false");
});

test("a malformed hash shows the list with a notice, and becomes #/cashouts", async () => {
  const page = await load({ hash: "#/cashouts/%E0%A4%A" });
  assert.equal(page.run("state.view"), "cashouts");
  assert.equal(page.location.hash, "#/cashouts");
  assert.equal(page.$("notice").hidden, false);
  assert.match(page.$("notice").textContent, /^Not a page of this dashboard: #\/cashouts\/%E0%A4%A/);
});

test("a notice is about the page left: the next route clears it", async () => {
  const page = await load({ hash: "#/cashouts", routes: { "POST /sandbox/clock/advance": { status: 400, json: { message: "bad duration" } } } });
  page.$("advance-by").value = "soon";
  page.$("advance-form").submit();
  await page.settle();
  assert.equal(page.$("notice").textContent, "HTTP 400: bad duration");
  assert.equal(page.$("notice").hidden, false);
  assert.deepEqual(JSON.parse(page.requests.find((r) => r.method === "POST").body), { by: "soon" });
  await page.go("#/merchants");
  assert.equal(page.$("notice").hidden, true);
});
