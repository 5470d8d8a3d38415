
extension Dashboard {
    /// The page's style sheet, `GET /dashboard.css`: Resources/dashboard.css (system fonts only, a table
    /// layout that scrolls sideways on a phone, and forms that fall to one column under 640px), then
    /// Resources/report.css (the Report view's: severities as the badges' colours, findings set apart by
    /// a rule), then Resources/timeline.css (the Timeline card's, every class `tl-`; the standalone
    /// page's too, `TimelinePage`), then each part's, in their order.
    static func style(parts: [DashboardPart]) -> String {
        DashboardFile.text(PackageResources.dashboard_css) + DashboardFile.text(PackageResources.report_css)
            + DashboardFile.text(PackageResources.timeline_css) + parts.map(\.style).joined()
    }

    /// The page's behaviour, `GET /dashboard.js`: vanilla JavaScript in one closure, its files one after
    /// another in it, each seeing what the earlier ones declared:
    /// - Resources/core.js: DOM helpers, the admin token, hash routing, the 2-second poll, the clock.
    ///   A 401 from the admin API (`serve --admin-token`) shows the token form; the token is kept in
    ///   sessionStorage and sent as `Authorization: Bearer`. Server data reaches the DOM only through
    ///   `textContent` and attributes (the `el` helper), never as HTML.
    /// - Resources/list.js: the accounts and the cashouts list. The merchants and each part's accounts
    ///   (`readAccounts`), which the account filter offers, and the list with its filters. A country is
    ///   offered only when a cashout has it.
    /// - Resources/hmac.js: HMAC-SHA256 in lowercase hex for the page's signed `POST /v3/cashout`:
    ///   `crypto.subtle` where the page is a secure context (localhost), else a small SHA-256 in plain
    ///   JavaScript (e.g. the page opened by a LAN address); `hmacHex(secret, text, forceFallback)` is
    ///   what the rest of the script calls.
    /// - Resources/timeline.js: `Timeline`, the renderer of a timeline's JSON (the findings, a payout
    ///   filter, the lanes of your app, the sandbox's API and the bank), shared with the standalone page
    ///   (`TimelinePage`): it uses nothing of the files before it and declares nothing else.
    /// - Resources/pages.js: a cashout's page with its actions, what decided it, status history,
    ///   scheduled bank events, webhooks (and the parts' cards, `cashoutShown`) and its timeline
    ///   (`GET /sandbox/cashouts/{id}/timeline`, drawn again only when it changes); the merchants with
    ///   their ledger. A cashout's page starts empty with every action disabled (`clearCashout`), and
    ///   goes back to that when its cashout cannot be read, with one message in place of its cards
    ///   (`showMissing`).
    /// - Resources/requests.js, webhooks.js and report.js: the views of `requestsView`, `webhooksView`
    ///   and `reportView`.
    /// - each payout API's part (`parts`: each sets up its form and views, and adds to the hooks);
    /// - Resources/start.js: the listeners, the poll's timer and the first route;
    ///   `window.CashoutDashboard` (`hmacHex`, `refresh`).
    static func script(parts: String, operations: [APIOperation]) -> String {
        let files = [PackageResources.core_js, PackageResources.list_js, PackageResources.hmac_js, PackageResources.timeline_js,
                     PackageResources.pages_js, PackageResources.requests_js, PackageResources.webhooks_js, PackageResources.report_js]
        return "\"use strict\";\n(function () {\n" + operationTable(operations) + files.map { DashboardFile.text($0) }.joined() + parts
            + DashboardFile.text(PackageResources.start_js) + "})();\n"
    }

    /// The operations the page calls, by id, as its first line: `const operations =
    /// {"getClock":{"method":"GET","path":"/sandbox/clock","admin":true},...};` (core.js's `call`,
    /// `pathOf` and `routeOf` read it; `admin`: the admin API's, called with the admin token). An
    /// id, a method and a path are plain ASCII without quotes or backslashes (`DashboardTests`
    /// holds every declared one to that), so they are written as they are.
    static func operationTable(_ operations: [APIOperation]) -> String {
        "const operations = {" + operations.map { operation in
            let admin = operation.role == .admin ? #","admin":true"# : ""
            return #""\#(operation.id)":{"method":"\#(operation.method)","path":"\#(operation.path)"\#(admin)}"#
        }.joined(separator: ",") + "};\n"
    }

    /// The Requests view (`#/requests`, `#/requests/{id}` for one; Resources/requests.html and .js):
    /// the request log of `GET /sandbox/requests`, newest first, filtered by path prefix and
    /// status, and one request's headers and bodies with its diagnosis (why an authentication was
    /// refused) or near miss (the route a 404 or 405 probably meant) shown first. Clear is
    /// `DELETE /sandbox/requests`. A sandbox without the journal (a 404) says so once.
    static var requestsView: DashboardView {
        DashboardView(name: "requests", title: "Requests", content: DashboardFile.text(PackageResources.requests_html))
    }

    /// The Webhooks view (`#/webhooks`, `#/webhooks/{cashout_id}` for one cashout's; Resources/webhooks.html
    /// and .js): every notification of `GET /sandbox/webhooks`, newest first, with its attempts, each
    /// marked as a retry or as injected chaos (`chaos.kind`, and its `summary`), and the receiver's
    /// answers. Each notification, here and on its cashout's page, can be sent again now: as it was
    /// (`POST /sandbox/webhooks/{id}/redeliver`), or as a duplicate or a forged copy
    /// (`POST /sandbox/webhooks/{id}/chaos`).
    static var webhooksView: DashboardView {
        DashboardView(name: "webhooks", title: "Webhooks", content: DashboardFile.text(PackageResources.webhooks_html))
    }

    /// The Report view (`#/report`, `#/report/{account}` for one account's; Resources/report.html, .js
    /// and .css): the integration report of `GET /sandbox/report`, what the app gets wrong. A summary
    /// (its counts, and how many checks nothing exercised) and an index of the findings, each a link to
    /// its details; then per account a headline (ok, or its errors and warnings), each finding with its
    /// severity, occurrences, advice and evidence (the requests and deliveries that show it, linked to
    /// the Requests and Webhooks views; a forged notification answered 2xx marked as the failure it is),
    /// then the checks that passed and those nothing exercised, each with what it looks for. A report
    /// the request log can no longer make (a 409), or an account the sandbox never saw (a 404), is
    /// one message in its place. The last answer's ETag goes back as If-None-Match: a 304 says nothing
    /// changed, and the view is not drawn again.
    static var reportView: DashboardView {
        DashboardView(name: "report", title: "Report", content: DashboardFile.text(PackageResources.report_html))
    }
}
