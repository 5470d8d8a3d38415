  // The timeline of what happened to payouts (the timeline model, version 1: GET /sandbox/cashouts/{id}/timeline,
  // and the page TimelinePage.swift writes): the findings first, a payout filter, then one row per entry, oldest
  // first, across three lanes (your app, the sandbox's API, the bank): requests, notifications and ledger reads as
  // arrows between lanes, status changes and findings as marks in a lane, the clock's stops as bands across them.
  //
  // One file for two homes: the standalone page (no core.js there, so nothing of the dashboard's is used) and the
  // dashboard's closure (Dashboard+Assets.swift), where it comes before pages.js. It declares one name, `Timeline`.
  // Every sentence shown is the model's (`text`, `title`, a finding's `text`): the renderer only lays them out, and
  // only through `textContent` and attributes (server data is never HTML). No inline style either: the dashboard's
  // Content-Security-Policy forbids it, so the look is all classes (timeline.css, each class `tl-`).
  const Timeline = (function () {
    "use strict";
    const LANES = ["app", "api", "bank"];
    const LANE_NAMES = { app: "Your app", api: "Sandbox API", bank: "Bank" };

    // An element of `tag` with `className` and, unless null or undefined, `text` as its text.
    function h(tag, className, text) {
      const node = document.createElement(tag);
      if (className) node.className = className;
      if (text !== null && text !== undefined) node.textContent = String(text);
      return node;
    }
    function add(parent, ...children) {
      for (const child of children) if (child) parent.append(child);
      return parent;
    }
    const given = (value) => value !== null && value !== undefined && value !== "";
    const orDash = (value) => (given(value) ? String(value) : "—");
    // A payout's id as the filter keeps it: ids are numbers in the model, strings in a select.
    const key = (id) => (given(id) ? String(id) : "");
    const concerns = (entry, id) => (entry.cashouts || []).some((cashout) => key(cashout) === key(id));

    // MARK: - The pure helpers (tests call them)

    // The entries a filter shows, oldest first as the model has them: every entry, or those of one payout.
    function visible(model, cashoutId) {
      const entries = (model && model.entries) || [];
      return given(cashoutId) ? entries.filter((entry) => concerns(entry, cashoutId)) : entries.slice();
    }
    // The virtual time of an ISO 8601 instant, as HH:MM:SS.mmm (the clock reads UTC); "—" for none.
    function clock(at) {
      const match = /T(\d{2}:\d{2}:\d{2})(?:[.,](\d+))?/.exec(String(at || ""));
      return match ? match[1] + "." + ((match[2] || "") + "000").slice(0, 3) : "—";
    }
    // The date of an ISO 8601 instant (YYYY-MM-DD), shown where the day changes; "" for none.
    function day(at) {
      const match = /^(\d{4}-\d{2}-\d{2})T/.exec(String(at || ""));
      return match ? match[1] : "";
    }
    // Real time since the run started, `real_ms` as "+1.204s"; "—" when not known (null).
    function real(ms) {
      if (typeof ms !== "number" || !isFinite(ms)) return "—";
      return (ms < 0 ? "-" : "+") + (Math.abs(ms) / 1000).toFixed(3) + "s";
    }
    // The payout the filter starts with: the first finding's first, else the only payout, else all ("").
    function initialCashout(model) {
      const finding = ((model && model.findings) || [])[0];
      if (finding && finding.cashouts && finding.cashouts.length) return key(finding.cashouts[0]);
      const cashouts = (model && model.cashouts) || [];
      return cashouts.length === 1 ? key(cashouts[0].cashout_id) : "";
    }
    // Every payout the model names: its `cashouts`, then any a finding or an entry names without a record.
    function payouts(model) {
      const list = ((model && model.cashouts) || []).map((cashout) => ({ id: key(cashout.cashout_id), cashout: cashout }));
      const seen = new Set(list.map((payout) => payout.id));
      const more = [...((model && model.findings) || []), ...((model && model.entries) || [])].flatMap((item) => item.cashouts || []);
      for (const id of more.map(key)) {
        if (id && !seen.has(id)) { seen.add(id); list.push({ id: id, cashout: null }); }
      }
      return list;
    }
    // How an entry is drawn: an arrow from lane to lane (`from`, `to`: indexes in LANES), a mark in one lane, or a
    // band across them all (the clock's lane). An entry with lanes the renderer does not know is a mark in the API's.
    function shape(entry) {
      const from = LANES.indexOf(entry.from), to = LANES.indexOf(entry.to);
      if (from >= 0 && to >= 0 && from !== to) return { kind: "arrow", from: from, to: to };
      if (entry.lane === "clock" || entry.kind === "clock_stop") return { kind: "band" };
      const lane = LANES.indexOf(entry.lane);
      return { kind: "mark", lane: lane >= 0 ? lane : (to >= 0 ? to : 1) };
    }
    // What identifies an entry across two answers of the same timeline (its index may change).
    const rowKey = (entry) => (entry ? [entry.at, entry.real_ms, entry.kind, entry.text].join("\u0000") : "");
    // A word of the model as a class name's part (`kind`, `ended`): letters, digits, _ and - only.
    const word = (value) => String(value || "").replace(/[^A-Za-z0-9_-]/g, "");

    // MARK: - Drawing

    // Draws `model` into `container` (its children replaced). `options.state` (what an earlier render returned)
    // keeps the payout chosen (`cashout`: an id, "" for all) and the row opened (`row`: its index in the model's
    // entries, `rowKey`: what it is); `options.title: false` leaves the model's title out (a page that has its own). Returns the state,
    // which the user's choices change from then on: pass it to the next render to keep them.
    function render(container, model, options) {
      model = model || {};
      options = options || {};
      const state = options.state || {};
      if (typeof state.cashout !== "string") state.cashout = initialCashout(model);
      if (typeof state.row !== "number") state.row = null;
      // The row opened is found again by what it is: entries made in time order may have been added before it.
      if (state.row !== null && state.rowKey !== undefined && rowKey((model.entries || [])[state.row]) !== state.rowKey) {
        const found = (model.entries || []).findIndex((entry) => rowKey(entry) === state.rowKey);
        state.row = found >= 0 ? found : null;
      }
      const all = payouts(model);
      if (state.cashout && !all.some((payout) => payout.id === state.cashout)) state.cashout = "";

      const root = h("div", "tl");
      root.setAttribute("data-testid", "timeline-root");
      if (options.title !== false && given(model.title)) {
        add(root, add(h("div", "tl-heading"), h("h1", "tl-title", model.title),
                      given(model.started_at) ? h("span", "tl-started", "started " + String(model.started_at).replace("T", " ")) : null));
      }
      const body = h("div", "tl-body");
      const select = filter(all, state);
      add(root, model.cases && model.cases.length ? cases(model.cases) : null, findings(model.findings || [], all, (id) => choose(id)),
          add(h("div", "tl-toolbar"), select.label, select.count), legend(), body);
      container.replaceChildren(root);
      draw();
      return state;

      // The summary and the lanes for the payout chosen.
      function draw() {
        const entries = visible(model, state.cashout);
        select.count.textContent = entries.length + " of " + (model.entries || []).length + " entries";
        if (state.row !== null && !entries.includes((model.entries || [])[state.row])) state.row = null;
        body.replaceChildren(...[summary(all.find((payout) => payout.id === state.cashout)), lanes(model, entries, state)].filter(Boolean));
      }
      function choose(id) {
        state.cashout = key(id);
        select.input.value = state.cashout;
        draw();
      }
      function filter(list, current) {
        const input = h("select", "tl-filter");
        input.setAttribute("data-testid", "timeline-filter");
        input.setAttribute("aria-label", "Payout");
        const none = h("option", null, "All payouts");
        none.setAttribute("value", "");
        input.append(none);
        for (const payout of list) {
          const option = h("option", null, payout.id + (payout.cashout && given(payout.cashout.name) ? " " + payout.cashout.name : ""));
          option.setAttribute("value", payout.id);
          input.append(option);
        }
        input.value = current.cashout;
        input.addEventListener("change", () => choose(input.value));
        const label = add(h("label", "tl-filter-label", "Payout "), input);
        return { input: input, label: label, count: h("span", "tl-count") };
      }
    }

    // The suite's cases (a run's page: the Testing your app guide, "Cases"), a line each, a failed one's failures under it;
    // folded under a line that names the failed ones, so that the lanes start near the top.
    function cases(list) {
      const passed = list.filter((c) => c.verdict === "passed").length;
      const failed = list.filter((c) => c.verdict === "failed").map((c) => c.name);
      const box = h("details", "tl-cases");
      box.setAttribute("data-testid", "timeline-cases");
      add(box, h("summary", "tl-more", passed + " of " + list.length + " case" + (list.length === 1 ? "" : "s") + " passed"
                 + (failed.length ? "; failed: " + failed.join(", ") : "")));
      const items = add(h("ul", "tl-case-list"), ...list.map((c) => {
        const item = add(h("li", "tl-case tl-" + c.verdict), h("span", "tl-verdict", { passed: "PASS", failed: "FAIL", skipped: "SKIP" }[c.verdict]),
                         " ", h("span", "tl-case-name", c.name));
        item.setAttribute("data-testid", "timeline-case");
        const told = [...(c.failures || []), ...(c.skipped || [])];
        if (told.length) item.append(add(h("ul", "tl-case-failures"), ...told.map((text) => h("li", null, text))));
        return item;
      }));
      return add(box, items);
    }

    // The findings, first one prominent: its id, its text and the payouts it names (each a button that filters).
    // Past the first three, the rest fold under "N more findings", so that the lanes start near the top at 800px.
    const SHOWN_FINDINGS = 3;
    function findings(list, all, choose) {
      const section = h("section", "tl-findings");
      section.setAttribute("data-testid", "timeline-findings");
      if (!list.length) return add(section, h("p", "tl-none", "No findings."));
      let fold = null;
      list.forEach((finding, index) => {
        const box = h("div", "tl-finding" + (index === 0 ? " tl-first" : ""));
        box.setAttribute("data-testid", "timeline-finding");
        const head = add(h("div", "tl-finding-head"), h("span", "tl-finding-id", finding.id));
        for (const id of (finding.cashouts || []).map(key)) {
          const payout = all.find((p) => p.id === id);
          const chip = h("button", "tl-chip", id + (payout && payout.cashout && given(payout.cashout.name) ? " " + payout.cashout.name : ""));
          chip.setAttribute("type", "button");
          chip.title = "Show payout " + id;
          chip.addEventListener("click", () => choose(id));
          head.append(chip);
        }
        add(box, head, h("p", "tl-finding-text", finding.text));
        if (index < SHOWN_FINDINGS) {
          section.append(box);
          return;
        }
        if (!fold) {
          const rest = list.length - SHOWN_FINDINGS;
          fold = add(h("details", "tl-more-findings"), h("summary", "tl-more", rest + " more finding" + (rest === 1 ? "" : "s")));
          section.append(fold);
        }
        fold.append(box);
      });
      return section;
    }

    // What each kind of line means (the labels on the lines are the model's).
    function legend() {
      const box = h("div", "tl-legend");
      box.setAttribute("aria-hidden", "true");
      for (const [kind, name] of [["request", "request"], ["notification", "notification"], ["ledger", "ledger read"],
                                  ["injected", "injected fault"], ["clock_stop", "clock stopped"], ["limit", "stop hit its limit"]]) {
        box.append(add(h("span", "tl-legend-item"), h("span", "tl-swatch tl-swatch-" + kind), h("span", null, name)));
      }
      return box;
    }

    // The payout chosen: its id and name, API, account, reference, amount and status.
    function summary(payout) {
      if (!payout) return null;
      const c = payout.cashout || {};
      const box = h("dl", "tl-summary");
      box.setAttribute("data-testid", "timeline-summary");
      const pairs = [["payout", payout.id + (given(c.name) ? " " + c.name : "")], ["api", c.api], ["account", c.account],
                     ["reference", c.reference], ["amount", given(c.amount) ? c.amount + (given(c.currency) ? " " + c.currency : "") : null],
                     ["status", c.status]];
      for (const [name, value] of pairs) {
        const dd = h("dd", name === "status" ? "tl-status" : null, orDash(value));
        dd.setAttribute("data-field", name);
        box.append(add(h("div", "tl-pair"), h("dt", null, name), dd));
      }
      return box;
    }

    // The lanes: a header, then one row per entry (its times in the gutter), each opening its details.
    function lanes(model, entries, state) {
      const scroll = h("div", "tl-scroll");
      const grid = h("div", "tl-lanes");
      grid.setAttribute("data-testid", "timeline-lanes");
      const head = h("div", "tl-head");
      head.append(add(h("div", "tl-gutter"), h("span", "tl-at", "virtual"), h("span", "tl-real", "real")));
      LANES.forEach((lane, index) => head.append(h("div", "tl-lane-name tl-col-" + index, LANE_NAMES[lane])));
      grid.append(head);
      if (!entries.length) grid.append(h("p", "tl-empty", "No entries."));
      const indexes = new Map((model.entries || []).map((entry, index) => [entry, index]));
      // Showing every payout of several, each row names its payouts.
      const several = !state.cashout && payouts(model).length > 1;
      const rows = [];
      let lastDay = "";
      for (const entry of entries) {
        const today = day(entry.at);
        rows.push(row(entry, indexes.get(entry), { day: today !== lastDay ? today : "", first: !lastDay, several: several },
                      (r) => { toggle(r); r.event.focus(); }));
        lastDay = today;
      }
      // One row open at a time: opening one closes the one open.
      function toggle(target) {
        const open = state.row === target.index ? null : target.index;
        state.row = open;
        state.rowKey = open === null ? undefined : rowKey((model.entries || [])[open]);
        for (const r of rows) r.show(r.index === open);
      }
      for (const r of rows) {
        r.event.addEventListener("click", () => toggle(r));
        r.event.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            toggle(r);
          } else if (event.key === "Escape" && state.row === r.index) {
            toggle(r);
          }
        });
        r.show(state.row === r.index);
        grid.append(r.wrapper);
      }
      return add(scroll, grid);
    }

    // One entry's row: the gutter (the day where it changes, the virtual and the real time), the lanes' lines, the
    // entry drawn as its shape, and its details (hidden until opened).
    function row(entry, index, where, close) {
      const form = shape(entry), text = given(entry.text) ? String(entry.text) : "";
      const wrapper = h("div", "tl-entry tl-kind-" + word(entry.kind) + (entry.injected ? " tl-injected" : "")
                               + (where.day && !where.first ? " tl-new-day" : ""));
      wrapper.setAttribute("data-index", String(index));
      wrapper.setAttribute("data-kind", word(entry.kind));
      wrapper.setAttribute("data-testid", "timeline-row");
      const event = h("div", "tl-event");
      event.setAttribute("tabindex", "0");
      event.setAttribute("role", "button");
      event.title = text;
      const gutter = h("div", "tl-gutter");
      if (where.day) gutter.append(h("span", "tl-day", where.day));
      add(gutter, h("span", "tl-at", clock(entry.at)), h("span", "tl-real", real(entry.real_ms)),
          where.several ? h("span", "tl-who", (entry.cashouts || []).join(" ")) : null);
      event.append(gutter);
      LANES.forEach((lane, lindex) => event.append(h("div", "tl-lane tl-col-" + lindex)));
      const label = h("span", "tl-text", text);
      label.setAttribute("data-testid", "timeline-text");
      const injected = entry.injected ? h("span", "tl-tag tl-tag-injected", "injected") : null;
      if (form.kind === "arrow") {
        const low = Math.min(form.from, form.to), high = Math.max(form.from, form.to);
        const arrow = h("div", "tl-arrow tl-cols-" + low + high + (form.to > form.from ? " tl-right" : " tl-left"));
        add(arrow, add(h("div", "tl-label"), injected, label), h("div", "tl-line"));
        event.append(arrow);
      } else if (form.kind === "band") {
        const ended = word(entry.ended);
        const band = h("div", "tl-band" + (ended ? " tl-ended-" + ended : "") + (ended === "limit" ? " tl-warn" : ""));
        const tag = ended ? h("span", "tl-tag tl-tag-" + ended, (ended === "limit" ? "⚠ " : "") + ended) : null;
        if (tag) tag.setAttribute("data-testid", "timeline-ended");
        add(band, injected, tag, label);
        event.append(band);
      } else {
        event.append(add(h("div", "tl-mark tl-col-" + form.lane), add(h("span", "tl-pill"), injected, label)));
      }
      const details = h("div", "tl-details");
      details.setAttribute("data-testid", "timeline-details");
      details.hidden = true;
      add(wrapper, event, details);
      const r = { wrapper: wrapper, event: event, index: index, show: null };
      r.show = (open) => {
        wrapper.classList.toggle("tl-open", open);
        event.setAttribute("aria-expanded", String(open));
        if (open && !details.childNodes.length) fillDetails(details, entry, () => close(r));
        details.hidden = !open;
      };
      return r;
    }

    // An entry's details: its text, when and for which payouts, then each of its `details` (request and answer
    // bodies, headers) in a <pre>, as text.
    function fillDetails(panel, entry, close) {
      const head = add(h("div", "tl-details-head"), h("strong", "tl-details-text", entry.text));
      const button = h("button", "tl-close", "×");
      button.setAttribute("type", "button");
      button.setAttribute("aria-label", "Close");
      button.addEventListener("click", close);
      head.append(button);
      const facts = h("dl", "tl-facts");
      const pairs = [["kind", entry.kind], ["virtual time", entry.at], ["real time", real(entry.real_ms)],
                     ["payouts", (entry.cashouts || []).join(", ")]];
      if (entry.injected) pairs.push(["injected", "yes"]);
      if (given(entry.ended)) pairs.push(["ended", entry.ended]);
      if (given(entry.lasted_ms)) pairs.push(["lasted", entry.lasted_ms + " ms"]);
      for (const [name, value] of pairs) facts.append(add(h("div", "tl-pair"), h("dt", null, name), h("dd", null, orDash(value))));
      add(panel, head, facts);
      const details = entry.details && typeof entry.details === "object" ? entry.details : {};
      // The request before its answer, whatever order the JSON's keys came in; the rest as they came.
      const names = Object.keys(details).sort((a, b) => rank(a) - rank(b));
      if (!names.length) panel.append(h("p", "tl-none", "No details recorded."));
      for (const name of names) {
        const value = details[name];
        const pre = h("pre", "tl-pre", typeof value === "string" ? value : JSON.stringify(value, null, 2));
        pre.setAttribute("data-detail", name);
        panel.append(add(h("div", "tl-detail"), h("h4", null, name), pre));
      }
    }

    const DETAIL_ORDER = ["request", "to", "headers", "answer"];
    const rank = (name) => (DETAIL_ORDER.includes(name) ? DETAIL_ORDER.indexOf(name) : DETAIL_ORDER.length);

    return { render: render, visible: visible, clock: clock, day: day, real: real, shape: shape, initialCashout: initialCashout };
  })();
