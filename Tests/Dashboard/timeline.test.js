// The timeline's renderer (timeline.js), on the standalone page and on a cashout's page. The fixtures are timelines
// recorded from real runs (fixtures/timeline-*.json, each the failing cashout's part of the page's JSON): a status
// query's answer lost to an injected fault and retried (explore-d24.json, seed 1, the worker-pool app with
// --bug late-rejection-ignored), a forged notification answered 200 (certify.json, naive_app.py), a late return after
// completion (certify.json, the worker-pool app's late-rejection bug), a clock stop ended by its limit (certify.json
// with every status query's answer lost, --quiet-limit 500ms); what is asserted is what the model says, so that a new
// recording may replace one.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const { load, read, Document } = require("./harness.js");

const RESOURCES = "Sources/SandboxContract/Dashboard/Resources/";
const NAMES = ["lost-answer", "forged-notification", "late-reversal", "clock-limit"];
const fixture = (name) => fs.readFileSync(path.join(__dirname, "fixtures", "timeline-" + name + ".json"), "utf8");
const LANES = ["app", "api", "bank"];

// The standalone page as TimelinePage.html(title:model:) fills it (TimelinePage.swift): the title as HTML text, the
// JSON with every `<` as \u003c.
function pageHTML(title, model) {
  const escape = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  const values = { TITLE: escape(title), STYLE: read(RESOURCES + "timeline.css"), SCRIPT: read(RESOURCES + "timeline.js"),
                   DATA: model.replace(/</g, "\\u003c") };
  return read(RESOURCES + "timeline.html").replace(/__([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)__/g, (_, name) => values[name]);
}

// Opens a filled page in the harness's fake DOM: its container and its data element as the page has them, then its
// script (the renderer and the boot line) run as the browser runs it.
function openPage(html) {
  const document = new Document();
  const root = document.createElement("html");
  document.append(root);
  const container = document.createElement("main");
  container.setAttribute("id", "timeline");
  const data = document.createElement("script");
  data.setAttribute("id", "timeline-data");
  data.textContent = /<script type="application\/json" id="timeline-data">([\s\S]*?)<\/script>/.exec(html)[1];
  root.append(container, data);
  const script = /<script>\n([\s\S]*?)<\/script>/.exec(html)[1];
  const context = vm.createContext({ document, console });
  vm.runInContext(script, context, { filename: "timeline.html" });
  return { document, container, Timeline: vm.runInContext("Timeline", context) };
}
const open = (name) => openPage(pageHTML(JSON.parse(fixture(name)).title, fixture(name)));

// What the model says, worked out here without the renderer.
const concerns = (entry, id) => (entry.cashouts || []).map(String).includes(String(id));
function expectedCashout(model) {
  const finding = model.findings[0];
  if (finding && finding.cashouts.length) return String(finding.cashouts[0]);
  return model.cashouts.length === 1 ? String(model.cashouts[0].cashout_id) : "";
}
const shownEntries = (model, id) => (id ? model.entries.filter((entry) => concerns(entry, id)) : model.entries);
const rowsOf = (container) => container.querySelectorAll("[data-testid=timeline-row]");
const text = (row) => row.querySelector(".tl-text").textContent;
function choose(container, id) {
  const select = container.querySelector("[data-testid=timeline-filter]");
  select.value = id;
  select.dispatchEvent({ type: "change" });
}

for (const name of NAMES) {
  test(`${name}: the findings on top, the payout chosen, one row per entry shown, in order, with the entry's text`, () => {
    const model = JSON.parse(fixture(name));
    const { container } = open(name);
    const root = container.children[0];
    const parts = root.children.map((child) => child.className);
    assert.ok(parts.indexOf("tl-findings") >= 0 && parts.indexOf("tl-findings") < parts.indexOf("tl-body"), parts.join());
    assert.equal(root.querySelector(".tl-title").textContent, model.title);
    const findings = container.querySelectorAll("[data-testid=timeline-finding]");
    assert.equal(findings.length, model.findings.length);
    if (model.findings.length) {
      assert.ok(findings[0].classList.contains("tl-first"), "the first finding is the prominent one");
      assert.equal(findings[0].querySelector(".tl-finding-id").textContent, model.findings[0].id);
      assert.equal(findings[0].querySelector(".tl-finding-text").textContent, model.findings[0].text);
      const chips = findings[0].querySelectorAll(".tl-chip").map((chip) => chip.textContent.split(" ")[0]);
      assert.deepEqual(chips, model.findings[0].cashouts.map(String));
    }
    const chosen = expectedCashout(model);
    assert.equal(container.querySelector("[data-testid=timeline-filter]").value, chosen);
    const summary = container.querySelector("[data-testid=timeline-summary]");
    assert.equal(summary ? summary.querySelector("[data-field=payout]").textContent.split(" ")[0] : "", chosen);
    const expected = shownEntries(model, chosen);
    const rows = rowsOf(container);
    assert.equal(rows.length, expected.length);
    assert.deepEqual(rows.map(text), expected.map((entry) => entry.text));
    assert.deepEqual(rows.map((row) => row.querySelector(".tl-event").title), expected.map((entry) => entry.text), "hover shows the text");
    assert.deepEqual(rows.map((row) => row.querySelector(".tl-at").textContent), expected.map((entry) => entry.at.slice(11, 23)));
    // Every payout shown: every entry, in the model's order.
    choose(container, "");
    assert.deepEqual(rowsOf(container).map(text), model.entries.map((entry) => entry.text));
    assert.equal(container.querySelector("[data-testid=timeline-summary]"), null);
  });

  test(`${name}: arrows between lanes, marks in theirs, injected entries marked, clock stops as bands`, () => {
    const model = JSON.parse(fixture(name));
    const { container } = open(name);
    choose(container, "");
    const rows = rowsOf(container);
    model.entries.forEach((entry, index) => {
      const row = rows[index], what = `entry ${index} (${entry.kind})`;
      assert.equal(row.getAttribute("data-kind"), entry.kind, what);
      const tag = row.querySelector(".tl-tag-injected");
      assert.equal(row.classList.contains("tl-injected"), entry.injected, what);
      assert.equal(tag ? tag.textContent : null, entry.injected ? "injected" : null, what);
      if (entry.from && entry.to) {
        const arrow = row.querySelector(".tl-arrow");
        assert.ok(arrow, what);
        assert.ok(arrow.classList.contains(LANES.indexOf(entry.to) > LANES.indexOf(entry.from) ? "tl-right" : "tl-left"), what);
      } else if (entry.kind === "clock_stop") {
        const band = row.querySelector(".tl-band");
        assert.ok(band, what);
        assert.equal(band.classList.contains("tl-warn"), entry.ended === "limit", what);
        assert.match(row.querySelector("[data-testid=timeline-ended]").textContent, new RegExp(entry.ended + "$"), what);
      } else {
        assert.ok(row.querySelector(".tl-mark.tl-col-" + LANES.indexOf(entry.lane)), what);
      }
    });
  });
}

test("lost-answer: the status query whose answer an injected fault lost, marked, then the app's retry answered", () => {
  const model = JSON.parse(fixture("lost-answer"));
  const lost = model.entries.findIndex((entry) => entry.kind === "request" && entry.injected);
  assert.ok(lost >= 0, "an injected request");
  const id = model.entries[lost].cashouts[0];
  const retry = model.entries.findIndex((entry, index) => index > lost && entry.kind === "request" && !entry.injected && concerns(entry, id));
  assert.ok(retry > lost, "a request after it, not injected");
  const { container } = open("lost-answer");
  choose(container, String(id));
  const rows = rowsOf(container), shown = shownEntries(model, id);
  const lostRow = rows[shown.indexOf(model.entries[lost])], retryRow = rows[shown.indexOf(model.entries[retry])];
  assert.ok(lostRow.classList.contains("tl-injected") && lostRow.querySelector(".tl-arrow.tl-right .tl-line"), "a dashed arrow, app to API");
  assert.ok(!retryRow.classList.contains("tl-injected") && retryRow.querySelector(".tl-arrow.tl-right"));
});

test("forged-notification: the forged notification, API to app, marked as injected; the finding names its payout", () => {
  const model = JSON.parse(fixture("forged-notification"));
  const forged = model.entries.find((entry) => entry.kind === "notification" && entry.injected);
  assert.ok(forged, "an injected notification");
  assert.ok(model.findings[0].cashouts.some((id) => concerns(forged, id)), "the finding is about its payout");
  const { container } = open("forged-notification");
  const row = rowsOf(container).find((r) => text(r) === forged.text);
  assert.ok(row.querySelector(".tl-arrow.tl-left") && row.querySelector(".tl-tag-injected"));
  // A finding's payout, chosen by its button.
  choose(container, "");
  container.querySelector(".tl-chip").click();
  assert.equal(container.querySelector("[data-testid=timeline-filter]").value, String(model.findings[0].cashouts[0]));
  assert.equal(rowsOf(container).length, shownEntries(model, model.findings[0].cashouts[0]).length);
});

test("late-reversal: a status change after completion, in the bank's lane, its day shown where the clock moved to another", () => {
  const model = JSON.parse(fixture("late-reversal"));
  const statuses = model.entries.filter((entry) => entry.kind === "status");
  const completed = statuses.findIndex((entry) => /COMPLETED$/.test(entry.text));
  assert.ok(completed >= 0 && completed < statuses.length - 1, "a status change after COMPLETED");
  const late = statuses[completed + 1];
  const { container } = open("late-reversal");
  const rows = rowsOf(container), shown = shownEntries(model, expectedCashout(model));
  const row = rows[shown.indexOf(late)];
  assert.ok(row.querySelector(".tl-mark.tl-col-2"), "a mark in the bank's lane");
  const before = shown[shown.indexOf(late) - 1];
  if (late.at.slice(0, 10) !== before.at.slice(0, 10)) {
    assert.equal(row.querySelector(".tl-day").textContent, late.at.slice(0, 10));
    assert.ok(row.classList.contains("tl-new-day"));
  }
  assert.equal(rows[0].querySelector(".tl-day").textContent, shown[0].at.slice(0, 10), "the first row's day");
});

test("clock-limit: the clock stop its limit ended is a warning", () => {
  const model = JSON.parse(fixture("clock-limit"));
  const stop = model.entries.find((entry) => entry.kind === "clock_stop" && entry.ended === "limit");
  assert.ok(stop, "a stop ended by its limit");
  const { container } = open("clock-limit");
  choose(container, "");
  const row = rowsOf(container)[model.entries.indexOf(stop)];
  assert.ok(row.querySelector(".tl-band.tl-warn.tl-ended-limit"));
  assert.ok(row.querySelector(".tl-tag-limit"));
  assert.equal(row.querySelectorAll(".tl-warn").length, 1);
  assert.equal(container.querySelectorAll(".tl-warn").length, model.entries.filter((e) => e.ended === "limit").length);
});

test("a row opens its details on a click or Enter: the entry's details as text, the request first; one open at a time", () => {
  const model = JSON.parse(fixture("lost-answer"));
  const { container } = open("lost-answer");
  choose(container, "");
  const rows = rowsOf(container);
  const withDetails = model.entries.map((entry, index) => [entry, index]).filter(([entry]) => entry.details && Object.keys(entry.details).length);
  const [entry, index] = withDetails[0];
  const panel = rows[index].querySelector("[data-testid=timeline-details]");
  assert.equal(panel.hidden, true);
  rows[index].querySelector(".tl-event").click();
  assert.equal(panel.hidden, false);
  assert.equal(rows[index].querySelector(".tl-event").getAttribute("aria-expanded"), "true");
  assert.equal(panel.querySelector(".tl-details-text").textContent, entry.text);
  const shown = Object.fromEntries(panel.querySelectorAll("pre").map((pre) => [pre.getAttribute("data-detail"), pre.textContent]));
  assert.deepEqual(shown, entry.details);
  const order = panel.querySelectorAll("h4").map((h4) => h4.textContent);
  if (order.includes("request") && order.includes("answer")) assert.ok(order.indexOf("request") < order.indexOf("answer"), order.join());
  // Another row, by its key: the first closes.
  const other = withDetails[1][1];
  rows[other].querySelector(".tl-event").dispatchEvent({ type: "keydown", key: "Enter", preventDefault() {} });
  assert.equal(panel.hidden, true);
  assert.equal(rows[other].querySelector("[data-testid=timeline-details]").hidden, false);
  // Its close button, and Enter again on a row, close it.
  rows[other].querySelector(".tl-close").click();
  assert.equal(rows[other].querySelector("[data-testid=timeline-details]").hidden, true);
  rows[index].querySelector(".tl-event").dispatchEvent({ type: "keydown", key: "Enter", preventDefault() {} });
  rows[index].querySelector(".tl-event").dispatchEvent({ type: "keydown", key: "Enter", preventDefault() {} });
  assert.equal(panel.hidden, true);
});

test("the helpers: times, the entries a payout's filter shows, the payout chosen first", () => {
  const { Timeline } = open("forged-notification");
  assert.equal(Timeline.clock("2026-01-05T09:00:05.000Z"), "09:00:05.000");
  assert.equal(Timeline.clock("2026-01-05T09:00:05Z"), "09:00:05.000");
  assert.equal(Timeline.clock("2026-01-05T09:00:05.2Z"), "09:00:05.200");
  assert.equal(Timeline.clock(null), "—");
  assert.equal(Timeline.day("2026-01-07T09:00:15.000Z"), "2026-01-07");
  assert.equal(Timeline.real(1204), "+1.204s");
  assert.equal(Timeline.real(0), "+0.000s");
  assert.equal(Timeline.real(-5), "-0.005s");
  assert.equal(Timeline.real(null), "—");
  for (const name of NAMES) {
    const model = JSON.parse(fixture(name));
    assert.equal(Timeline.initialCashout(model), expectedCashout(model), name);
    for (const cashout of [...model.cashouts.map((c) => c.cashout_id), ""]) {
      assert.equal(Timeline.visible(model, cashout).length, shownEntries(model, cashout).length, name + " " + cashout);
      assert.equal(Timeline.visible(model, String(cashout)).length, shownEntries(model, cashout).length, "an id as text too");
    }
  }
  assert.deepEqual({ ...Timeline.shape({ from: "app", to: "api" }) }, { kind: "arrow", from: 0, to: 1 });
  assert.deepEqual({ ...Timeline.shape({ kind: "clock_stop", lane: "clock" }) }, { kind: "band" });
  assert.deepEqual({ ...Timeline.shape({ kind: "status", lane: "bank" }) }, { kind: "mark", lane: 2 });
});

test("server text stays text; a model without findings, cashouts or entries draws", () => {
  const hostile = "<img src=x onerror=alert(1)></script><!--";
  const model = { title: hostile, started_at: null, findings: [{ id: hostile, text: hostile, cashouts: [7] }], cashouts: [],
                  entries: [{ at: "2026-01-05T09:00:00.000Z", real_ms: null, kind: "request", from: "app", to: "api", text: hostile, cashouts: [7],
                              injected: false, details: { request: hostile } }] };
  const { container } = openPage(pageHTML(hostile, JSON.stringify(model)));
  assert.equal(container.querySelector(".tl-title").textContent, hostile);
  assert.equal(text(rowsOf(container)[0]), hostile);
  assert.equal(rowsOf(container)[0].querySelector(".tl-real").textContent, "—", "real time not known");
  assert.equal(container.querySelectorAll("img").length, 0);
  rowsOf(container)[0].querySelector(".tl-event").click();
  assert.equal(container.querySelector("pre").textContent, hostile);
  const empty = openPage(pageHTML("t", "{}")).container;
  assert.equal(rowsOf(empty).length, 0);
  assert.equal(empty.querySelector(".tl-empty").textContent, "No entries.");
  assert.equal(empty.querySelector(".tl-findings .tl-none").textContent, "No findings.");
});

test("timeline.js: one name, no HTML from data, no inline style, no network", () => {
  const source = read(RESOURCES + "timeline.js");
  const code = source.split("\n").filter((line) => !/^\s*\/\//.test(line)).join("\n").trim();
  assert.match(code, /^const Timeline = \(function \(\) \{[\s\S]*\}\)\(\);$/);
  for (const banned of ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", ".style", "\"style\"", "fetch(", "XMLHttpRequest",
                        "import(", "</script", "<!--"]) {
    assert.ok(!source.includes(banned), banned);
  }
  const page = read(RESOURCES + "timeline.html");
  assert.doesNotMatch(page, /\b(src|href)=/);
});

// MARK: - On a cashout's page

const cashout = { cashout_id: 1000004, dialect: "d24", merchant: "sandbox_login", external_id: "order-4", country: "BR", amount: "104.00",
                  currency: "BRL", status: "COMPLETED", created_at: "2026-01-05T09:00:00Z", history: [] };

test("a cashout's page draws its timeline from the endpoint, with the admin token, and again only when it changes", async () => {
  const model = JSON.parse(fixture("forged-notification"));
  let body = JSON.stringify(model);
  const routes = { "GET /sandbox/cashouts/1000004": { json: cashout }, "GET /sandbox/cashouts/1000004/timeline": () => ({ text: body }) };
  const page = await load({ hash: "#/cashouts/1000004", routes });
  const container = page.$("timeline");
  const chosen = expectedCashout(model);
  assert.equal(rowsOf(container).length, shownEntries(model, chosen).length);
  assert.equal(container.querySelector(".tl-title"), null, "the card has its own title");
  assert.equal(container.querySelector("[data-testid=timeline-finding] .tl-finding-id").textContent, model.findings[0].id);
  // The user's choices: every payout, a row opened.
  choose(container, "");
  rowsOf(container)[2].querySelector(".tl-event").click();
  const drawn = container.children[0];
  page.run("sessionStorage.setItem('cashout-sandbox-admin-token', 'secret-token')");
  page.poll();
  await page.settle();
  const asked = page.requests.filter((r) => r.path === "/sandbox/cashouts/1000004/timeline");
  assert.equal(asked.pop().headers.Authorization, "Bearer secret-token");
  assert.equal(container.children[0], drawn, "the same answer: not drawn again");
  // A new entry, before the row opened (entries are in time order): drawn again, the choices kept.
  const opened = model.entries[2];
  model.entries.unshift({ ...model.entries[0], text: "one more" });
  body = JSON.stringify(model);
  page.poll();
  await page.settle();
  assert.notEqual(container.children[0], drawn);
  assert.equal(container.querySelector("[data-testid=timeline-filter]").value, "");
  assert.deepEqual(rowsOf(container).map(text), model.entries.map((entry) => entry.text));
  const open = rowsOf(container).filter((row) => !row.querySelector("[data-testid=timeline-details]").hidden);
  assert.deepEqual(open.map(text), [opened.text], "the row opened stays open");
  assert.equal(open[0].getAttribute("data-index"), "3");
});

test("a cashout's timeline is asked again with its ETag: a 304 leaves it as drawn", async () => {
  const model = JSON.parse(fixture("late-reversal"));
  let answer = { text: JSON.stringify(model), headers: { ETag: '"c1000004-r1.0-2-0-0-s0"' } };
  const routes = { "GET /sandbox/cashouts/1000004": { json: cashout }, "GET /sandbox/cashouts/1000004/timeline": () => answer };
  const page = await load({ hash: "#/cashouts/1000004", routes });
  const drawn = page.$("timeline").children[0];
  answer = { status: 304, text: "", headers: { ETag: '"c1000004-r1.0-2-0-0-s0"' } };
  page.poll();
  await page.settle();
  const asked = page.requests.filter((r) => r.path === "/sandbox/cashouts/1000004/timeline");
  assert.equal(asked.pop().headers["If-None-Match"], '"c1000004-r1.0-2-0-0-s0"');
  assert.equal(page.$("timeline").children[0], drawn, "a 304: not drawn again");
  assert.equal(rowsOf(page.$("timeline")).length, shownEntries(model, expectedCashout(model)).length);
});

test("a cashout's page without a timeline says so in its card; another cashout's page starts afresh", async () => {
  const routes = { "GET /sandbox/cashouts/1000004": { json: cashout },
                   "GET /sandbox/cashouts/5": { json: { ...cashout, cashout_id: 5 } },
                   "GET /sandbox/cashouts/5/timeline": { status: 404, json: { message: "There is no cashout 5" } },
                   "GET /sandbox/cashouts/1000004/timeline": { text: fixture("late-reversal") } };
  const page = await load({ hash: "#/cashouts/5", routes });
  assert.equal(page.$("timeline-missing").hidden, false);
  assert.equal(page.$("timeline-missing").textContent, "No timeline for cashout 5.");
  assert.equal(page.$("timeline").children.length, 0);
  await page.go("#/cashouts/1000004");
  assert.equal(page.$("timeline-missing").hidden, true);
  assert.ok(rowsOf(page.$("timeline")).length > 0);
});

test("past three findings the rest fold under one line, each still there", () => {
  const model = JSON.parse(fixture("lost-answer"));
  const finding = model.findings[0];
  model.findings = [0, 1, 2, 3, 4].map((n) => ({ ...finding, id: finding.id + "-" + n }));
  const { container } = openPage(pageHTML(model.title, JSON.stringify(model)));
  const folded = container.querySelector(".tl-more-findings");
  assert.ok(folded, "a fold");
  assert.equal(folded.querySelector("summary").textContent, "2 more findings");
  assert.equal(folded.querySelectorAll("[data-testid=timeline-finding]").length, 2);
  assert.equal(container.querySelectorAll("[data-testid=timeline-finding]").length, 5);
});

test("a run's cases fold under a line that names the failed ones, each a line, a failed one's failures under it", () => {
  const model = JSON.parse(fixture("late-reversal"));
  model.cases = [
    { name: "completes", verdict: "passed", steps: [1, 19], failures: [], skipped: [], remarks: [], cashouts: [1000001] },
    { name: "reversed", verdict: "failed", steps: [4, 22], failures: ["step 26: expect_reconciled: ledger_mismatch: <b>x</b>"],
      skipped: ["step 30: skipped: `a` was never created (step 4 failed)"], remarks: [], cashouts: [1000002] },
    { name: "read it", verdict: "skipped", steps: [5], failures: [], skipped: ["step 5: skipped: `id` was never saved (step 1 failed)"],
      remarks: [], cashouts: [] },
  ];
  const { container } = openPage(pageHTML(model.title, JSON.stringify(model)));
  const box = container.querySelector("[data-testid=timeline-cases]");
  assert.ok(box, "the cases");
  assert.equal(box.querySelector("summary").textContent, "1 of 3 cases passed; failed: reversed");
  const lines = box.querySelectorAll("[data-testid=timeline-case]");
  assert.deepEqual(lines.map((line) => line.querySelector(".tl-verdict").textContent + " " + line.querySelector(".tl-case-name").textContent),
                   ["PASS completes", "FAIL reversed", "SKIP read it"]);
  assert.deepEqual(lines[1].querySelectorAll(".tl-case-failures li").map((item) => item.textContent),
                   ["step 26: expect_reconciled: ledger_mismatch: <b>x</b>", "step 30: skipped: `a` was never created (step 4 failed)"]);
  // A model without cases (a cashout's page in the dashboard) has none.
  const bare = openPage(pageHTML(model.title, fixture("late-reversal"))).container;
  assert.equal(bare.querySelector("[data-testid=timeline-cases]"), null);
});
