import SandboxWire
import SandboxSupport

/// The merchant-panel-style dashboard at `GET /`: plain HTML, CSS and JavaScript, files in
/// Sources/SandboxContract/Dashboard/Resources (and each API's in its own folder) compiled into the binary
/// (`.embedInCode`: no build step, no external URLs; `DashboardFile`). The page reads and acts
/// through the admin API (`/sandbox/...`), and creates cashouts through the payout APIs' own
/// endpoints, like any other client, with what each API adds to it (`DashboardPart`: its request
/// form, views, cards).
///
/// `GET /` is the page, `GET /dashboard.css` its style, `GET /dashboard.js` its script and
/// `GET /favicon.ico` its icon (an SVG: browsers ask for it on every page, so it is served, and
/// kept out of the request log with the rest); their routes are declared in SandboxContract'
/// `APIDocs`. The page routes by hash: `#/cashouts`, `#/cashouts/{id}`, `#/new`, `#/merchants`,
/// `#/merchants/{login}`, `#/requests`, `#/requests/{id}`, `#/webhooks`, `#/webhooks/{cashout_id}`,
/// `#/report`, `#/report/{account}`, and each part's views, `#/NAME` and `#/NAME/{key}`.
package enum Dashboard {
    /// The `Content-Security-Policy` of the page and its assets: everything from this origin only
    /// (the script, the style sheet and the `fetch` calls), no inline script or style, no
    /// `<base>` and forms that only post here.
    static let contentSecurityPolicy = "default-src 'self'; base-uri 'none'; form-action 'self'"

    /// The page and its assets, with what the payout APIs add (`parts`) and the operations the
    /// page may call (`operations`: the admin API's and each API's, which its script names by id,
    /// never by path), as the routes of `APIDocs` answer them. Both are called when the page or an
    /// asset is first asked for, not here (a start need not pay for a page nobody may open).
    package struct Assets: Sendable {
        let page, style, script, icon: @Sendable () -> HTTPResponse
    }

    /// The page's and its assets' answers, each made once, on first use, not per request.
    package static func assets(operations: @escaping @Sendable () -> [APIOperation],
                               parts: @escaping @Sendable () -> [DashboardPart]) -> Assets {
        let parts = Lazy(parts)
        let page = Lazy { Self.asset(Self.page(parts: parts.value), type: "text/html; charset=utf-8") }
        let style = Lazy { Self.asset(Self.style(parts: parts.value), type: "text/css; charset=utf-8") }
        let script = Lazy {
            Self.asset(Self.script(parts: parts.value.map(\.script).joined(), operations: operations()), type: "text/javascript; charset=utf-8")
        }
        // The header's logo (Resources/favicon.svg): a `$` on the accent's rounded square.
        let icon = asset(PackageResources.favicon_svg, type: "image/svg+xml")
        return Assets(page: { page.value }, style: { style.value }, script: { script.value }, icon: { icon })
    }

    private static func asset(_ text: String, type: String) -> HTTPResponse {
        asset(Array(text.utf8), type: type)
    }

    private static func asset(_ body: [UInt8], type: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [
            "Content-Type": type, "Cache-Control": "no-cache",
            "Content-Security-Policy": contentSecurityPolicy, "X-Content-Type-Options": "nosniff",
        ], body: body)
    }
}

/// What one payout API adds to the dashboard, so that the core page names no API: its request
/// form in the `#/new` view, views of its own (each with its link in the navigation), cards on a
/// cashout's page, and the script behind them. Element ids start with the API's name (D24's
/// form, the first, keeps `new-...`), so that parts never share one.
///
/// The script runs inside the page's script, with its helpers: `$`, `el`, `badge`, `time`,
/// `orDash`, `money` (an amount with its currency), `kv`, `api` (its answer has the `headers`
/// too), `hmacHex`, `state`, `sequence` and `stale`, `problem`, `notice`, `fillSelect`,
/// `limitsText`, `setAccounts` (the account filter's
/// entries) and `readAccounts` (a part's accounts, read on every refresh),
/// `refreshNow`; and the hooks it may add to: `apis[NAME]` (how the core shows the API's cashouts:
/// its accounts, rejection codes, the Details card; the status words come from the admin API),
/// `viewShown`, `merchantsChanged`, `refreshers` (run on every refresh) and `cashoutShown` (a
/// cashout's page read, or cleared).
package struct DashboardPart: Sendable {
    /// HTML: a `<form class="card form">` with an `<h2>`, in the `#/new` view; nil for none.
    var form: String?
    /// Its views, in the navigation after the core's.
    var views: [DashboardView]
    /// HTML: cards on every cashout's page, `hidden` until its script shows them for its cashouts.
    var cashoutCards: String
    /// CSS added to the page's style sheet.
    var style: String
    /// JavaScript: sets its form and views up.
    package var script: String

    package init(form: String? = nil, views: [DashboardView] = [], cashoutCards: String = "", style: String = "", script: String) {
        self.form = form
        self.views = views
        self.cashoutCards = cashoutCards
        self.style = style
        self.script = script
    }

    /// The end of a request form, the same in every API's: the submit button (`submit`), the
    /// result, and the requests sent (ids `PREFIX-submit`, `PREFIX-result`, `PREFIX-request`),
    /// then `</form>`.
    package static func formFooter(prefix: String, requests: String, submit: String = "Request cashout") -> String {
        DashboardFile.text(PackageResources.form_footer_html, filling: ["PREFIX": prefix, "REQUESTS": requests, "SUBMIT": submit])
    }
}

/// A view a payout API adds: `#/NAME` (and `#/NAME/{key}`, `state.key`), a `<section
/// id="view-NAME">` holding `content`, and a link `nav-NAME` titled `title`.
package struct DashboardView: Sendable {
    package var name: String
    var title: String
    /// HTML inside the view's section, from its `<h1>`.
    package var content: String

    package init(name: String, title: String, content: String) {
        self.name = name
        self.title = title
        self.content = content
    }
}
