  // Mannco: users, their email outbox and cashouts. Users are read on every refresh: the
  // Users view, the account filter, the form's and the Emails view's user lists use them.
  apis.mannco = { account: "user", webhooks: false, accountHref: (id) => "#/users/" + encodeURIComponent(id) };
  const mannco = { users: [], editing: null };
  // Cents as dollars, from the digits (exact for any balance): 123456 is $1,234.56.
  function dollars(cents) {
    const digits = String(cents).padStart(3, "0");
    return "$" + digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ",") + "." + digits.slice(-2);
  }

  readAccounts("mannco", "listManncoUsers", "users", "id", (ids) => {
    fillSelect($("mannco-new-user"), ids, false);
    fillSelect($("mannco-emails-user"), ids, true);
  }, async (users, view, mine) => {
    mannco.users = users;
    if (view === "new") emailPlaceholder();
    if (view === "users") renderUsers();
    if (view === "emails") await loadEmails(mine);
  });
  viewShown.push((view) => {
    if (view === "users") { mannco.editing = null; $("mannco-edit-result").textContent = ""; }
  });

  function renderUsers() {
    $("mannco-users-body").replaceChildren(...mannco.users.map((u) => {
      const href = "#/users/" + encodeURIComponent(u.id);
      return el("tr", { class: "link" + (u.id === state.key ? " selected" : ""), "data-testid": "mannco-user-row-" + u.id, "data-id": u.id,
                        onclick: () => { location.hash = href; } },
        el("td", { class: "mono" }, el("a", { href: href, text: u.id })),
        el("td", { class: "hide-narrow", text: u.email }),
        el("td", { class: "num hide-narrow", "data-testid": "mannco-user-cents-" + u.id, text: u.balance }),
        el("td", { class: "num", "data-testid": "mannco-user-dollars-" + u.id, text: dollars(u.balance) }),
        el("td", {}, badge(u.verified ? "verified" : "unverified")),
        el("td", { class: "hide-narrow", "data-testid": "mannco-user-linked-" + u.id, text: (u.linked || []).join(", ") || "none" }),
        el("td", { class: "mono hide-narrow", text: u.api_key }));
    }));
    $("mannco-users-empty").hidden = mannco.users.length > 0;
    const user = mannco.users.find((u) => u.id === state.key);
    $("mannco-edit-form").hidden = !user;
    $("mannco-user-missing").hidden = !state.key || !!user;
    $("mannco-user-missing").textContent = state.key && !user ? "No user " + state.key + "." : "";
    // The form is filled when a user is chosen, not on every poll: that would undo typing.
    if (user && mannco.editing !== user.id) fillUser(user);
  }
  function fillUser(user) {
    mannco.editing = user.id;
    $("mannco-edit-id").textContent = user.id;
    $("mannco-edit-email").value = user.email;
    $("mannco-edit-balance").value = user.balance;
    $("mannco-edit-api_key").value = user.api_key;
    $("mannco-edit-verified").checked = !!user.verified;
    for (const box of document.querySelectorAll("#mannco-edit-form input[name=linked]")) box.checked = (user.linked || []).includes(box.value);
    $("mannco-edit-emails").setAttribute("href", "#/emails/" + encodeURIComponent(user.id));
  }
  async function saveUser(event) {
    event.preventDefault();
    const id = mannco.editing, result = $("mannco-edit-result");
    const cents = $("mannco-edit-balance").value.trim();
    if (!/^[0-9]+$/.test(cents)) { result.textContent = "The balance is a whole number of cents."; return; }
    const body = { email: $("mannco-edit-email").value.trim(), api_key: $("mannco-edit-api_key").value.trim(), balance: Number(cents),
                   verified: $("mannco-edit-verified").checked,
                   linked: [...document.querySelectorAll("#mannco-edit-form input[name=linked]:checked")].map((box) => box.value) };
    $("mannco-edit-submit").disabled = true;
    sequence += 1;  // a poll already on its way shows the user as it was: dropped
    try {
      const answer = await call("putManncoUser", { params: { id: id }, body: body });
      if (answer.ok && answer.json) {
        fillUser(answer.json);
        result.textContent = "Saved.";
      } else {
        result.textContent = problem(answer);
      }
    } catch (error) {
      result.textContent = "Failed: " + error.message;
    } finally {
      $("mannco-edit-submit").disabled = false;
      refreshNow();
    }
  }

  // An email as a row; `cashout` adds the column linking to its cashout. On a phone the time
  // and the link go under the subject, so that the status keeps its column on screen.
  const cashoutLink = (e) => el("a", { href: "#/cashouts/" + encodeURIComponent(e.cashout_id), text: e.cashout_id });
  const emailRow = (e, testid, cashout) =>
    el("tr", { "data-testid": testid, "data-status": e.status, "data-cashout-id": e.cashout_id },
      el("td", { class: "mono hide-narrow", text: time(e.at) }), el("td", { class: "hide-narrow", text: e.to }),
      el("td", { class: "wrap" }, el("strong", { text: e.subject }), el("div", { class: "muted", text: e.body }),
        el("div", { class: "muted show-narrow" }, time(e.at), cashout ? " · cashout " : null, cashout ? cashoutLink(e) : null)),
      el("td", {}, badge(e.status)),
      cashout ? el("td", { class: "hide-narrow" }, cashoutLink(e)) : null);

  async function loadEmails(mine) {
    const user = state.key;
    const answer = await call("listManncoEmails", { query: user ? "user=" + encodeURIComponent(user) : "" });
    if (stale(mine) || user !== state.key) return;
    if (!answer.ok) { notice(problem(answer)); return; }
    $("mannco-emails-user").value = user || "";  // the hash chooses the user (#/emails/ID)
    const emails = (answer.json.emails || []).slice().reverse();
    $("mannco-emails-body").replaceChildren(...emails.map((e) => emailRow(e, "mannco-email-" + e.cashout_id + "-" + e.status, true)));
    $("mannco-emails-empty").hidden = emails.length > 0;
    $("mannco-emails-count").textContent = emails.length + (emails.length === 1 ? " email" : " emails");
  }

  // A Mannco cashout's page: its emails (the user's outbox, this cashout's), oldest first.
  cashoutShown.push(async (c, mine) => {
    const card = $("mannco-cashout-emails-card");
    if (!c || c.dialect !== "mannco") {
      card.hidden = true;
      $("mannco-cashout-emails").replaceChildren();
      return;
    }
    card.hidden = false;
    const answer = await call("listManncoEmails", { query: "user=" + encodeURIComponent(c.merchant) });
    if (stale(mine) || String(c.cashout_id) !== state.id || !answer.ok || !answer.json) return;
    const emails = (answer.json.emails || []).filter((e) => e.cashout_id === c.cashout_id);
    $("mannco-cashout-emails").replaceChildren(...emails.map((e) => emailRow(e, "mannco-cashout-email-" + e.status, false)));
    $("mannco-cashout-emails-empty").hidden = emails.length > 0;
  });

  // The request form: what a client does, in the page. Mannco answers an error in
  // `content` (HTTP 300 for a business error, 403 for a refused key or token).
  const said = (answer) => "HTTP " + answer.status + ": " + (answer.json && typeof answer.json.content === "string" ? answer.json.content : answer.text);
  function emailPlaceholder() {
    const user = mannco.users.find((u) => u.id === $("mannco-new-user").value);
    $("mannco-new-email").placeholder = user ? "empty: the user's, " + user.email : "empty: the user's";
  }
  async function requestManncoCashout(event) {
    event.preventDefault();
    const result = $("mannco-new-result"), log = $("mannco-new-request");
    const user = mannco.users.find((u) => u.id === $("mannco-new-user").value);
    if (!user) { result.textContent = "Choose a user."; return; }
    // Digits go as a JSON integer; anything else as typed, for the API to refuse.
    const amount = $("mannco-new-amount").value.trim();
    const body = { amount: /^[0-9]{1,15}$/.test(amount) ? Number(amount) : amount, method: $("mannco-new-method").value };
    if ($("mannco-new-email").value.trim()) body.email = $("mannco-new-email").value.trim();
    result.removeAttribute("data-cashout-id");
    $("mannco-new-submit").disabled = true;
    try {
      const login = await call("manncoLogin", { body: { apiKey: user.api_key } });
      log.textContent = routeOf("manncoLogin") + "\n\n" + JSON.stringify({ apiKey: user.api_key }) + "\n\n→ HTTP " + login.status + " " + login.text;
      const jwt = login.json && login.json.content && login.json.content.jwt;
      if (!jwt) { result.textContent = "Login refused: " + said(login); return; }
      const answer = await call("manncoProcessCashout", { body: body, headers: { Authorization: "Bearer " + jwt } });
      log.textContent += "\n\n" + routeOf("manncoProcessCashout") + "\nAuthorization: Bearer " + jwt + "\n\n" + JSON.stringify(body) + "\n\n→ HTTP " + answer.status + " " + answer.text;
      const content = answer.json && answer.json.content;
      result.replaceChildren();
      if (answer.ok && content && content.cashoutId) {
        const id = String(content.cashoutId);
        result.setAttribute("data-cashout-id", id);
        result.append("Created cashout ", el("a", { href: "#/cashouts/" + encodeURIComponent(id), "data-testid": "mannco-new-result-link", text: id }),
                      " (fee " + content.fee + ", net " + content.netAmount + " USD cents).");
      } else {
        result.textContent = "Refused: " + said(answer);
      }
    } catch (error) {
      result.textContent = "Failed: " + error.message;
    } finally {
      $("mannco-new-submit").disabled = false;
      refreshNow();
    }
  }
  $("mannco-new-form").addEventListener("submit", requestManncoCashout);
  $("mannco-new-user").addEventListener("change", emailPlaceholder);
  $("mannco-edit-form").addEventListener("submit", saveUser);
  $("mannco-emails-user").addEventListener("change", (event) => {
    const user = event.target.value;
    location.hash = user ? "#/emails/" + encodeURIComponent(user) : "#/emails";
  });
