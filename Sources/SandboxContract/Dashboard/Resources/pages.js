  // The actions each status allows (the bank's lifecycle; the server has the last word).
  const ALLOWED = {
    STAGED: ["cancel"],
    AWAITING_DETAILS: ["cancel"],
    PENDING: ["hold", "cancel", "deliver", "reject"],
    ON_HOLD: ["release", "cancel"],
    DELIVERED: ["complete", "reject"],
    COMPLETED: ["late-reject"],
  };
  function enableActions(allowed) {
    for (const button of document.querySelectorAll("#actions button[data-action]")) {
      button.disabled = !allowed.includes(button.getAttribute("data-action"));
    }
    $("reject-code").disabled = !allowed.includes("reject");
  }
  // Whether the cashout shown takes D24's numeric rejection codes (its API's part may say not).
  let rejectionCodes = true;
  function showRejectionCodes(shown) {
    rejectionCodes = shown;
    $("reject-code").hidden = !shown;
    $("action-late-reject").textContent = shown ? "Late reject (826)" : "Late reject";
  }
  function clearCashout(label) {
    showMissing(null);
    $("cashout-decided").hidden = true;
    $("view-cashout").removeAttribute("data-status");
    $("view-cashout").removeAttribute("data-returned");
    $("cashout-status").textContent = label;
    $("cashout-status").className = "badge";
    $("cashout-status").title = "";
    $("cashout-returned").hidden = true;
    $("cashout-api-status").hidden = true;
    showRejectionCodes(true);
    $("webhooks-card").hidden = false;
    for (const id of ["cashout-details", "cashout-fields", "history-body", "scheduled-body", "webhooks"]) $(id).replaceChildren();
    clearTimeline();
    $("scheduled-empty").hidden = true;
    $("webhooks-empty").hidden = true;
    enableActions([]);
    for (const shown of cashoutShown) shown(null);
  }

  async function loadCashout(mine) {
    const id = state.id;
    let answer;
    try {
      answer = await call("getCashout", { params: { id: id } });
    } catch (error) {
      if (!stale(mine) && id === state.id) clearCashout("ERROR");
      throw error;
    }
    if (stale(mine) || id !== state.id) return;
    if (!answer.ok) {
      clearCashout(answer.status === 404 ? "NOT FOUND" : "ERROR");
      showMissing(answer.status === 404 ? "There is no cashout " + id + " in this sandbox. Check the id, or whether the sandbox was reset."
                                        : "Cannot read cashout " + id + ": " + problem(answer));
      return;
    }
    renderCashout(answer.json);
    for (const shown of cashoutShown) await shown(answer.json, mine);
    await loadTimeline(id, mine);
  }

  // The Timeline card: the cashout's timeline (GET /sandbox/cashouts/{id}/timeline, the same JSON as the page
  // `explore` writes) drawn by Timeline.render (timeline.js). The poll sends the last answer's ETag back: a 304 says
  // nothing changed. It is drawn again only when its text changed, with the payout and the row the user chose kept.
  const timeline = { id: null, text: null, state: null, tag: null };
  function clearTimeline() {
    timeline.id = timeline.text = timeline.state = timeline.tag = null;
    $("timeline").replaceChildren();
    $("timeline-missing").hidden = true;
  }
  async function loadTimeline(id, mine) {
    const tag = timeline.id === id && timeline.tag ? { "If-None-Match": timeline.tag } : undefined;
    const answer = await call("getCashoutTimeline", { params: { id: id }, headers: tag });
    if (stale(mine) || id !== state.id || answer.status === 304) return;
    if (!answer.ok || !answer.json) {
      clearTimeline();
      $("timeline-missing").hidden = false;
      $("timeline-missing").textContent = answer.status === 404 ? "No timeline for cashout " + id + "."
                                                                 : "Cannot read its timeline: " + problem(answer);
      return;
    }
    if (timeline.id === id && timeline.text === answer.text) {
      timeline.tag = answer.headers.get("ETag");
      return;
    }
    $("timeline-missing").hidden = true;
    try {
      timeline.state = Timeline.render($("timeline"), answer.json, { state: timeline.id === id ? timeline.state : null, title: false });
      timeline.id = id;
      timeline.text = answer.text;
      timeline.tag = answer.headers.get("ETag");
    } catch (error) {
      clearTimeline();
      $("timeline-missing").hidden = false;
      $("timeline-missing").textContent = "Cannot draw its timeline: " + error.message;
    }
  }

  // A cashout that cannot be read has one message, in place of its page (`null`: none).
  function showMissing(message) {
    $("cashout-missing").hidden = !message;
    $("cashout-missing").textContent = message || "";
    $("cashout-body").hidden = !!message;
    $("cashout-status").hidden = !!message;
  }

  // A value is text, or a node (a link).
  function kv(target, pairs) {
    target.replaceChildren(...pairs.flatMap(([name, value]) =>
      [el("dt", { text: name }), el("dd", { "data-field": name }, value instanceof Node ? value : orDash(value))]));
  }

  function renderCashout(c) {
    $("view-cashout").setAttribute("data-status", c.status);
    $("view-cashout").setAttribute("data-returned", String(!!c.returned_after_completion));
    $("cashout-id").textContent = c.cashout_id;
    // Its API's status word first, when it has one; the sandbox's after it, muted.
    const word = c.api_status;
    $("cashout-status").textContent = c.status;
    $("cashout-status").className = "badge " + (word ? "sandbox" : c.status);
    $("cashout-status").title = word ? "The sandbox's status" : "";
    $("cashout-api-status").hidden = !word;
    $("cashout-api-status").textContent = word || "";
    $("cashout-api-status").className = "badge " + (word || "");
    $("cashout-api-status").title = word ? "Its status in " + c.dialect + "'s words" : "";
    $("cashout-returned").hidden = !c.returned_after_completion;
    // How its API's part shows it (`apis`).
    const own = apis[c.dialect] || {};
    $("webhooks-card").hidden = own.webhooks === false;
    showRejectionCodes(own.rejectionCode !== false);
    enableActions(ALLOWED[c.status] || []);
    const href = own.accountHref ? own.accountHref(c.merchant) : "#/merchants/" + encodeURIComponent(c.merchant);
    kv($("cashout-details"), own.details ? own.details(c, href) : [
      ["api", c.dialect], [own.account || "merchant", el("a", { href: href, text: c.merchant })], ["external_id", c.external_id], ["country", c.country],
      ["amount", money(c.amount, c.currency)], ["settlement_amount", money(c.settlement_amount, accountCurrency(c.merchant, c.currency))],
      ["created_at", time(c.created_at)],
      ["rejection_code", c.rejection_code], ["rejection_reason", c.rejection_reason],
      ["bank_reference_id", c.bank_reference_id], ["status_reason", c.status_reason], ["notification_url", c.notification_url],
    ]);
    // The fields as the request gave them, an amount with the cashout's currency.
    const fields = c.fields || {};
    kv($("cashout-fields"), Object.keys(fields).sort().map((name) => [name, name === "amount" ? money(fields[name], c.currency) : fields[name]]));
    const decided = c.decided_by;
    $("cashout-decided").hidden = !decided;
    $("cashout-decided-kind").textContent = decided ? String(decided.kind).replace(/_/g, " ") : "";
    $("cashout-decided-kind").className = "badge decided-" + (decided ? decided.kind : "");
    $("cashout-decided-summary").textContent = decided ? decided.summary : "";
    $("history-body").replaceChildren(...(c.history || []).map((h, index) =>
      el("tr", { "data-testid": "history-row-" + index, "data-status": h.status },
        el("td", {}, ...statusBadges(h)), el("td", { class: "mono", text: time(h.at) }), el("td", { class: "hide-narrow", text: h.by }),
        el("td", { class: "text", text: h.rejection_code === null || h.rejection_code === undefined ? "—" : h.rejection_code + " " + orDash(h.rejection_reason) }))));
    const scheduled = c.scheduled || [];
    $("scheduled-body").replaceChildren(...scheduled.map((s, index) =>
      el("tr", { "data-testid": "scheduled-row-" + index },
        el("td", { class: "mono", text: time(s.at) }), el("td", {}, ...statusBadges(s)),
        el("td", { text: orDash(s.rejection_code) }))));
    $("scheduled-empty").hidden = scheduled.length > 0;
    const webhooks = c.webhooks || [];
    $("webhooks").replaceChildren(...webhooks.map((w) => renderWebhook(w, false)));
    $("cashout-webhooks-link").setAttribute("href", "#/webhooks/" + encodeURIComponent(c.cashout_id));
    $("webhooks-empty").hidden = webhooks.length > 0;
  }

  // An action's answer is newer than any refresh already on its way: those are dropped,
  // the answer is shown, and a refresh follows.
  async function act(action) {
    const id = state.id;
    let body = { action: action };
    if (action === "reject" && rejectionCodes) {
      const code = parseInt($("reject-code").value, 10);
      if (!Number.isNaN(code)) body.rejection_code = code;
    }
    if (action === "late-reject") body = rejectionCodes ? { action: "reject", rejection_code: 826 } : { action: "reject" };
    enableActions([]);
    sequence += 1;
    try {
      const answer = await call("forceCashoutAction", { params: { id: id }, body: body });
      sequence += 1;
      if (id !== state.id) return;
      if (answer.ok && answer.json) {
        renderCashout(answer.json);
        $("action-result").textContent = action + ": now " + (answer.json.api_status || answer.json.status)
          + (answer.json.returned_after_completion ? " (returned after completion)" : "");
      } else {
        $("action-result").textContent = problem(answer);
        notice(problem(answer));
      }
    } catch (error) {
      notice("Cannot reach the sandbox: " + error.message);
    } finally {
      refreshNow();
    }
  }

  // An account's limits as the admin API gives them, in a few words ("daily 500.00 USD", "none").
  const limitsText = (limits, currency) =>
    ["transaction", "daily", "monthly"].filter((k) => limits && limits[k]).map((k) => k + " " + money(limits[k], currency)).join(", ") || "none";

  function renderMerchants() {
    const rows = state.merchants.map((m) =>
      el("tr", { class: "link" + (m.login === state.login ? " selected" : ""), "data-testid": "merchant-row-" + m.login,
                 onclick: () => { location.hash = "#/merchants/" + encodeURIComponent(m.login); } },
        el("td", {}, el("a", { href: "#/merchants/" + encodeURIComponent(m.login), text: m.login }),
          el("div", { class: "mono muted show-narrow", text: "pass " + m.pass }), el("div", { class: "mono muted show-narrow", text: "secret " + m.secret })),
        el("td", { class: "mono hide-narrow", text: m.pass }), el("td", { class: "mono hide-narrow", text: m.secret }),
        el("td", { class: "mono hide-narrow", text: m.read_only_key }),
        el("td", { class: "num", "data-testid": "merchant-balance-" + m.login, text: money(m.balance, m.currency) }),
        el("td", { class: "hide-narrow", text: limitsText(m.limits, m.currency) })));
    $("merchants-body").replaceChildren(...rows);
  }

  async function loadLedger(mine) {
    const login = state.login || (state.merchants[0] && state.merchants[0].login);
    $("ledger-card").hidden = !login;
    if (!login) return;
    const answer = await call("getLedger", { query: "merchant=" + encodeURIComponent(login) });
    if (stale(mine)) return;
    if (!answer.ok) { notice(problem(answer)); return; }
    $("ledger-merchant").textContent = login;
    const entries = (answer.json.entries || []).slice().reverse(), currency = accountCurrency(login);
    $("ledger-body").replaceChildren(...entries.map((e) =>
      el("tr", { "data-testid": "ledger-row-" + e.id },
        el("td", { class: "hide-narrow", text: e.id }), el("td", { class: "mono hide-narrow", text: time(e.at) }),
        el("td", {}, el("a", { href: "#/cashouts/" + encodeURIComponent(e.cashout_id), text: e.cashout_id }),
          el("div", { class: "muted show-narrow", text: e.kind + ", " + time(e.at) })),
        el("td", { class: "hide-narrow", text: e.kind }), el("td", { class: "num", text: money(e.amount, currency) }),
        el("td", { class: "num hide-narrow", text: money(e.balance_after, currency) }))));
    $("ledger-empty").hidden = entries.length > 0;
  }
