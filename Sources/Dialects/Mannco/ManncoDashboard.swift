import SandboxDashboard

/// Mannco on the dashboard: the Users view (`#/users`, `#/users/{id}` to edit one, through
/// `GET /sandbox/users` and `PUT /sandbox/users/{id}`), the Emails view (the outbox, `#/emails`,
/// `#/emails/{user}`), the emails of a Mannco cashout on its page, and a request form that logs in
/// with the chosen user's API key and posts `POST /cashout/process` with the JWT, as a client does.
/// Its element ids start with `mannco-`.
enum ManncoDashboard {
    static let part = DashboardPart(form: form, views: [usersView, emailsView], cashoutCards: cashoutCard, style: style, script: script)

    static let usersView = DashboardView(name: "users", title: "Users", content: #"""
            <h1>Users <span class="muted">Mannco</span></h1>
            <div class="table-wrap">
              <table class="list" id="mannco-users-table" data-testid="mannco-users-table">
                <thead><tr><th>ID</th><th class="hide-narrow">Email</th><th class="num hide-narrow">Balance (USD cents)</th>\#
        <th class="num">Balance (USD)</th><th>Verified</th><th class="hide-narrow">Linked</th><th class="hide-narrow">API key</th></tr></thead>
                <tbody id="mannco-users-body" data-testid="mannco-users-body"></tbody>
              </table>
            </div>
            <p id="mannco-users-empty" data-testid="mannco-users-empty" class="empty" hidden>No users.</p>
            <p id="mannco-user-missing" data-testid="mannco-user-missing" class="empty" hidden></p>
            <form id="mannco-edit-form" data-testid="mannco-edit-form" class="card form" hidden>
              <h2 class="wide">User <span id="mannco-edit-id" data-testid="mannco-edit-id" class="mono"></span></h2>
              <label>Email <input name="email" id="mannco-edit-email" data-testid="mannco-edit-email" type="email" required></label>
              <label>Balance (USD cents) <input name="balance" id="mannco-edit-balance" data-testid="mannco-edit-balance" required \#
        inputmode="numeric" pattern="[0-9]+"></label>
              <label>API key <input name="api_key" id="mannco-edit-api_key" data-testid="mannco-edit-api_key" required autocomplete="off"></label>
              <div class="wide checks">
                <label><input type="checkbox" name="verified" id="mannco-edit-verified" data-testid="mannco-edit-verified"> Verified</label>
                <span class="muted">Linked:</span>
                \#(ManncoProvider.allCases.map {
                    #"<label><input type="checkbox" name="linked" value="\#($0.rawValue)" id="mannco-edit-linked-\#($0.rawValue)""#
                        + #" data-testid="mannco-edit-linked-\#($0.rawValue)"> \#($0.title)</label>"#
                }.joined(separator: "\n"))
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
                <thead><tr><th class="hide-narrow">At</th><th class="hide-narrow">To</th><th>Subject</th><th>Status</th>\#
        <th class="hide-narrow">Cashout</th></tr></thead>
                <tbody id="mannco-emails-body" data-testid="mannco-emails-body"></tbody>
              </table>
            </div>
            <p id="mannco-emails-empty" data-testid="mannco-emails-empty" class="empty" hidden>No emails yet.</p>
        """#)

    static let cashoutCard = #"""
            <div class="card" id="mannco-cashout-emails-card" data-testid="mannco-cashout-emails-card" hidden><h2>Emails to the user</h2>
              <div class="table-wrap"><table class="list"><thead><tr><th class="hide-narrow">At</th><th class="hide-narrow">To</th><th>Subject</th>\#
        <th>Status</th></tr></thead>
              <tbody id="mannco-cashout-emails" data-testid="mannco-cashout-emails"></tbody></table></div>
              <p id="mannco-cashout-emails-empty" data-testid="mannco-cashout-emails-empty" class="empty" hidden>No emails yet.</p></div>
        """#

    static let form = #"""
            <form id="mannco-new-form" data-testid="mannco-new-form" class="card form">
              <div class="wide">
                <h2>Mannco user cashout</h2>
                <p class="muted">Logs in with the user's API key (<code>POST /user/login</code>), \#
        then sends <code>POST /cashout/process</code> with the JWT. Amounts are in USD cents (at least \#(ManncoProcessRequest.minimumAmount)). \#
        Magic emails: <code>fail@…</code>, <code>late-fail@…</code>, <code>stuck@…</code>, <code>never@…</code>, <code>slow@…</code>, \#
        <code>decline@…</code>.</p>
              </div>
              <label>User <select name="user" id="mannco-new-user" data-testid="mannco-new-user"></select></label>
              <label>Amount (USD cents) <input name="amount" id="mannco-new-amount" data-testid="mannco-new-amount" \#
        value="\#(ManncoExample.amount)" required inputmode="numeric"></label>
              <label>Method <select name="method" id="mannco-new-method" \#
        data-testid="mannco-new-method">\#(ManncoMethod.allCases.map { "<option>\($0.rawValue)</option>" }.joined())</select></label>
              <label class="wide">Email <input name="email" id="mannco-new-email" data-testid="mannco-new-email" type="email" \#
        placeholder="empty: the user's"></label>
        \#(DashboardPart.formFooter(prefix: "mannco-new", requests: "Last requests"))
        """#

    static let style = """
        .badge.processing { background: #e4f0fb; color: var(--info); }
        .badge.completed, .badge.verified { background: #e1f5ec; color: var(--ok); }
        .badge.cancelled { background: #eceef1; color: #555e6e; }
        .badge.unverified { background: #fde7e8; color: var(--bad); }
        .list td.wrap { white-space: normal; min-width: 220px; }
        @media (max-width: 640px) { .list td.wrap { min-width: 0; } }
        #mannco-edit-form { margin-top: 14px; }
        .checks { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: center; }
        .form .checks label { flex-direction: row; align-items: center; gap: 6px; font-size: 14px; color: var(--ink); }
        .checks input { min-height: 0; }

        """

}

extension ManncoDialect: DashboardDialect {
    package var dashboard: DashboardPart { ManncoDashboard.part }
}
