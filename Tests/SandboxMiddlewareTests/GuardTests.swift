@testable import SandboxWire
@testable import CashoutSandbox
import Testing

private let passed: HTTPHandler = { _ in HTTPResponse(status: 299) }

private func request(_ method: String, _ target: String, _ headers: HTTPHeaders) -> HTTPRequest {
    HTTPRequest(method: method, target: target, headers: headers)
}

/// The context of route `number` of a router whose routes are `routes`, as the pipeline hands it to each stage.
private func context(_ number: Int, of routes: [String] = ["unmatched"]) -> RequestContext {
    RequestContext(route: RouteContext.table(routeNames: routes, dialects: [:], routeDialects: [:], grpcRoutes: [], documents: [],
                                             sendsWebhooks: [])[number], faultsArmed: false)
}

/// The `Host` guard lets loopback names and the allowed ones through, and refuses the rest.
@Suite struct HostGuardUnitTests {
    @Test func loopbackAndAllowedNamesPassOthersAreRefused() {
        let guarded = HostGuard(allowed: ["qa-box", ".corp.example"])
        for host in ["localhost", "localhost:8080", "LOCALHOST.", "app.localhost:3000", "127.1.2.3:9", "[::1]:8080", "qa-box:8080",
                     "sandbox.corp.example", "corp.example"] {
            #expect(guarded.isAllowed(host), "\(host)")
        }
        for host in ["localhost.evil.example", "128.0.0.1", "[::2]", "127.0.0.256", "qa-box.evil.example", "evilcorp.example"] {
            #expect(!guarded.isAllowed(host), "\(host)")
        }
        #expect(HostGuard(allowed: ["*"]).isAllowed("anything.example"))
    }

    @Test func aRefusedHostIsA403ThatNamesTheOptionAndARequestWithoutHostPasses() {
        let guarded = HostGuard(allowed: [])
        let refused = guarded.check(request("GET", "/sandbox/health", ["Host": "evil.example:8080"]), context(0), next: passed)
        #expect(refused.status == 403)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("--allowed-host evil.example"))
        #expect(guarded.check(request("GET", "/", [:]), context(0), next: passed).status == 299)
    }
}

/// The cross-site guard refuses admin changes whose `Origin` is another site.
@Suite struct CrossSiteGuardUnitTests {
    private let routes = ["unmatched", "POST /sandbox/reset", "POST /sandbox/sink/{name}"]

    @Test func aChangeFromAnotherOriginIsRefusedButReadsAndTheSinkPass() {
        let guarded = CrossSiteGuard.self
        let evil: HTTPHeaders = ["Host": "localhost:8080", "Origin": "http://evil.example"]
        #expect(guarded.check(request("POST", "/sandbox/reset", evil), context(1, of: routes), next: passed).status == 403)
        #expect(guarded.check(request("GET", "/sandbox/reset", evil), context(1, of: routes), next: passed).status == 299)
        #expect(guarded.check(request("POST", "/sandbox/sink/shop", evil), context(2, of: routes), next: passed).status == 299)
        let own: HTTPHeaders = ["Host": "localhost:8080", "Origin": "http://localhost:8080"]
        #expect(guarded.check(request("POST", "/sandbox/reset", own), context(1, of: routes), next: passed).status == 299)
        let fetched: HTTPHeaders = ["Host": "localhost:8080", "Sec-Fetch-Site": "cross-site"]
        #expect(guarded.check(request("POST", "/sandbox/reset", fetched), context(1, of: routes), next: passed).status == 403)
        #expect(CrossSiteGuard.host(ofOrigin: "http://LocalHost:8080") == "localhost:8080")
        #expect(CrossSiteGuard.host(ofOrigin: "null") == nil)
    }
}

/// The admin token is needed on every admin route but the open ones.
@Suite struct AdminAuthUnitTests {
    private let routes = ["unmatched", "GET /sandbox/health", "POST /sandbox/reset", "POST /sandbox/sink/{name}"]

    @Test func withoutATokenThereIsNoCheck() {
        #expect(AdminAuth(token: nil) == nil)
        #expect(AdminAuth(token: "") == nil)
    }

