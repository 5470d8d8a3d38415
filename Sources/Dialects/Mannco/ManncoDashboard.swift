import SandboxBank
import SandboxDashboard

/// Mannco on the dashboard: the Users view (`#/users`, `#/users/{id}` to edit one, through
/// `GET /sandbox/users` and `PUT /sandbox/users/{id}`), the Emails view (the outbox, `#/emails`,
/// `#/emails/{user}`), the emails of a Mannco cashout on its page, and a request form that logs in
/// with the chosen user's API key and posts `POST /cashout/process` with the JWT, as a client does.
/// Its element ids start with `mannco-`.
enum ManncoDashboard {
    static let part = DashboardPart(form: form, views: [usersView, emailsView], cashoutCards: cashoutCard, style: style, script: script)

    /// The admin API's status names in Mannco's words, for the list and a cashout's page: written
    /// from `ManncoCashout.status`, so the page and the API never disagree.
    static let statusWords: String = {
        let words = Dictionary(PayoutStatus.allCases.map { ($0.name, ManncoCashout.status($0)) }) { first, _ in first }
        return "{ " + words.sorted { $0.key < $1.key }.map { "\($0.key): \"\($0.value)\"" }.joined(separator: ", ") + " }"
    }()

    static let usersView = DashboardView(name: "users", title: "Users", content: #"""
            <h1>Users <span class="muted">Mannco</span></h1>
            <div class="table-wrap">
              <table class="list" id="mannco-users-table" data-testid="mannco-users-table">
                <thead><tr><th>ID</th><th class="hide-narrow">Email</th><th class="num">Balance (cents)</th><th class="num">Balance (USD)</th><th>Verified</th><th>Linked</th><th class="hide-narrow">API key</th></tr></thead>
                <tbody id="mannco-users-body" data-testid="mannco-users-body"></tbody>
              </table>
            </div>
            <p id="mannco-users-empty" data-testid="mannco-users-empty" class="empty" hidden>No users.</p>
            <p id="mannco-user-missing" data-testid="mannco-user-missing" class="empty" hidden></p>
            <form id="mannco-edit-form" data-testid="mannco-edit-form" class="card form" hidden>
              <h2 class="wide">User <span id="mannco-edit-id" data-testid="mannco-edit-id" class="mono"></span></h2>
              <label>Email <input name="email" id="mannco-edit-email" data-testid="mannco-edit-email" type="email" required></label>
              <label>Balance (cents) <input name="balance" id="mannco-edit-balance" data-testid="mannco-edit-balance" required inputmode="numeric" pattern="[0-9]+"></label>
              <label>API key <input name="api_key" id="mannco-edit-api_key" data-testid="mannco-edit-api_key" required autocomplete="off"></label>
              <div class="wide checks">
                <label><input type="checkbox" name="verified" id="mannco-edit-verified" data-testid="mannco-edit-verified"> Verified</label>
                <span class="muted">Linked:</span>
                \#(ManncoProvider.allCases.map { #"<label><input type="checkbox" name="linked" value="\#($0.rawValue)" id="mannco-edit-linked-\#($0.rawValue)" data-testid="mannco-edit-linked-\#($0.rawValue)"> \#($0.title)</label>"# }.joined(separator: "\n"))
              </div>
              <div class="wide form-actions">
                <button type="submit" id="mannco-edit-submit" data-testid="mannco-edit-submit" class="primary">Save user</button>
                <a id="mannco-edit-emails" data-testid="mannco-edit-emails" href="#/emails">Their emails</a>
                <span id="mannco-edit-result" data-testid="mannco-edit-result" class="muted"></span>
              </div>
            </form>
        """#)

    static let emailsView = DashboardView(name: "emails", title: "Emails", content: #"""
            <h1>Emails <span class="muted">Mannco's outbox</span></h1>
            <form class="filters" id="mannco-emails-filters">
              <label>User <select id="mannco-emails-user" data-testid="mannco-emails-user"><option value="">All</option></select></label>
              <span class="muted" id="mannco-emails-count" data-testid="mannco-emails-count"></span>
            </form>
            <div class="table-wrap">
              <table class="list" id="mannco-emails-table" data-testid="mannco-emails-table">
                <thead><tr><th>At</th><th class="hide-narrow">To</th><th>Subject</th><th>Status</th><th>Cashout</th></tr></thead>
                <tbody id="mannco-emails-body" data-testid="mannco-emails-body"></tbody>
              </table>
            </div>
            <p id="mannco-emails-empty" data-testid="mannco-emails-empty" class="empty" hidden>No emails yet.</p>
        """#)

    static let cashoutCard = #"""
            <div class="card" id="mannco-cashout-emails-card" data-testid="mannco-cashout-emails-card" hidden><h2>Emails to the user</h2>
              <div class="table-wrap"><table class="list"><thead><tr><th>At</th><th class="hide-narrow">To</th><th>Subject</th><th>Status</th></tr></thead>
              <tbody id="mannco-cashout-emails" data-testid="mannco-cashout-emails"></tbody></table></div>
              <p id="mannco-cashout-emails-empty" data-testid="mannco-cashout-emails-empty" class="empty" hidden>No emails yet.</p></div>
        """#

    static let form = #"""
            <form id="mannco-new-form" data-testid="mannco-new-form" class="card form">
              <div class="wide">
                <h2>Mannco user cashout</h2>
                <p class="muted">Logs in with the user's API key (<code>POST /user/login</code>), then sends <code>POST /cashout/process</code> with the JWT. Amounts are in cents (at least \#(ManncoProcessRequest.minimumAmount)). Magic emails: <code>fail@…</code>, <code>late-fail@…</code>, <code>stuck@…</code>, <code>never@…</code>, <code>slow@…</code>, <code>decline@…</code>.</p>
              </div>
              <label>User <select name="user" id="mannco-new-user" data-testid="mannco-new-user"></select></label>
              <label>Amount (cents) <input name="amount" id="mannco-new-amount" data-testid="mannco-new-amount" value="\#(ManncoExample.amount)" required inputmode="numeric"></label>
              <label>Method <select name="method" id="mannco-new-method" data-testid="mannco-new-method">\#(ManncoMethod.allCases.map { "<option>\($0.rawValue)</option>" }.joined())</select></label>
              <label class="wide">Email <input name="email" id="mannco-new-email" data-testid="mannco-new-email" type="email" placeholder="empty: the user's"></label>
              <div class="wide form-actions">
                <button type="submit" id="mannco-new-submit" data-testid="mannco-new-submit" class="primary">Request cashout</button>
                <span id="mannco-new-result" data-testid="mannco-new-result" class="muted"></span>
              </div>
              <details class="wide"><summary>Last requests</summary><pre id="mannco-new-request" data-testid="mannco-new-request"></pre></details>
            </form>
        """#

    static let style = """
        .badge.processing { background: #e4f0fb; color: var(--info); }
        .badge.completed, .badge.verified { background: #e1f5ec; color: var(--ok); }
        .badge.cancelled { background: #eceef1; color: #555e6e; }
        .badge.unverified { background: #fde7e8; color: var(--bad); }
        .list td.wrap { white-space: normal; min-width: 220px; }
        #mannco-edit-form { margin-top: 14px; }
        .checks { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: center; }
        .form .checks label { flex-direction: row; align-items: center; gap: 6px; font-size: 14px; color: var(--ink); }
        .checks input { min-height: 0; }

        """

    static let script = #"""
          // Mannco: users, their email outbox and cashouts. Users are read on every refresh: the
          // Users view, the account filter, the form's and the Emails view's user lists use them.
          apis.mannco = { status: \#(statusWords), account: "user", webhooks: false,
                          accountHref: (id) => "#/users/" + encodeURIComponent(id) };
          const mannco = { users: [], key: "", editing: null };
          // Cents as dollars, from the digits (exact for any balance): 123456 is $1,234.56.
          function dollars(cents) {
            const digits = String(cents).padStart(3, "0");
            return "$" + digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ",") + "." + digits.slice(-2);
          }

          refreshers.push(async (view, mine) => {
            const answer = await api("GET", "/sandbox/users");
            if (stale(mine) || !answer.ok || !answer.json) return;
            mannco.users = answer.json.users || [];
            const ids = mannco.users.map((u) => u.id);
            if (ids.join("\n") !== mannco.key) {
              mannco.key = ids.join("\n");
              setAccounts("mannco", ids);
              fillSelect($("mannco-new-user"), ids, false);
              fillSelect($("mannco-emails-user"), ids, true);
            }
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
                el("td", { class: "num", "data-testid": "mannco-user-cents-" + u.id, text: u.balance }),
                el("td", { class: "num", "data-testid": "mannco-user-dollars-" + u.id, text: dollars(u.balance) }),
                el("td", {}, badge(u.verified ? "verified" : "unverified")),
                el("td", { "data-testid": "mannco-user-linked-" + u.id, text: (u.linked || []).join(", ") || "none" }),
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
              const answer = await api("PUT", "/sandbox/users/" + encodeURIComponent(id), body);
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

          // An email as a row; `cashout` adds the column linking to its cashout.
          const emailRow = (e, testid, cashout) =>
            el("tr", { "data-testid": testid, "data-status": e.status, "data-cashout-id": e.cashout_id },
              el("td", { class: "mono", text: time(e.at) }), el("td", { class: "hide-narrow", text: e.to }),
              el("td", { class: "wrap" }, el("strong", { text: e.subject }), el("div", { class: "muted", text: e.body })),
              el("td", {}, badge(e.status)),
              cashout ? el("td", {}, el("a", { href: "#/cashouts/" + encodeURIComponent(e.cashout_id), text: e.cashout_id })) : null);

          async function loadEmails(mine) {
            const user = state.key;
            const answer = await api("GET", "/sandbox/emails" + (user ? "?user=" + encodeURIComponent(user) : ""));
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
            const answer = await api("GET", "/sandbox/emails?user=" + encodeURIComponent(c.merchant));
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
              const login = await api("POST", "/user/login", { apiKey: user.api_key });
              log.textContent = "POST /user/login\n\n" + JSON.stringify({ apiKey: user.api_key }) + "\n\n→ HTTP " + login.status + " " + login.text;
              const jwt = login.json && login.json.content && login.json.content.jwt;
              if (!jwt) { result.textContent = "Login refused: " + said(login); return; }
              const answer = await api("POST", "/cashout/process", body, { Authorization: "Bearer " + jwt });
              log.textContent += "\n\nPOST /cashout/process\nAuthorization: Bearer " + jwt + "\n\n" + JSON.stringify(body) + "\n\n→ HTTP " + answer.status + " " + answer.text;
              const content = answer.json && answer.json.content;
              result.replaceChildren();
              if (answer.ok && content && content.cashoutId) {
                const id = String(content.cashoutId);
                result.setAttribute("data-cashout-id", id);
                result.append("Created cashout ", el("a", { href: "#/cashouts/" + encodeURIComponent(id), "data-testid": "mannco-new-result-link", text: id }),
                              " (fee " + content.fee + ", net " + content.netAmount + " cents).");
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

        """#
}
