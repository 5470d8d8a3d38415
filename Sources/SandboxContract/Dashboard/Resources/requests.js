  // The Requests view: the journal, read on every refresh while it is shown.
  const journal = { entries: [], shown: null };
  // A body as the journal keeps it: text, or base64 of bytes that are not UTF-8.
  const bodyText = (body, encoding, truncated) =>
    (encoding === "base64" ? "(binary, base64) " : "") + (body || "") + (truncated ? "\n… (truncated)" : "") || "(empty)";
  const headerPairs = (headers) => Object.keys(headers || {}).sort().map((name) => [name, headers[name]]);

  refreshers.push(async (view, mine) => {
    if (view !== "requests") return;
    const query = new URLSearchParams();
    if ($("requests-path").value.trim()) query.set("path", $("requests-path").value.trim());
    if ($("requests-status").value.trim()) query.set("status", $("requests-status").value.trim());
    const answer = await call("listRequests", { query: query });
    if (stale(mine)) return;
    const missing = answer.status === 404;
    $("requests-unavailable").hidden = !missing;
    $("requests-unavailable").textContent = missing ? "This sandbox keeps no request journal (" + routeOf("listRequests") + " answered HTTP 404)." : "";
    $("requests-body").hidden = missing;
    if (missing) return;
    if (!answer.ok || !answer.json) { $("requests-count").textContent = problem(answer); return; }
    journal.entries = answer.json.requests || [];
    $("requests-kept").textContent = answer.json.kept + " kept of " + answer.json.capacity;
    renderRequests();
  });
  viewShown.push(() => showRequest(null));

  function renderRequests() {
    $("requests-rows").replaceChildren(...journal.entries.map((r) => {
      const href = "#/requests/" + r.id, why = r.diagnosis ? r.diagnosis.check : r.near_miss ? "near miss" : null;
      const whyBadge = () => (why ? el("span", { class: "badge why", "data-testid": "request-why-" + r.id, text: why }) : null);
      return el("tr", { class: "link" + (String(r.id) === state.key ? " selected" : ""), "data-testid": "request-row-" + r.id, "data-id": r.id,
                        onclick: () => { location.hash = href; } },
        el("td", {}, el("a", { href: href, text: r.id })),
        el("td", { class: "mono hide-narrow", title: "received " + time(r.received_at), text: time(r.at) }),
        el("td", { class: "mono path" }, el("strong", { text: r.method + " " }), r.path + (r.query ? "?" + r.query : ""),
          why ? el("div", { class: "show-narrow" }, whyBadge()) : null),
        el("td", {}, el("span", { class: "badge " + httpClass(r.response.status), "data-testid": "request-status-" + r.id, text: r.response.status })),
        el("td", { class: "hide-narrow", text: r.route ? r.route + (r.dialect ? " (" + r.dialect + ")" : "") : "no route" }),
        el("td", { class: "hide-narrow" }, whyBadge() || "—"));
    }));
    $("requests-empty").hidden = journal.entries.length > 0;
    $("requests-count").textContent = journal.entries.length + (journal.entries.length === 1 ? " request" : " requests");
    // The one chosen stays shown (also when a filter hides its row) until another is chosen.
    const chosen = journal.entries.find((r) => String(r.id) === state.key) || (journal.shown && String(journal.shown.id) === state.key ? journal.shown : null);
    $("request-gone").hidden = !state.key || !!chosen;
    $("request-gone").textContent = state.key && !chosen
      ? "Request " + state.key + " is not among those listed: it was cleared, or pushed out of the journal, or is older than the newest " + journal.entries.length + "." : "";
    // Entries do not change once kept: one is drawn again only when another is chosen (a
    // redraw every poll would undo a selection of its text).
    if ((chosen && chosen.id) !== (journal.shown && journal.shown.id)) showRequest(chosen);
  }

  function showRequest(r) {
    journal.shown = r;
    $("request-detail").hidden = !r;
    if (!r) return;
    $("request-title").textContent = "#" + r.id + " " + r.method + " " + r.path + " → HTTP " + r.response.status;
    const box = $("request-diagnosis"), d = r.diagnosis;
    box.hidden = !d && !r.near_miss;
    box.replaceChildren();
    if (d) {
      box.append(el("p", { class: "diagnosis-head" }, el("span", { class: "badge why", text: d.check }), " ", el("strong", { "data-testid": "request-diagnosis-message", text: d.message })));
      const details = Object.keys(d).filter((key) => key !== "check" && key !== "message");
      if (details.length) {
        const list = el("dl", { class: "kv" });
        kv(list, details.map((key) => [key, typeof d[key] === "string" ? d[key] : JSON.stringify(d[key])]));
        box.append(list);
      }
    }
    if (r.near_miss) {
      box.append(el("p", { "data-testid": "request-near-miss" }, "No route matches " + r.method + " " + r.path + ". Did you mean ",
                     el("code", { text: r.near_miss }), "?"));
    }
    $("request-line").textContent = r.method + " " + r.path + (r.query ? "?" + r.query : "") + " " + r.protocol;
    kv($("request-sent"), [["route", r.route || "none matched"], ["api", r.dialect], ["at", time(r.at)], ["received_at", time(r.received_at)]]);
    kv($("request-headers"), headerPairs(r.headers));
    $("request-body").textContent = bodyText(r.body, r.body_encoding, r.body_truncated);
    $("response-line").textContent = "HTTP " + r.response.status;
    kv($("response-headers"), headerPairs(r.response.headers));
    $("request-response-body").textContent = bodyText(r.response.body, r.response.body_encoding, r.response.body_truncated);
  }

  async function clearJournal() {
    sequence += 1;
    const answer = await call("clearRequests");
    // Back to the list without a hash change, whose navigation would clear the notice.
    if (state.key) { history.replaceState(null, "", "#/requests"); state.key = null; showRequest(null); }
    if (answer.ok) notice("The request journal is cleared.", true); else notice(problem(answer));
    refreshNow();
  }
  $("requests-filters").addEventListener("submit", (event) => { event.preventDefault(); refreshNow(); });
  for (const id of ["requests-path", "requests-status"]) $(id).addEventListener("change", refreshNow);
  $("requests-clear").addEventListener("click", clearJournal);
