  // The Report view, read on every refresh while it is shown; the hash names an account.
  // Drawn again only when the answer changes (a redraw every poll would undo a selection);
  // the last answer's ETag goes back as If-None-Match, and a 304 says nothing changed, so
  // a large report is not made again for every poll.
  let reportShown = null, reportTag = null;
  const plural = (count, word) => count + " " + word + (count === 1 ? "" : "s");
  const reportCounts = (errors, warnings) => errors || warnings ? plural(errors, "error") + ", " + plural(warnings, "warning") : "ok";
  // "; 6 of 8 checks not exercised": a clean report that exercised few checks judged little.
  const reportIdle = (idle, checks) => idle ? "; " + idle + " of " + plural(checks, "check") + " not exercised" : "";

  // The suite run against this sandbox (test --serve, show): a line per case, its failures under it (the Testing your app
  // guide, "Cases"). A sandbox that runs none answers 404: nothing shown.
  let suiteShown = null;
  refreshers.push(async (view, mine) => {
    if (view !== "report") { suiteShown = null; return; }
    const answer = await call("getSuite");
    if (stale(mine)) return;
    const suite = answer.ok && answer.json && Array.isArray(answer.json.cases) ? answer.json : null;
    const drawn = suite ? answer.text : "";
    if (drawn === suiteShown) return;
    suiteShown = drawn;
    $("suite").hidden = !suite;
    if (!suite) return;
    $("suite-state").className = "badge " + suite.state;
    $("suite-state").textContent = suite.state;
    const passed = suite.cases.filter((c) => c.verdict === "passed").length;
    $("suite-tally").textContent = suite.cases.length ? passed + " of " + plural(suite.cases.length, "case") + " passed"
      : suite.state === "running" ? "step " + suite.step + " of " + suite.steps : "";
    $("suite-cases").replaceChildren(...suite.cases.map((c) => el("li", { "data-testid": "suite-case-" + c.name, "data-verdict": c.verdict },
      el("span", { class: "badge " + c.verdict, text: { passed: "PASS", failed: "FAIL", skipped: "SKIP" }[c.verdict] || c.verdict }), " ",
      el("strong", { text: c.name }), " ",
      el("span", { class: "muted", text: c.steps.length ? (c.steps.length === 1 ? "step " : "steps ") + c.steps.join(", ") : "" }),
      c.cashouts.length ? el("span", { class: "muted" }, c.steps.length ? "; " : "", c.cashouts.length === 1 ? "cashout " : "cashouts ",
        ...c.cashouts.flatMap((id, index) => [index ? ", " : null, el("a", { href: "#/cashouts/" + encodeURIComponent(id), text: id })])) : null,
      c.failures.length + c.skipped.length + c.remarks.length
        ? el("ul", {}, ...[...c.failures, ...c.skipped, ...c.remarks].map((text) => el("li", { text: text }))) : null)));
  });

  refreshers.push(async (view, mine) => {
    if (view !== "report") { reportShown = reportTag = null; return; }
    const account = state.key;
    const tag = reportTag && reportTag.account === account ? { "If-None-Match": reportTag.tag } : undefined;
    const answer = await call("getReport", { query: account ? "account=" + encodeURIComponent(account) : "", headers: tag });
    if (stale(mine) || account !== state.key || answer.status === 304) return;
    const etag = answer.headers.get("ETag");
    reportTag = etag ? { account: account, tag: etag } : null;
    const drawn = account + "\n" + answer.status + "\n" + answer.text;
    if (drawn === reportShown) return;
    reportShown = drawn;
    $("report-all").hidden = !account;
    const report = answer.ok && answer.json && Array.isArray(answer.json.accounts) ? answer.json : null;
    // 409: the journal lost evidence; 404: no such account; anything else: what it said.
    $("report-unavailable").hidden = !!report;
    $("report-unavailable").textContent = report ? "" : answer.json && answer.json.unknowable
      ? "The report cannot be made: " + answer.json.message + "." : problem(answer);
    $("report-body").hidden = !report;
    $("report-at").textContent = report ? "at " + time(report.at) : "";
    if (!report) return;
    $("report-summary").replaceChildren(
      el("span", { class: "badge " + (report.ok ? "report-ok" : "sev-error"), "data-testid": "report-ok", text: report.ok ? "ok" : "not ok" }), " ",
      reportCounts(report.errors, report.warnings) + " in " + plural(report.accounts.length, "account")
        + reportIdle(report.not_exercised || 0, report.checks || 0));
    const index = [];
    $("report-accounts").replaceChildren(...report.accounts.map((a) => renderReportAccount(a, (report.check_descriptions || {})[a.dialect] || {}, index)));
    // Every finding at the top, errors first: one line each, a link to its details below.
    index.sort((x, y) => (x.f.severity === "error" ? 0 : 1) - (y.f.severity === "error" ? 0 : 1));
    $("report-index").replaceChildren(...index.map(({ a, f, node }) => el("li", { "data-testid": "report-index-" + a.account + "-" + f.id },
      el("span", { class: "badge sev-" + f.severity, text: f.severity }), " ",
      el("a", { href: "#/report/" + encodeURIComponent(a.account), class: "report-id",
                onclick: (event) => { event.preventDefault(); node.scrollIntoView({ block: "start" }); }, text: f.id }),
      el("span", { class: "muted", text: " " + (report.accounts.length > 1 ? a.account + ": " : "")
        + plural((f.occurrences || []).length, "occurrence") }))));
    $("report-index").hidden = index.length === 0;
    $("report-empty").hidden = report.accounts.length > 0;
  });

  function renderReportAccount(a, descriptions, index) {
    const errors = a.findings.filter((f) => f.severity === "error").length, warnings = a.findings.length - errors;
    const href = "#/report/" + encodeURIComponent(a.account);
    return el("div", { class: "card report-account", "data-testid": "report-account-" + a.account, "data-ok": String(errors === 0) },
      el("h2", {}, el("a", { href: href, text: a.account }), " ", el("span", { class: "badge sandbox", text: a.dialect }),
        a.known ? null : el("span", { class: "badge sev-warning", title: "The sandbox has no such account: a request named it", text: "unknown account" }),
        el("span", { class: "aside muted", text: plural(a.requests, "request") + ", " + plural(a.cashouts, "cashout") })),
      // An account without findings is ok; without a passed check too, that says little yet.
      el("p", { class: "report-headline " + (errors ? "bad" : warnings ? "warn" : a.passed.length ? "good" : "idle"),
                "data-testid": "report-headline-" + a.account,
                text: a.findings.length || a.passed.length
                  ? reportCounts(errors, warnings) + reportIdle(a.not_exercised.length, a.findings.length + a.passed.length + a.not_exercised.length)
                  : "ok (no check exercised yet)" }),
      ...a.findings.map((f) => { const node = renderFinding(a, f); index.push({ a: a, f: f, node: node }); return node; }),
      reportChecks("Passed", a.passed, descriptions, "report-passed-" + a.account),
      reportChecks("Not exercised", a.not_exercised, descriptions, "report-not-exercised-" + a.account));
  }

  function renderFinding(a, f) {
    const cashouts = f.cashouts || [];
    return el("div", { class: "report-finding", "data-testid": "report-finding-" + a.account + "-" + f.id, "data-severity": f.severity },
      el("div", { class: "report-finding-head" },
        el("span", { class: "badge sev-" + f.severity, text: f.severity }), el("code", { class: "report-id", text: f.id }),
        cashouts.length ? el("span", { class: "muted" }, cashouts.length === 1 ? "cashout " : "cashouts ",
          ...cashouts.flatMap((id, index) => [index ? ", " : null, el("a", { href: "#/cashouts/" + encodeURIComponent(id), text: id })])) : null),
      el("ul", { class: "report-occurrences" }, ...(f.occurrences || []).map((text) => el("li", { text: text }))),
      el("p", { class: "report-advice" }, el("strong", { text: "Advice: " }), f.advice),
      (f.evidence || []).length ? el("div", { class: "table-wrap" },
        el("table", { class: "list report-evidence" },
          el("thead", {}, el("tr", {}, el("th", { class: "hide-narrow", text: "At" }), el("th", { text: "Evidence" }),
            el("th", { text: "Answer" }))),
          el("tbody", {}, ...f.evidence.map(renderEvidence)))) : null);
  }

  // A request (linked to the Requests view), a delivery attempt (to its cashout's webhooks), or a
  // status change of the bank's (a reconciliation's evidence, to its cashout): an attempt of the
  // notification's own by its number, a chaos copy as the copy it is. What the evidence shows,
  // when it says (a request's note, a forged copy accepted), is under it.
  function renderEvidence(e) {
    if (e.kind === "status") {
      return el("tr", { "data-kind": e.kind },
        el("td", { class: "mono hide-narrow", text: time(e.at) }),
        el("td", { class: "text" }, el("a", { href: "#/cashouts/" + encodeURIComponent(e.cashout), text: "cashout " + e.cashout + " became " + e.status }),
          el("div", { class: "muted mono show-narrow", text: time(e.at) })),
        el("td", {}, el("span", { class: "muted", text: "by " + e.by })),
        el("td", { class: "text hide-narrow", text: "the bank's history" }));
    }
    const request = e.kind === "request";
    const attempt = e.attempt !== null && e.attempt !== undefined ? "attempt " + e.attempt
      : "copy" + (e.copy_of !== null && e.copy_of !== undefined ? " of attempt " + e.copy_of : "");
    const what = request
      ? el("a", { href: "#/requests/" + encodeURIComponent(e.id), text: "#" + e.id + " " + e.method + " " + e.path })
      : el("a", { href: "#/webhooks/" + encodeURIComponent(e.cashout), text: "notification " + e.notification + " (" + e.status + ") of cashout "
                   + e.cashout + ", " + attempt });
    const status = request ? e.status : e.answered;
    // A forged copy answered 2xx is the failure itself: red, not a 2xx's green.
    const accepted = !request && e.chaos === "forged" && status >= 200 && status < 300;
    const answer = status === null || status === undefined
      ? el("span", { class: "muted", text: request ? orDash(e.answer) : orDash(e.error) })
      : el("span", { class: "badge " + (accepted ? "sev-error" : httpClass(status)), "data-testid": accepted ? "report-forged-accepted" : null,
                     title: accepted ? "A forged notification answered " + status + ": it should have been refused with a 4xx" : null, text: status });
    const note = request ? e.note : accepted ? "forged: signed with a wrong key, and accepted" : null;
    return el("tr", { "data-kind": e.kind },
      el("td", { class: "mono hide-narrow", text: time(e.at) }),
      el("td", { class: "text" }, what, el("div", { class: "muted mono show-narrow", text: time(e.at) }),
        note ? el("div", { class: "muted report-note", text: note }) : null),
      el("td", {}, answer, e.chaos ? el("span", { class: "badge chaos", title: "Sent by webhook chaos", text: e.chaos }) : null));
  }

  // Each check by its id and what it looks for (and what exercises it), as the report describes it.
  function reportChecks(title, ids, descriptions, testid) {
    return el("div", { class: "report-checks" }, el("h3", { text: title }),
      (ids || []).length ? el("ul", { "data-testid": testid }, ...ids.map((id) => el("li", {}, el("code", { text: id }),
        descriptions[id] ? el("span", { class: "muted", text: ": " + descriptions[id] }) : null)))
        : el("p", { class: "empty", "data-testid": testid, text: "none" }));
  }
