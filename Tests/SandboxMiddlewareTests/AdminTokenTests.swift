@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxSupport
@testable import SandboxWire
import TestHelpers
import Testing
import Foundation

/// `serve --admin-token` (`Sandbox.Configuration.adminToken`): every admin route wants
/// `Authorization: Bearer TOKEN` but the health probe and the sink's receiving end; the D24 API,
/// the dashboard and the documents are not admin routes. Real HTTP against a started sandbox.
@Suite struct AdminTokenTests {
    static let token = "s3cret-Token_42"
    static let missing = #"{"code":401,"message":"the admin API needs the header Authorization: Bearer <admin token>"}"#
    static let invalid = #"{"code":401,"message":"invalid admin token"}"#
    static let challenge = #"Bearer realm="cashout-sandbox admin""#

    private func sandbox(token: String? = token) throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.adminToken = token
        return try Sandbox.launch(configuration)
    }

    private func send(_ sandbox: Sandbox, _ method: String, _ path: String, authorization: String? = nil,
                      headers: HTTPHeaders = [:], body: String = "") throws -> HTTPResponse {
        var headers = headers
        if let authorization { headers.add("Authorization", authorization) }
        return try TestHTTP.send(method: method, url: "\(sandbox.baseURL)\(path)", headers: headers, body: Array(body.utf8))
    }

    /// Every admin operation the OpenAPI document lists, with `1` for path parameters.
    private func adminRoutes(_ sandbox: Sandbox) throws -> [(method: String, path: String, route: String)] {
        let document = try JSON.parse(try send(sandbox, "GET", "/openapi.json").body)
        let paths = try #require(document["paths"]?.objectValue)
        return paths.keys.sorted().filter { $0.hasPrefix("/sandbox/") }.flatMap { path in
            (paths[path]?.objectValue ?? [:]).keys.sorted().map { method in
                (method.uppercased(), path.replacingOccurrences(of: "{id}", with: "1").replacingOccurrences(of: "{name}", with: "x")
                    .replacingOccurrences(of: "{login}", with: "acme"), "\(method.uppercased()) \(path)")
            }
        }
    }

    @Test func withoutTheTokenEveryAdminRouteButHealthAndTheSinksPostAnswers401() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let routes = try adminRoutes(sandbox)
        #expect(routes.count >= 18, "found \(routes.map(\.route))")
        for (method, path, route) in routes {
            let response = try send(sandbox, method, path, body: "{}")
            if ["GET /sandbox/health", "POST /sandbox/sink/{name}"].contains(route) {
                #expect(response.status == 200, "\(route) should stay open")
            } else {
                #expect(response.status == 401, "\(route): \(response.status)")
                #expect(response.bodyText == Self.missing, "\(route)")
                #expect(response.headers["WWW-Authenticate"] == Self.challenge, "\(route)")
                #expect(response.headers["Content-Type"] == "application/json", "\(route)")
            }
        }
    }

    @Test func withTheTokenEveryAdminRouteAnswersAsUsual() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        for (method, path, route) in try adminRoutes(sandbox) {
            let response = try send(sandbox, method, path, authorization: "Bearer \(Self.token)", body: "{}")
            #expect(response.status != 401, "\(route): \(response.bodyText)")
        }
        let clock = try send(sandbox, "GET", "/sandbox/clock", authorization: "Bearer \(Self.token)")
        #expect(clock.status == 200)
        #expect(clock.bodyText == #"{"mode":"manual","next_event_at":null,"now":"2026-01-05T09:00:00Z"}"#)
        // The scheme is case-insensitive (RFC 9110 §11.1).
        #expect(try send(sandbox, "GET", "/sandbox/clock", authorization: "bearer \(Self.token)").status == 200)
    }

    @Test(arguments: [
        "Bearer s3cret-Token_4", "Bearer s3cret-Token_42x", "Bearer S3CRET-TOKEN_42", "Bearer x", "Bearer \(String(repeating: "a", count: 4096))",
    ])
    func aWrongTokenIs401InvalidToken(authorization: String) throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let response = try send(sandbox, "GET", "/sandbox/cashouts", authorization: authorization)
        #expect(response.status == 401)
        #expect(response.bodyText == Self.invalid)
        #expect(response.headers["WWW-Authenticate"] == Self.challenge + #", error="invalid_token""#)
    }

    @Test(arguments: ["Basic czNjcmV0LVRva2VuXzQy", "Bearer", "Bearer ", "s3cret-Token_42", "Token s3cret-Token_42"])
    func anotherSchemeOrNoTokenIs401Missing(authorization: String) throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let response = try send(sandbox, "POST", "/sandbox/reset", authorization: authorization)
        #expect(response.status == 401)
        #expect(response.bodyText == Self.missing)
        #expect(response.headers["WWW-Authenticate"] == Self.challenge)
    }

    @Test func unknownAdminPathsDoNotSayWhetherTheyExistWithoutTheToken() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        #expect(try send(sandbox, "GET", "/sandbox/nothing").bodyText == Self.missing)
        #expect(try send(sandbox, "DELETE", "/sandbox/clock").bodyText == Self.missing)
        let known = try send(sandbox, "GET", "/sandbox/nothing", authorization: "Bearer \(Self.token)")
        #expect(known.status == 404)
        #expect(known.bodyText == #"{"code":404,"message":"No such endpoint: GET /sandbox/nothing"}"#)
    }

    @Test func theHealthProbeAndTheSinksReceivingEndStayOpenButReadingTheSinkDoesNot() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let health = try send(sandbox, "GET", "/sandbox/health")
        #expect(health.bodyText == #"{"clock":{"mode":"manual","now":"2026-01-05T09:00:00Z"},"status":"ok","version":"\#(Sandbox.version)"}"#)
        #expect(try send(sandbox, "HEAD", "/sandbox/health").status == 200)
        let posted = try send(sandbox, "POST", "/sandbox/sink/orders", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                              body: "external_id=order-1")
        #expect(posted.status == 200)
        #expect(posted.bodyText == #"{"received":true}"#)
        #expect(try send(sandbox, "GET", "/sandbox/sink/orders").bodyText == Self.missing)
        #expect(try send(sandbox, "PUT", "/sandbox/sink/orders", body: #"{"answers":[500]}"#).status == 401)
        #expect(try send(sandbox, "DELETE", "/sandbox/sink/orders").status == 401)
        let read = try JSON.parse(try send(sandbox, "GET", "/sandbox/sink/orders", authorization: "Bearer \(Self.token)").body)
        #expect(read["requests"]?[0]?["form"] == ["external_id": "order-1"])
    }

    @Test func theD24APITheDashboardAndTheDocumentsNeedNoAdminToken() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"order-1","country":"BR","currency":"USD","amount":"100.00","#
                   + #""document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","bank_code":"001","#
                   + #""bank_account":"3423422-7","bank_branch":"1234","account_type":"C","#
                   + #""notification_url":"\#(sandbox.baseURL)/sandbox/sink/orders"}"#
        let signature = D24Signing.payloadSignature(body)
        let created = try send(sandbox, "POST", "/v3/cashout", headers: ["Payload-Signature": signature], body: body)
        #expect(created.bodyText == #"{"cashout_id":"1000001"}"#)
        // The read-only endpoints' own Bearer is the merchant's read-only key, not the admin token.
        let banks = try send(sandbox, "GET", "/v3/banks?country=BR", authorization: "Bearer sandbox_read_only")
        #expect(banks.status == 200)
        #expect(try send(sandbox, "GET", "/v3/banks?country=BR", authorization: "Bearer \(Self.token)").status == 401)
        for path in ["/", "/dashboard.js", "/dashboard.css", "/openapi.json", "/postman.json", "/postman/environment.json"] {
            #expect(try send(sandbox, "GET", path).status == 200, "\(path)")
        }
        // Notifications still reach the sink: the clock moved by an authorized call delivers them.
        let advanced = try send(sandbox, "POST", "/sandbox/clock/advance", authorization: "Bearer \(Self.token)", body: #"{"by":"1m"}"#)
        #expect(try JSON.parse(advanced.body)["events_applied"] == 4)  // DELIVERED, COMPLETED and their webhooks
        #expect(sandbox.sinks.received("orders").map(\.answered) == [200, 200])
    }

    @Test(arguments: [nil, ""])
    func withoutATokenTheAdminAPIIsOpen(token: String?) throws {
        let sandbox = try sandbox(token: token)
        defer { sandbox.stop() }
        #expect(try send(sandbox, "GET", "/sandbox/cashouts").bodyText == #"{"cashouts":[]}"#)
        #expect(try send(sandbox, "GET", "/sandbox/cashouts", authorization: "Bearer anything").status == 200)
    }
}