    @Test func theRightBearerTokenPassesAndAnythingElseIsA401() throws {
        let auth = try #require(AdminAuth(token: "s3cret"))
        #expect(auth.check(request("POST", "/sandbox/reset", ["Authorization": "Bearer s3cret"]), context(2, of: routes), next: passed).status == 299)
        let wrong = auth.check(request("POST", "/sandbox/reset", ["Authorization": "Bearer nope"]), context(2, of: routes), next: passed)
        #expect(wrong.status == 401 && wrong.headers["WWW-Authenticate"] != nil)
        #expect(auth.check(request("POST", "/sandbox/reset", [:]), context(2, of: routes), next: passed).status == 401)
        #expect(auth.check(request("GET", "/sandbox/health", [:]), context(1, of: routes), next: passed).status == 299)
        #expect(auth.check(request("POST", "/sandbox/sink/shop", [:]), context(3, of: routes), next: passed).status == 299)
        #expect(AdminAuth.bearerToken("Bearer abc") == "abc")
    }
}

/// Every route's context, read once at start (`RouteContext.table`): what each stage of the pipeline knows of a route.
@Suite struct RouteContextTests {
    @Test func eachRouteSaysWhatTheStagesAsk() {
        let names = ["unmatched", "GET /sandbox/health", "HEAD /sandbox/health", "GET /openapi.json", "HEAD /openapi.json",
                     "POST /sandbox/sink/{name}", "POST /sandbox/clock/advance", "POST /types.PayoutService/Create"]
        let table = RouteContext.table(routeNames: names, dialects: [:], routeDialects: [:],
                                       grpcRoutes: ["POST /types.PayoutService/Create"], documents: ["GET /openapi.json"],
                                       sendsWebhooks: ["POST /sandbox/clock/advance"])
        let route = Dictionary(uniqueKeysWithValues: zip(names, table))
        // The request log: a document's route and its HEAD twin are left out, as is every admin route; a payout API's
        // call and an unmatched path outside /sandbox are kept, an unmatched /sandbox path is not.
        #expect(!route["GET /openapi.json"]!.isRecorded(request("GET", "/openapi.json", [:])))
        #expect(!route["HEAD /openapi.json"]!.isRecorded(request("HEAD", "/openapi.json", [:])))
        #expect(!route["GET /sandbox/health"]!.isRecorded(request("GET", "/sandbox/health", [:])))
        #expect(route["POST /types.PayoutService/Create"]!.isRecorded(request("POST", "/types.PayoutService/Create", [:])))
        #expect(table[0].isRecorded(request("GET", "/v9/nothing", [:])))
        #expect(!table[0].isRecorded(request("GET", "/sandbox/nothing", [:])))
        // The admin guards: admin routes, and an unmatched path under /sandbox.
        #expect(route["POST /sandbox/clock/advance"]!.isAdmin(request("POST", "/sandbox/clock/advance", [:])))
        #expect(!route["GET /openapi.json"]!.isAdmin(request("GET", "/openapi.json", [:])))
        #expect(table[0].isAdmin(request("GET", "/sandbox/nothing", [:])) && !table[0].isAdmin(request("GET", "/v9/nothing", [:])))
        // Open routes, with the HEAD twin of health; the sink to any site.
        #expect(route["GET /sandbox/health"]!.tokenOpen && route["HEAD /sandbox/health"]!.tokenOpen)
        #expect(!route["POST /sandbox/clock/advance"]!.tokenOpen)
        #expect(route["POST /sandbox/sink/{name}"]!.crossSiteOpen && !route["POST /sandbox/clock/advance"]!.crossSiteOpen)
        #expect(route["POST /types.PayoutService/Create"]!.isGRPCMethod && !route["GET /openapi.json"]!.isGRPCMethod)
        #expect(route["POST /sandbox/clock/advance"]!.sendsWebhooks && route["GET /openapi.json"]!.handsOutURLs)
        #expect(table[0].name == nil && table[0].operation == nil)
    }
}
