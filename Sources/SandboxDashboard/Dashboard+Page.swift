extension Dashboard {
    /// The page's skeleton: a header with the clock, navigation, and one section per view, with
    /// what the payout APIs add (`parts`: the request forms of the `#/new` view, their own views,
    /// cards on a cashout's page). The script fills the sections from the admin API; every element
    /// tests look for has an `id` or a `data-testid`.
    static func page(parts: [DashboardPart]) -> String {
        let views = [requestsView, webhooksView, reportView] + parts.flatMap(\.views)
        let links = views.map {
            ##"<a href="#/\##($0.name)" id="nav-\##($0.name)" data-testid="nav-\##($0.name)" data-view="\##($0.name)">\##($0.title)</a>"##
        }
        let sections = views.map {
            "<section id=\"view-\($0.name)\" data-testid=\"view-\($0.name)\" class=\"view\" hidden>\n\($0.content)\n</section>"
        }
        let forms = parts.compactMap(\.form)
        return page(links: links.joined(separator: "\n"),
                    forms: forms.isEmpty ? #"<p class="empty">No payout API here offers a request form.</p>"# : forms.joined(),
                    cashoutCards: parts.map(\.cashoutCards).joined(), sections: sections.joined(separator: "\n"))
    }

    private static func page(links: String, forms: String, cashoutCards: String, sections: String) -> String { #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>CashoutSandbox</title>
        <link rel="stylesheet" href="/dashboard.css">
        <link rel="icon" type="image/svg+xml" href="/favicon.ico">
        </head>
        <body>
        <header class="top" id="top" data-testid="header">
          <div class="brand" title="CashoutSandbox, a staging panel"><span class="logo">$</span>\#
        <span class="brand-name"> CashoutSandbox <span class="tag">staging panel</span></span></div>
          <nav class="nav" id="nav" aria-label="Sections">
            <a href="#/cashouts" id="nav-cashouts" data-testid="nav-cashouts" data-view="cashouts">Cashouts</a>
            <a href="#/new" id="nav-new" data-testid="nav-new" data-view="new">New cashout</a>
            <a href="#/merchants" id="nav-merchants" data-testid="nav-merchants" data-view="merchants">Merchants</a>
            \#(links)
          </nav>
          <section class="clock" id="clock" data-testid="clock" aria-label="Virtual clock">
            <div class="clock-read">
              <span class="clock-line"><span class="muted"><span class="wide-only">Clock </span><span id="clock-mode" data-testid="clock-mode">\#
        </span></span>
                <strong id="clock-now" data-testid="clock-now" class="clock-time">…</strong></span>
              <span class="clock-line muted">next<span class="wide-only"> event</span> <span id="clock-next" data-testid="clock-next" \#
        class="clock-time">…</span></span>
            </div>
            <form class="clock-form" id="advance-form" data-testid="advance-form">
              <span class="clock-more" id="clock-more">
                <label class="sr" for="advance-by">Advance by</label>
                <input id="advance-by" data-testid="advance-by" name="by" value="1m" size="6" autocomplete="off" placeholder="1h5m">
                <button type="submit" id="advance-button" data-testid="advance-button">Advance</button>
                <button type="button" class="quick" data-by="1m" id="advance-1m" data-testid="advance-1m">+1m</button>
                <button type="button" class="quick" data-by="1h" id="advance-1h" data-testid="advance-1h">+1h</button>
                <button type="button" class="quick" data-by="1d" id="advance-1d" data-testid="advance-1d">+1d</button>
              </span>
              <button type="button" id="next-event-button" data-testid="next-event-button" title="Move the clock to the next event">Next<span \#
        class="wide-only"> event</span></button>
              <button type="button" id="clock-toggle" data-testid="clock-toggle" class="clock-toggle" aria-expanded="false" \#
        aria-controls="clock-more" title="Advance the clock by…">+…</button>
            </form>
          </section>
        </header>
        <div id="journal-banner" data-testid="journal-banner" class="notice" role="alert" hidden></div>
        <div id="notice" data-testid="notice" class="notice" role="status" hidden></div>
        <form id="token-form" data-testid="token-form" class="token-form" hidden>
          <label for="token-input">This sandbox's admin API wants its admin token (<code>serve --admin-token</code>). \#
        It is kept for this tab only.</label>
          <input id="token-input" data-testid="token-input" name="token" type="password" autocomplete="off" required>
          <button type="submit" id="token-submit" data-testid="token-submit">Use token</button>
          <span id="token-error" data-testid="token-error" role="alert"></span>
        </form>
        <main>
          <section id="view-cashouts" data-testid="view-cashouts" class="view" hidden>
            <h1>Cashouts</h1>
            <form class="filters" id="filters" data-testid="filters">
              <label>Account <select id="filter-merchant" data-testid="filter-merchant"><option value="">All</option></select></label>
              <label>Status <select id="filter-status" data-testid="filter-status">
                <option value="">All</option><option>PENDING</option><option>ON_HOLD</option><option>DELIVERED</option>
                <option>COMPLETED</option><option>REJECTED</option><option>CANCELLED</option></select></label>
              <label>Country <select id="filter-country" data-testid="filter-country"><option value="">All</option></select></label>
              <span class="muted" id="cashouts-count" data-testid="cashouts-count"></span>
            </form>
            <div class="table-wrap">
              <table class="list" id="cashouts-table" data-testid="cashouts-table">
                <thead><tr><th>ID</th><th class="hide-narrow">API</th><th class="hide-narrow">External ID</th><th class="hide-narrow">Account</th>\#
        <th class="hide-narrow">Country</th><th class="num">Amount</th><th>Status</th><th class="hide-narrow">Created</th></tr></thead>
                <tbody id="cashouts-body" data-testid="cashouts-body"></tbody>
              </table>
            </div>
            <p id="cashouts-empty" data-testid="cashouts-empty" class="empty" hidden>No cashouts yet. <a href="#/new">Request one</a>.</p>
          </section>

          <section id="view-cashout" data-testid="view-cashout" class="view" hidden>
            <p><a href="#/cashouts" data-testid="back-to-list">← Cashouts</a></p>
            <h1>Cashout <span id="cashout-id" data-testid="cashout-id"></span>
              <span id="cashout-api-status" data-testid="cashout-api-status" class="badge" hidden></span>
              <span id="cashout-status" data-testid="cashout-status" class="badge"></span>
              <span id="cashout-returned" data-testid="cashout-returned" class="badge returned" hidden>returned after completion</span></h1>
            <p id="cashout-missing" data-testid="cashout-missing" class="missing" role="alert" hidden></p>
            <div id="cashout-body" data-testid="cashout-body">
            <p id="cashout-decided" data-testid="cashout-decided" class="decided" hidden>Decided by
              <span id="cashout-decided-kind" data-testid="cashout-decided-kind" class="badge"></span>
              <span id="cashout-decided-summary" data-testid="cashout-decided-summary"></span></p>
            <div class="card">
              <h2>Actions</h2>
              <div class="actions" id="actions" data-testid="actions">
                <button type="button" disabled data-action="hold" id="action-hold" data-testid="action-hold">Hold</button>
                <button type="button" disabled data-action="release" id="action-release" data-testid="action-release">Release</button>
                <button type="button" disabled data-action="cancel" id="action-cancel" data-testid="action-cancel">Cancel</button>
                <span class="sep">Force:</span>
                <button type="button" disabled data-action="deliver" id="action-deliver" data-testid="action-deliver">Deliver</button>
                <button type="button" disabled data-action="complete" id="action-complete" data-testid="action-complete">Complete</button>
                <span class="reject-group">
                  <label class="sr" for="reject-code">Rejection code</label>
                  <input id="reject-code" data-testid="reject-code" disabled type="number" min="100" max="99999" value="801" title="Rejection code">
                  <button type="button" disabled data-action="reject" id="action-reject" data-testid="action-reject" class="danger">Reject</button>
                </span>
                <button type="button" disabled data-action="late-reject" id="action-late-reject" data-testid="action-late-reject" \#
        class="danger">Late reject (826)</button>
              </div>
              <p id="action-result" data-testid="action-result" class="muted"></p>
            </div>
            <div class="grid">
              <div class="card"><h2>Details</h2><dl id="cashout-details" data-testid="cashout-details" class="kv"></dl></div>
              <div class="card"><h2>Request fields</h2><dl id="cashout-fields" data-testid="cashout-fields" class="kv"></dl></div>
            </div>
            <div class="card"><h2>Status history</h2>
              <div class="table-wrap"><table class="list"><thead><tr><th>Status</th><th>At</th><th class="hide-narrow">By</th><th>Rejection</th>\#
        </tr></thead>
              <tbody id="history-body" data-testid="history-body"></tbody></table></div></div>
            <div class="card"><h2>Scheduled bank events</h2>
              <div class="table-wrap"><table class="list"><thead><tr><th>At</th><th>Status</th><th>Rejection code</th></tr></thead>
              <tbody id="scheduled-body" data-testid="scheduled-body"></tbody></table></div>
              <p id="scheduled-empty" data-testid="scheduled-empty" class="empty" hidden>Nothing scheduled.</p></div>
        \#(cashoutCards)
            <div class="card" id="webhooks-card" data-testid="webhooks-card"><h2>Webhooks <a id="cashout-webhooks-link" \#
        data-testid="cashout-webhooks-link" class="aside" href="#/webhooks">all of them</a></h2>
              <div id="webhooks" data-testid="webhooks"></div>
              <p id="webhooks-empty" data-testid="webhooks-empty" class="empty" hidden>No notifications yet.</p></div>
            </div>
          </section>

          <section id="view-new" data-testid="view-new" class="view" hidden>
            <h1>Request a cashout</h1>
        \#(forms)
          </section>
          <section id="view-merchants" data-testid="view-merchants" class="view" hidden>
            <h1>Merchants</h1>
            <div class="table-wrap">
              <table class="list" id="merchants-table" data-testid="merchants-table">
                <thead><tr><th>Login</th><th class="hide-narrow">Pass</th><th class="hide-narrow">Secret</th>\#
        <th class="hide-narrow">Read-only key</th><th class="num">Balance</th><th class="hide-narrow">Limits</th></tr></thead>
                <tbody id="merchants-body" data-testid="merchants-body"></tbody>
              </table>
            </div>
            <div class="card" id="ledger-card" data-testid="ledger-card" hidden>
              <h2>Ledger: <span id="ledger-merchant" data-testid="ledger-merchant"></span></h2>
              <div class="table-wrap"><table class="list"><thead><tr><th class="hide-narrow">#</th><th class="hide-narrow">At</th><th>Cashout</th>\#
        <th class="hide-narrow">Kind</th><th class="num">Amount</th><th class="num hide-narrow">Balance after</th></tr></thead>
              <tbody id="ledger-body" data-testid="ledger-body"></tbody></table></div>
              <p id="ledger-empty" data-testid="ledger-empty" class="empty" hidden>No entries yet.</p>
            </div>
          </section>
        \#(sections)
        </main>
        <footer class="muted">Virtual time; everything here is the sandbox's admin API (<code>/sandbox/…</code>). Refreshes every 2 s.</footer>
        <script src="/dashboard.js"></script>
        </body>
        </html>
        """#
    }
}
