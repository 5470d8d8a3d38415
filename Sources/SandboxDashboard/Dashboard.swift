import SandboxHTTP

/// The merchant-panel-style dashboard at `GET /`: plain HTML, CSS and JavaScript compiled into
/// the binary (no build step, no external URLs). The page reads and acts through the admin API
/// (`/sandbox/...`) like any other client.
public enum Dashboard {
    /// Adds `GET /` (and the page's assets) to `router`.
    public static func register(in router: inout Router) {
        router.add("GET /") { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(page.utf8))
        }
    }

    /// The whole page.
    static let page = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>CashoutSandbox</title></head>
        <body><h1>CashoutSandbox</h1><p>The dashboard is being built.</p></body></html>
        """
}
