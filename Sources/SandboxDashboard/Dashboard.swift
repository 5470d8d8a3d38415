import SandboxHTTP

/// The merchant-panel-style dashboard at `GET /`: plain HTML, CSS and JavaScript compiled into
/// the binary (no build step, no external URLs). The page reads and acts through the admin API
/// (`/sandbox/...`), and creates cashouts through the payout APIs' own endpoints, like any other
/// client, with the request form each API gives (`DashboardForm`).
///
/// `GET /` is the page, `GET /dashboard.css` its style and `GET /dashboard.js` its script
/// (hash routing: `#/cashouts`, `#/cashouts/{id}`, `#/new`, `#/merchants`, `#/merchants/{login}`).
public enum Dashboard {
    /// The routes this adds, for tests and documentation.
    public static let routes = ["GET /", "GET /dashboard.css", "GET /dashboard.js"]

    /// The `Content-Security-Policy` of the page and its assets: everything from this origin only
    /// (the script, the style sheet and the `fetch` calls), no inline script or style, no
    /// `<base>` and forms that only post here.
    public static let contentSecurityPolicy = "default-src 'self'; base-uri 'none'; form-action 'self'"

    /// Adds `GET /` and the page's assets to `router`, with the request forms of `forms`.
    public static func register(in router: inout Router, forms: [DashboardForm]) {
        // Each asset's answer is made once, here, not per request.
        let page = asset(page(forms: forms.map(\.section).joined()), type: "text/html; charset=utf-8")
        let style = asset(style, type: "text/css; charset=utf-8")
        let script = asset(script(forms: forms.map(\.script).joined()), type: "text/javascript; charset=utf-8")
        router.add("GET /") { _ in page }
        router.add("GET /dashboard.css") { _ in style }
        router.add("GET /dashboard.js") { _ in script }
    }

    private static func asset(_ text: String, type: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [
            "Content-Type": type, "Cache-Control": "no-cache",
            "Content-Security-Policy": contentSecurityPolicy, "X-Content-Type-Options": "nosniff",
        ], body: Array(text.utf8))
    }
}

/// A payout API's request form on the dashboard: the `#/new` view's section, and the script that
/// sends it (run inside the page's script, with its helpers: `$`, `el`, `api`, `hmacHex`, `state`,
/// `problem`, `fillSelect`, and `viewShown` and `merchantsChanged` to act when a view is shown or
/// the merchants change).
public struct DashboardForm: Sendable {
    /// HTML: a `<section id="view-new" class="view" hidden>` with its form.
    public var section: String
    /// JavaScript: sets up the form.
    public var script: String

    public init(section: String, script: String) {
        self.section = section
        self.script = script
    }
}
