  // What the receiver answered to an attempt: its HTTP status, or why there was none.
  const attemptAnswer = (a) => (a.response_status === null || a.response_status === undefined ? orDash(a.error) : "HTTP " + a.response_status);
  // Nodes with a space between them, for their text as one line (`null`s left out).
  const spaced = (...nodes) => nodes.filter((node) => node).flatMap((node, index) => (index ? [" ", node] : [node]));
  // A notification with its attempts and the buttons that send it again; `listed` adds a
  // link to its cashout (the Webhooks view lists every cashout's).
  function renderWebhook(w, listed) {
    const send = (label, operation, body) => async () => {
      sequence += 1;
      const answer = await call(operation, { params: { id: w.id }, body: body });
      const last = answer.ok && answer.json && (answer.json.attempts || []).slice(-1)[0];
      if (answer.ok) notice(label + " of webhook " + w.id + " sent" + (last ? ": " + attemptAnswer(last) + "." : "."), true);
      else notice(label + " of webhook " + w.id + ": " + problem(answer));
      refreshNow();
    };
    const buttons = w.url ? el("span", { class: "webhook-buttons" },
      el("button", { type: "button", "data-testid": "redeliver-" + w.id, onclick: send("A redelivery", "redeliverWebhook"), text: "Redeliver" }),
      el("button", { type: "button", "data-testid": "duplicate-" + w.id, title: "The same notification again, as a provider's at-least-once delivery does",
                     onclick: send("A duplicate", "sendWebhookChaos", { kind: "duplicate" }), text: "Send duplicate" }),
      el("button", { type: "button", class: "danger", "data-testid": "forged-" + w.id, title: "A copy with a wrong signature, which the receiver should refuse",
                     onclick: send("A forged copy", "sendWebhookChaos", { kind: "forged" }), text: "Send forged" })) : null;
    const attempts = (w.attempts || []).map((a) =>
      el("li", { "data-testid": "webhook-attempt-" + w.id + "-" + a.number, "data-chaos": a.chaos ? a.chaos.kind : null },
        el("span", { class: "attempt-head" }, ...spaced(
          el("span", { class: "attempt-number", text: "Attempt " + a.number }), el("span", { class: "mono", text: time(a.at) }),
          a.retry ? el("span", { class: "badge retry", "data-testid": "webhook-retry-" + w.id + "-" + a.number, text: "retry" }) : null,
          a.manual ? el("span", { class: "badge manual", text: "manual" }) : null,
          a.chaos ? el("span", { class: "badge chaos", "data-testid": "webhook-chaos-" + w.id + "-" + a.number, title: a.chaos.summary, text: a.chaos.kind }) : null,
          a.response_status === null || a.response_status === undefined ? el("strong", { class: "muted", text: attemptAnswer(a) })
            : el("span", { class: "badge " + httpClass(a.response_status), text: attemptAnswer(a) }))),
        a.chaos && a.chaos.summary ? el("span", { class: "muted chaos-summary", text: a.chaos.summary }) : null,
        a.response_body ? el("pre", { text: a.response_body }) : null));
    return el("div", { class: "webhook", "data-testid": "webhook-" + w.id, "data-state": w.state },
      el("div", { class: "webhook-head" },
        el("strong", { text: "#" + w.id }),
        listed ? el("a", { href: "#/cashouts/" + encodeURIComponent(w.cashout_id), text: "cashout " + w.cashout_id }) : null,
        badge(w.api_status || w.status), badge(w.state),
        el("span", { class: "mono", text: time(w.changed_at) }),
        el("span", { class: "mono muted", text: orDash(w.url) }),
        w.next_attempt_at ? el("span", { class: "muted", text: "next attempt " + time(w.next_attempt_at) }) : null,
        buttons),
      attempts.length ? el("ul", { class: "attempts" }, ...attempts)
        : el("p", { class: "empty", text: w.state === "not_sent" ? "Not sent: the cashout has no notification URL." : "No attempts yet." }));
  }

  // The Webhooks view, read on every refresh while it is shown; the hash names a cashout.
  refreshers.push(async (view, mine) => {
    if (view !== "webhooks") return;
    const cashout = state.key;
    const answer = await call("listWebhooks", { query: cashout ? "cashout_id=" + encodeURIComponent(cashout) : "" });
    if (stale(mine) || cashout !== state.key) return;
    if (!answer.ok || !answer.json) { $("webhooks-count").textContent = problem(answer); return; }
    if (document.activeElement !== $("webhooks-cashout")) $("webhooks-cashout").value = cashout || "";
    const webhooks = (answer.json.webhooks || []).slice().sort((x, y) => y.id - x.id);
    $("webhooks-all").replaceChildren(...webhooks.map((w) => renderWebhook(w, true)));
    $("webhooks-all-empty").hidden = webhooks.length > 0;
    const attempts = webhooks.reduce((n, w) => n + (w.attempts || []).length, 0);
    const chaos = webhooks.reduce((n, w) => n + (w.attempts || []).filter((a) => a.chaos).length, 0);
    $("webhooks-count").textContent = webhooks.length + (webhooks.length === 1 ? " notification, " : " notifications, ")
      + attempts + (attempts === 1 ? " attempt" : " attempts") + (chaos ? ", " + chaos + " with chaos" : "");
  });
  $("webhooks-filters").addEventListener("submit", (event) => event.preventDefault());
  $("webhooks-cashout").addEventListener("change", (event) => {
    const cashout = event.target.value.trim();
    location.hash = cashout ? "#/webhooks/" + encodeURIComponent(cashout) : "#/webhooks";
  });
