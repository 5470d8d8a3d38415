import CashoutSandbox
import SandboxHTTP
import Testing

/// The dashboard page is served, self-contained (no external URL) and only names routes that exist.
@Suite struct DashboardTests {
    private static func get(_ sandbox: Sandbox, _ target: String) -> HTTPResponse {
        sandbox.respond(to: HTTPRequest(method: "GET", target: target))
    }

    @Test func thePageAndItsAssetsAreServedWithoutExternalURLs() throws {
        let sandbox = try Sandbox.launch()
        defer { sandbox.stop() }
        let page = Self.get(sandbox, "/")
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"]?.hasPrefix("text/html") == true)
        #expect(page.bodyText.contains("<html"))
        for (target, type) in [("/dashboard.css", "text/css"), ("/dashboard.js", "text/javascript")] {
            let asset = Self.get(sandbox, target)
            #expect(asset.status == 200, "\(target)")
            #expect(asset.headers["Content-Type"]?.hasPrefix(type) == true, "\(target)")
            #expect(page.bodyText.contains("\"\(target)\""), "the page loads \(target)")
        }
        for target in ["/", "/dashboard.css", "/dashboard.js"] {
            let text = Self.get(sandbox, target).bodyText
            #expect(!text.contains("http://") && !text.contains("https://"), "\(target) names an external URL")
            #expect(!text.contains("//fonts.") && !text.contains("@import"), "\(target) loads a remote asset")
        }
    }

    /// The page and its assets forbid every origin but their own (no inline script or style:
    /// the page has none) and forbid MIME sniffing.
    @Test func thePageAndItsAssetsCarryAContentSecurityPolicyAndNosniff() throws {
        let sandbox = try Sandbox.launch()
        defer { sandbox.stop() }
        for target in ["/", "/dashboard.css", "/dashboard.js"] {
            let answer = Self.get(sandbox, target)
            let policy = answer.headers["Content-Security-Policy"] ?? ""
            #expect(policy.hasPrefix("default-src 'self'"), "\(target): \(policy)")
            #expect(!policy.contains("unsafe-"), "\(target): \(policy)")
            #expect(answer.headers["X-Content-Type-Options"] == "nosniff", "\(target)")
        }
        let page = Self.get(sandbox, "/").bodyText
        #expect(!page.contains("style=") && !page.contains("<style"), "the page has inline style")
        #expect(try page.matches(of: Regex(#"\son[a-z]+\s*="#)).isEmpty, "the page has an inline event handler")
        #expect(try page.matches(of: Regex(#"<script(?![^>]*\bsrc=)"#)).isEmpty, "the page has an inline script")
    }

    /// Before the script has read a cashout, its page offers no action, and the country filter
    /// offers only "All" (the script adds the countries the cashouts have).
    @Test func theActionsStartDisabledAndTheCountriesAreNotHardCoded() throws {
        let sandbox = try Sandbox.launch()
        defer { sandbox.stop() }
        let page = Self.get(sandbox, "/").bodyText
        let buttons = page.matches(of: try Regex("<button[^>]*data-action=[^>]*>")).map { String(page[$0.range]) }
        #expect(buttons.count == 7, "\(buttons)")
        for button in buttons { #expect(button.contains(" disabled"), "\(button)") }
        #expect(page.contains(#"<select id="filter-country" data-testid="filter-country"><option value="">All</option></select>"#))
    }

    /// Every `/sandbox/...` or `/v3/...` path the script names is routed: it answers something
    /// other than "No such endpoint". A literal ending in `/` followed by `+ id + "/suffix"` is
    /// probed with the id `1` (an unknown id answers a JSON 404 that names the cashout or webhook).
    @Test func theScriptOnlyReferencesRoutesThatExist() throws {
        let sandbox = try Sandbox.launch()
        defer { sandbox.stop() }
        let script = Self.get(sandbox, "/dashboard.js").bodyText + Self.get(sandbox, "/").bodyText
        let pattern = try Regex(#""(/(?:sandbox|v3)/[^"]*)"(?:\s*\+\s*[^"+]+?\s*\+\s*"(/[^"]*)")?"#)
        var probes: Set<String> = []
        for match in script.matches(of: pattern) {
            guard let path = match.output[1].substring.map(String.init) else { continue }
            let suffix = match.output[2].substring.map(String.init) ?? ""
            probes.insert(path.hasSuffix("/") ? path + "1" + suffix : path)
        }
        #expect(probes.count >= 8, "found \(probes.sorted())")
        #expect(probes.isSuperset(of: ["/sandbox/cashouts/1/actions", "/sandbox/webhooks/1/redeliver", "/v3/cashout"]), "found \(probes.sorted())")
        for probe in probes.sorted() {
            var answer = Self.get(sandbox, probe)
            if answer.status == 405 { answer = sandbox.respond(to: HTTPRequest(method: "POST", target: probe, body: Array("{}".utf8))) }
            #expect(!answer.bodyText.contains("No such endpoint"), "\(probe): \(answer.status) \(answer.bodyText)")
        }
    }
}
