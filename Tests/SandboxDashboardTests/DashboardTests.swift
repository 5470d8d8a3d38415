import Foundation
@testable import CashoutSandbox
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing
@testable import SandboxBank

/// The dashboard page is served, self-contained (no external URL) and only names routes that exist;
/// each API's part (D24's form, Mannco's form, views and card) is on it.
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

    /// A browser asks for `/favicon.ico` on every page it loads: the page's icon is served (and
    /// linked), and, like the page, kept out of the request journal, which holds the API calls.
    @Test func theIconIsServedAndNotJournaled() throws {
        let sandbox = try Sandbox.launch()
        defer { sandbox.stop() }
        for target in ["/", "/dashboard.css", "/dashboard.js", "/favicon.ico"] {
            #expect(try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)\(target)").status == 200, "\(target)")
        }
        let icon = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/favicon.ico")
        #expect(icon.headers["Content-Type"] == "image/svg+xml")
        #expect(icon.bodyText.hasPrefix("<svg ") && icon.bodyText.hasSuffix("</svg>"))
        #expect(Self.get(sandbox, "/").bodyText.contains(#"<link rel="icon" type="image/svg+xml" href="/favicon.ico">"#))
        _ = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/favicon.png")  // not the icon: a 404 is journaled
        #expect(sandbox.requests(limit: 10).map { $0["path"] } == ["/favicon.png"])
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

    /// The script names operations, never paths: its first line is the table of the operations
    /// the sandbox serves (`const operations = {...}`, from their declarations), each answered by
    /// the sandbox (an HTTP route, or a gRPC method's Connect route); every operation the script
    /// calls (`call`, `pathOf`, `routeOf`, an account list, an RPC of the PayoutService form) is in
    /// it; no string in the script is an API's path. Node's tests load the same table
    /// (Tests/Dashboard/fixtures/operations.json).
    @Test func theScriptCallsDeclaredOperationsAndTypesNoPath() throws {
        let sandbox = try Sandbox.launch()
        defer { sandbox.stop() }
        let script = Self.get(sandbox, "/dashboard.js").bodyText
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        let first = try #require(lines.dropFirst(2).first)
        #expect(first.hasPrefix("const operations = {") && first.hasSuffix("};"))
        let table = try JSON.parse(Array(first.dropFirst("const operations = ".count).dropLast().utf8))
        let operations = try #require(table.objectValue)
        #expect(operations.count >= 50, "\(operations.keys.sorted())")

        // Each is served: a route of the router, or a gRPC method Connect answers.
        for (id, operation) in operations.sorted(by: { $0.key < $1.key }) {
            let method = try #require(operation["method"]?.stringValue), path = try #require(operation["path"]?.stringValue)
            #expect(path.allSatisfy { $0.isASCII && $0 != "\"" && $0 != "\\" }, "\(id): \(path)")
            if sandbox.routeNames.contains("\(method) \(path)") { continue }
            let answer = sandbox.respond(to: HTTPRequest(method: method, target: path, headers: ["Content-Type": "application/json"],
                                                         body: Array("{}".utf8)))
            #expect(!answer.bodyText.contains("No such endpoint"), "\(id): \(method) \(path): \(answer.status) \(answer.bodyText)")
        }

        // What the script calls is in the table (by name, or as an account list's or a webhook button's operation).
        let named = try Regex(#"(?:call|pathOf|routeOf)\("([A-Za-z]+)""#)
        let passed = try Regex(#"(?:readAccounts\("[a-z0-9]+"|send\("[^"]+"), "([A-Za-z]+)""#)
        let rpcs = try Regex(#"\{("[A-Za-z]+": "[A-Za-z]+"(?:, )?)+\}\[rpc\]"#)
        var called = Set(script.matches(of: named).compactMap { $0.output[1].substring.map(String.init) })
        called.formUnion(script.matches(of: passed).compactMap { $0.output[1].substring.map(String.init) })
        for match in script.matches(of: rpcs) {
            let object = try JSON.parse(Array(String(match.output[0].substring ?? "").dropLast("[rpc]".count).utf8))
            called.formUnion(object.objectValue?.values.compactMap(\.stringValue) ?? [])
        }
        #expect(called.isSuperset(of: ["getClock", "listCashouts", "getCashout", "forceCashoutAction", "listWebhooks", "redeliverWebhook",
                                       "createCashout", "manncoLogin", "manncoProcessCashout", "listManncoUsers", "putManncoUser",
                                       "listPrismMerchants", "prismCreate", "prismCreateLink", "postToSink"]), "\(called.sorted())")
        #expect(called.subtracting(operations.keys).isEmpty, "not declared: \(called.subtracting(operations.keys).sorted())")
        // As Node's harness fills them (Tests/Dashboard/harness.js, OPERATIONS).
        #expect(script.contains(#"readAccounts("prism", "listPrismMerchants""#))
        #expect(script.contains(#"{"Create": "prismCreate", "CreateLink": "prismCreateLink"}[rpc]"#))

        // No API path typed anywhere else in the script.
        let rest = lines.dropFirst(3).joined(separator: "\n")
        let paths = try Regex(#""(/(?:sandbox|v3|user|cashout|types\.|prism)[^"]*)""#)
        #expect(rest.matches(of: paths).isEmpty, "\(rest.matches(of: paths).compactMap { $0.output[1].substring.map(String.init) })")

        // Node's tests run the script over the same table.
        let fixture = try JSON.parse(Array(try String(contentsOfFile: Self.fixture, encoding: .utf8).utf8))
        #expect(fixture == table, "Tests/Dashboard/fixtures/operations.json differs from the served table: write it again from /dashboard.js")
    }

    /// The table of operations Node's dashboard tests load.
    private static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Dashboard/fixtures/operations.json").path

    /// Each API adds its part: both request forms share the one `#/new` view, Mannco's Users and
    /// Emails views come with their links, its card waits on a cashout's page; no id is used twice.
    @Test func theAPIsPartsAreOnThePageAndNoIDIsUsedTwice() throws {
        let sandbox = try Sandbox.launch()
        defer { sandbox.stop() }
        let page = Self.get(sandbox, "/").bodyText
        let ids = page.matches(of: try Regex(#"\sid="([^"]*)""#)).compactMap { $0.output[1].substring.map(String.init) }
        let repeated = Dictionary(grouping: ids) { $0 }.filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "ids used twice: \(repeated)")
        for id in ["new-form", "mannco-new-form", "nav-users", "view-users", "nav-emails", "view-emails", "mannco-cashout-emails-card",
                   "nav-requests", "view-requests", "nav-webhooks", "view-webhooks", "cashout-missing", "cashout-decided"] {
            #expect(ids.contains(id), "no element \(id)")
        }
        // The core's views, then the APIs': the journals come before Users.
        let links = page.matches(of: try Regex(#"\sid="nav-([a-z]+)""#)).compactMap { $0.output[1].substring.map(String.init) }
        #expect(links == ["cashouts", "new", "merchants", "requests", "webhooks", "report", "users", "emails", "payoutservice"], "\(links)")
        let newView = try #require(page.range(of: #"<section id="view-new""#))
        let newViewEnd = try #require(page[newView.upperBound...].range(of: "</section>"))
        let forms = page[newView.upperBound ..< newViewEnd.lowerBound]
        #expect(forms.contains(#"<form id="new-form""#) && forms.contains(#"<form id="mannco-new-form""#))
        #expect(page.contains(#"<div class="card" id="mannco-cashout-emails-card" data-testid="mannco-cashout-emails-card" hidden>"#))
    }

    /// The Report view (`#/report`, after the journals' in the navigation) has its places for the
    /// accounts' reports and for the one message that replaces them (a 409, a 404); the script
    /// reads `GET /sandbox/report` and draws the report's own words through text nodes only.
    @Test func theReportViewIsOnThePage() throws {
        let sandbox = try Sandbox.launch()
        defer { sandbox.stop() }
        let page = Self.get(sandbox, "/").bodyText
        #expect(page.contains(##"<a href="#/report" id="nav-report" data-testid="nav-report" data-view="report">Report</a>"##))
        #expect(page.contains(#"<section id="view-report" data-testid="view-report" class="view" hidden>"#))
        for id in ["report-at", "report-unavailable", "report-summary", "report-accounts", "report-empty"] {
            #expect(page.contains(#" id="\#(id)" data-testid="\#(id)""#), "no element \(id)")
        }
        let script = Self.get(sandbox, "/dashboard.js").bodyText
        let report = try #require(script.range(of: "// The Report view").map { script[$0.lowerBound...] })
        #expect(report.contains(#"call("getReport""#))
        #expect(!report.contains("innerHTML") && !report.contains("insertAdjacentHTML"))
        #expect(Self.get(sandbox, "/dashboard.css").bodyText.contains(".badge.sev-error"))
    }

    /// The word the page shows first for a Mannco cashout, the admin API's `api_status`, is the one
    /// Mannco's own API answers, at each stage of a real cashout over HTTP (the list's, the
    /// record's and its history's); and the outbox the cashout's page reads (`/sandbox/emails?user=`
    /// its merchant) has one email per stage, with those words. A D24 cashout has no such word.
    @Test func theAdminAPIsManncoStatusWordsAreManncos() throws {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        let sandbox = try Sandbox.launch(configuration)
        defer { sandbox.stop() }
        func send(_ method: String, _ path: String, token: String? = nil, _ body: String = "") throws -> JSON {
            var headers: HTTPHeaders = body.isEmpty ? [:] : ["Content-Type": "application/json"]
            if let token { headers.add("Authorization", "Bearer \(token)") }
            let answer = try TestHTTP.send(method: method, url: "\(sandbox.baseURL)\(path)", headers: headers, body: Array(body.utf8))
            try #require(answer.status == 200, "\(method) \(path): \(answer.status) \(answer.bodyText)")
            return try JSON.parse(answer.body)
        }
        let token = try #require(send("POST", "/user/login", #"{"apiKey":"sandbox_mannco_key"}"#)["content"]?["jwt"]?.stringValue)
        let made = try send("POST", "/cashout/process", token: token, #"{"amount":100000,"method":"payoneer"}"#)
        let id = try #require(made["content"]?["cashoutId"]?.numberText)
        var seen: [String] = []
        for step in [Duration.zero, .seconds(5), .seconds(10)] {
            sandbox.advance(by: step)
            let record = try send("GET", "/sandbox/cashouts/\(id)")
            let listed = try send("GET", "/sandbox/cashouts")["cashouts"]?.arrayValue?.first { $0["cashout_id"]?.numberText == id }
            let history = try send("GET", "/user/getCashoutHistory", token: token)["content"]?["cashouts"]?.arrayValue ?? []
            let own = history.first { $0["id"]?.numberText == id }?["status"]?.stringValue
            #expect(record["api_status"]?.stringValue == own && listed?["api_status"]?.stringValue == own,
                    "admin API \(record["status"] ?? .null): it says \(record["api_status"] ?? .null), Mannco \(own ?? "nothing")")
            seen.append(own ?? "")
        }
        #expect(seen == ["pending", "processing", "completed"])
        let cashout = try send("GET", "/sandbox/cashouts/\(id)")
        #expect(cashout["history"]?.arrayValue?.map { $0["api_status"]?.stringValue ?? "" } == seen)
        let merchant = try #require(cashout["merchant"]?.stringValue)
        let emails = try send("GET", "/sandbox/emails?user=\(merchant)")["emails"]?.arrayValue ?? []
        #expect(emails.filter { $0["cashout_id"]?.numberText == id }.map { $0["status"]?.stringValue ?? "" } == seen)
    }
}
