extension Dashboard {
    /// The Requests view (`#/requests`, `#/requests/{id}` for one): the request journal of
    /// `GET /sandbox/requests`, newest first, filtered by path prefix and status, and one
    /// request's headers and bodies with its diagnosis (why an authentication was refused) or
    /// near miss (the route a 404 or 405 probably meant) shown first. Clear is
    /// `DELETE /sandbox/requests`. A sandbox without the journal (a 404) says so once.
    static let requestsView = DashboardView(name: "requests", title: "Requests", content: #"""
            <h1>Requests <span class="muted" id="requests-kept" data-testid="requests-kept"></span></h1>
            <p id="requests-unavailable" data-testid="requests-unavailable" class="missing" hidden></p>
            <div id="requests-body" data-testid="requests-body">
            <form class="filters" id="requests-filters" data-testid="requests-filters">
              <label>Path starts with <input id="requests-path" data-testid="requests-path" autocomplete="off" placeholder="/v3/cashout"></label>
              <label>Status <input id="requests-status" data-testid="requests-status" list="requests-statuses" autocomplete="off" size="9" \#
        placeholder="4xx or 401"></label>
              <datalist id="requests-statuses"><option value="2xx"></option><option value="4xx"></option><option value="5xx"></option>\#
        <option value="401"></option><option value="404"></option></datalist>
              <button type="submit" id="requests-apply" data-testid="requests-apply">Filter</button>
              <button type="button" id="requests-clear" data-testid="requests-clear" class="danger">Clear journal</button>
              <span class="muted" id="requests-count" data-testid="requests-count"></span>
            </form>
            <div class="card request" id="request-detail" data-testid="request-detail" hidden>
              <h2><a href="#/requests" class="aside" id="request-close" data-testid="request-close">× close</a>
                <span id="request-title" data-testid="request-title"></span></h2>
              <div id="request-diagnosis" data-testid="request-diagnosis" class="diagnosis" role="note" hidden></div>
              <div class="grid">
                <div><h3>Request</h3><p class="mono" id="request-line" data-testid="request-line"></p>
                  <dl id="request-sent" data-testid="request-sent" class="kv"></dl>
                  <h3>Headers</h3><dl id="request-headers" data-testid="request-headers" class="kv mono"></dl>
                  <h3>Body</h3><pre id="request-body" data-testid="request-body"></pre></div>
                <div><h3>Response</h3><p class="mono" id="response-line" data-testid="response-line"></p>
                  <h3>Headers</h3><dl id="response-headers" data-testid="response-headers" class="kv mono"></dl>
                  <h3>Body</h3><pre id="request-response-body" data-testid="request-response-body"></pre></div>
              </div>
            </div>
            <p id="request-gone" data-testid="request-gone" class="empty" hidden></p>
            <div class="table-wrap">
              <table class="list" id="requests-table" data-testid="requests-table">
                <thead><tr><th>#</th><th class="hide-narrow">At</th><th>Request</th><th>Status</th><th class="hide-narrow">Route</th>\#
        <th class="hide-narrow">Why</th></tr></thead>
                <tbody id="requests-rows" data-testid="requests-rows"></tbody>
              </table>
            </div>
            <p id="requests-empty" data-testid="requests-empty" class="empty" hidden>No requests to the payout APIs yet.</p>
            </div>
        """#)

    static let requestsScript = #"""
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
            const answer = await api("GET", "/sandbox/requests" + (query.toString() ? "?" + query : ""));
            if (stale(mine)) return;
            const missing = answer.status === 404;
            $("requests-unavailable").hidden = !missing;
            $("requests-unavailable").textContent = missing ? "This sandbox keeps no request journal (GET /sandbox/requests answered HTTP 404)." : "";
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
              return el("tr", { class: "link" + (String(r.id) === state.key ? " selected" : ""), "data-testid": "request-row-" + r.id, \#
        "data-id": r.id,
                                onclick: () => { location.hash = href; } },
                el("td", {}, el("a", { href: href, text: r.id })),
                el("td", { class: "mono hide-narrow", title: "received " + time(r.received_at), text: time(r.at) }),
                el("td", { class: "mono path" }, el("strong", { text: r.method + " " }), r.path + (r.query ? "?" + r.query : ""),
                  why ? el("div", { class: "show-narrow" }, whyBadge()) : null),
                el("td", {}, el("span", { class: "badge " + httpClass(r.response.status), "data-testid": "request-status-" + r.id, \#
        text: r.response.status })),
                el("td", { class: "hide-narrow", text: r.route ? r.route + (r.dialect ? " (" + r.dialect + ")" : "") : "no route" }),
                el("td", { class: "hide-narrow" }, whyBadge() || "—"));
            }));
            $("requests-empty").hidden = journal.entries.length > 0;
            $("requests-count").textContent = journal.entries.length + (journal.entries.length === 1 ? " request" : " requests");
            // The one chosen stays shown (also when a filter hides its row) until another is chosen.
            const chosen = journal.entries.find((r) => String(r.id) === state.key) || (journal.shown && String(journal.shown.id) === state.key \#
        ? journal.shown : null);
            $("request-gone").hidden = !state.key || !!chosen;
            $("request-gone").textContent = state.key && !chosen
              ? "Request " + state.key + " is not among those listed: it was cleared, or pushed out of the journal, or is older than the newest " + \#
        journal.entries.length + "." : "";
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
              box.append(el("p", { class: "diagnosis-head" }, el("span", { class: "badge why", text: d.check }), " ", el("strong", \#
        { "data-testid": "request-diagnosis-message", text: d.message })));
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
            kv($("request-sent"), [["route", r.route || "none matched"], ["api", r.dialect], ["at", time(r.at)], ["received_at", \#
        time(r.received_at)]]);
            kv($("request-headers"), headerPairs(r.headers));
            $("request-body").textContent = bodyText(r.body, r.body_encoding, r.body_truncated);
            $("response-line").textContent = "HTTP " + r.response.status;
            kv($("response-headers"), headerPairs(r.response.headers));
            $("request-response-body").textContent = bodyText(r.response.body, r.response.body_encoding, r.response.body_truncated);
          }

          async function clearJournal() {
            sequence += 1;
            const answer = await api("DELETE", "/sandbox/requests");
            // Back to the list without a hash change, whose navigation would clear the notice.
            if (state.key) { history.replaceState(null, "", "#/requests"); state.key = null; showRequest(null); }
            if (answer.ok) notice("The request journal is cleared.", true); else notice(problem(answer));
            refreshNow();
          }
          $("requests-filters").addEventListener("submit", (event) => { event.preventDefault(); refreshNow(); });
          for (const id of ["requests-path", "requests-status"]) $(id).addEventListener("change", refreshNow);
          $("requests-clear").addEventListener("click", clearJournal);

        """#
}
