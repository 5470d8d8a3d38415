@testable import CashoutSandbox
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxMannco
import TestHelpers
import Testing
import Foundation
@testable import SandboxBank

/// `GET /postman.json` and `GET /postman/environment.json`. Running every request of the collection
/// against a live sandbox is `.ci/check-postman`'s job; these check its shape.
@Suite struct PostmanCollectionTests {
    private func get(_ path: String) throws -> (status: Int, json: JSON) {
        let sandbox = try Sandbox.launch()
        defer { sandbox.stop() }
        let response = sandbox.respond(to: HTTPRequest(method: "GET", target: path, headers: ["Host": "127.0.0.1:9999"]))
        return (response.status, try JSON.parse(response.body))
    }

    /// Every request of the collection, depth first: `(method, raw URL)`.
    private func requests(in item: JSON) -> [(method: String, url: String)] {
        if let children = item["item"]?.arrayValue { return children.flatMap(requests) }
        guard let request = item["request"] else { return [] }
        return [(request["method"]?.stringValue ?? "", request["url"]?["raw"]?.stringValue ?? "")]
    }

    @Test func theCollectionIsPostmanV21WithTheProvidersVariableNames() throws {
        let (status, collection) = try get("/postman.json")
        #expect(status == 200)
        #expect(collection["info"]?["schema"] == "https://schema.getpostman.com/json/collection/v2.1.0/collection.json")
        let variables = Dictionary(uniqueKeysWithValues: (collection["variable"]?.arrayValue ?? []).compactMap { variable in
            variable["key"]?.stringValue.map { ($0, variable["value"]?.stringValue ?? "") }
        })
        #expect(variables["baseUrl"] == "http://127.0.0.1:9999")
        #expect(variables["apiKey"] == "sandbox_login")
        #expect(variables["apiPassphrase"] == "sandbox_pass")
        #expect(variables["apiSignature"] == "sandbox_secret")
    }

    @Test func everyD24RouteAppearsAndTheSignatureScriptSignsTheSubstitutedBody() throws {
        let (_, collection) = try get("/postman.json")
        let routes = Set(requests(in: collection).map { "\($0.method) \($0.url.split(separator: "?")[0])" })
        for route in ["POST /v3/cashout", "POST /v3/cashout/status", "PUT /v3/cashout/status", "DELETE /v3/cashout/cancel",
                      "GET /v3/banks", "GET /v3/exchange_rates", "POST /sandbox/clock/advance",
                      "POST /sandbox/cashouts/{{adminCashoutId}}/actions", "GET /sandbox/sink/postman"] {
            let (method, path) = (route.split(separator: " ")[0], route.split(separator: " ")[1])
            #expect(routes.contains("\(method) {{baseUrl}}\(path)"), "\(route) is missing")
        }
        let prerequest = collection["event"]?.arrayValue?.first { $0["listen"] == "prerequest" }
        let script = (prerequest?["script"]?["exec"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: "\n")
        #expect(script.contains("CryptoJS.HmacSHA256(body, pm.variables.get('apiSignature')).toString(CryptoJS.enc.Hex)"))
        #expect(script.contains("pm.variables.replaceIn(pm.request.body.raw)"))
        #expect(script.contains("pm.request.headers.upsert({ key: 'Payload-Signature', value: signature })"))
    }

    /// Each request of the collection names a route the router serves (read from the router, not
    /// the sources): its method, and its path segment by segment, any segment (a value, or a
    /// `{{variable}}`) standing for a `{parameter}`.
    @Test func everyRequestIsARouteTheSandboxServes() throws {
        let sandbox = try Sandbox.launch()
        defer { sandbox.stop() }
        let collection = try JSON.parse(sandbox.respond(to: HTTPRequest(method: "GET", target: "/postman.json")).body)
        let routes = sandbox.routeNames.dropFirst().map { route in
            (method: route.prefix { $0 != " " }, segments: route.drop { $0 != " " }.dropFirst().split(separator: "/"))
        }
        let sent = requests(in: collection)
        #expect(sent.count > 50)
        for (method, url) in sent {
            let segments = url.dropFirst("{{baseUrl}}".count).split(separator: "?")[0].split(separator: "/")
            let served = routes.contains { route in
                route.method == method && route.segments.count == segments.count && zip(route.segments, segments).allSatisfy { pattern, given in
                    pattern == given || pattern.hasPrefix("{")
                }
            }
            #expect(served, "\(method) \(url) is no route of the sandbox")
        }
    }

    @Test func everyRequestDeclaresTheStatusItExpects() throws {
        let (_, collection) = try get("/postman.json")
        func items(_ item: JSON) -> [JSON] {
            item["item"]?.arrayValue.map { $0.flatMap(items) } ?? [item]
        }
        let all = items(collection)
        #expect(all.count > 30)
        for item in all {
            let tests = item["event"]?.arrayValue?.first { $0["listen"] == "test" }?["script"]?["exec"]?.arrayValue ?? []
            #expect(tests.contains { $0.stringValue?.contains("pm.response.to.have.status(") == true },
                    "\(item["name"]?.stringValue ?? "?") declares no status")
        }
    }

    @Test func theEnvironmentHoldsTheDefaultMerchantAndUser() throws {
        let (status, environment) = try get("/postman/environment.json")
        #expect(status == 200)
        let values = (environment["values"]?.arrayValue ?? []).compactMap { value in
            value["key"]?.stringValue.map { "\($0)=\(value["value"]?.stringValue ?? "")" }
        }
        #expect(values == ["baseUrl=http://127.0.0.1:9999", "apiKey=sandbox_login", "apiPassphrase=sandbox_pass",
                           "apiSignature=sandbox_secret", "readOnlyKey=sandbox_read_only",
                           "manncoApiKey=sandbox_mannco_key", "manncoUserId=76561198000000001",
                           "prismMerchantId=DefaultMerchantId", "prismApiKey=sandbox_prism_key", "adminToken="])
        let types = (environment["values"]?.arrayValue ?? []).compactMap { $0["type"]?.stringValue }
        #expect(types == ["default", "default", "default", "secret", "default", "secret", "default", "default", "secret", "secret"])
    }

    @Test func everyAdminRequestSendsTheAdminTokenAndNoOtherDoes() throws {
        let (_, collection) = try get("/postman.json")
        func items(_ item: JSON) -> [JSON] {
            item["item"]?.arrayValue.map { $0.flatMap(items) } ?? [item]
        }
        let all = items(collection)
        #expect(all.contains { $0["request"]?["url"]?["raw"] == "{{baseUrl}}/sandbox/metrics" })
        for item in all {
            let url = item["request"]?["url"]?["raw"]?.stringValue ?? ""
            let authorization = item["request"]?["header"]?.arrayValue?.first { $0["key"] == "Authorization" }?["value"]?.stringValue
            if url.hasPrefix("{{baseUrl}}/sandbox/") {
                #expect(authorization == "Bearer {{adminToken}}", "\(url)")
            } else {
                #expect(authorization != "Bearer {{adminToken}}", "\(url)")
            }
        }
    }

    /// The cashouts the collection holds, cancels or forces are still PENDING however long a person
    /// takes before the next request: their creates, as the collection sends them, with a day of
    /// the clock after each. (`.ci/check-postman --pace 20s` runs the whole collection so.)
    @Test func theCashoutsItHoldsCancelsOrForcesStayPendingOnTheDefaultBank() throws {
        let (_, collection) = try get("/postman.json")
        func items(_ item: JSON) -> [JSON] {
            item["item"]?.arrayValue.map { $0.flatMap(items) } ?? [item]
        }
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        let sandbox = try Sandbox.launch(configuration)
        defer { sandbox.stop() }
        let names = ["Create cashout", "Create a cashout to force", "Create a cashout to reject"]
        let creates = items(collection).filter { names.contains($0["name"]?.stringValue ?? "") }
        #expect(creates.count == names.count)
        for (index, item) in creates.enumerated() {
            var body = try #require(item["request"]?["body"]?["raw"]?.stringValue)
            for (variable, value) in ["apiKey": "sandbox_login", "apiPassphrase": "sandbox_pass", "newExternalId": "pace-\(index)",
                                      "baseUrl": "http://127.0.0.1"] {
                body = body.replacingOccurrences(of: "{{\(variable)}}", with: value)
            }
            let response = sandbox.respond(to: HTTPRequest(method: "POST", target: "/v3/cashout",
                                                           headers: ["Content-Type": "application/json",
                                                                     "Payload-Signature": D24Signing.payloadSignature(body)],
                                                           body: Array(body.utf8)))
            let id = try #require(try JSON.parse(response.body)["cashout_id"]?.stringValue, "\(response.bodyText)")
            _ = sandbox.respond(to: HTTPRequest(method: "POST", target: "/sandbox/clock/advance", body: Array(#"{"by":"1d"}"#.utf8)))
            let cashout = try JSON.parse(sandbox.respond(to: HTTPRequest(method: "GET", target: "/sandbox/cashouts/\(id)")).body)
            #expect(cashout["status"] == "PENDING", "\(item["name"]?.stringValue ?? "")")
        }
    }

    /// The Mannco folders: "Login" saves the JWT, every request after it sends it (but those that
    /// show what a bad or missing one gets), in an order a run on a fresh sandbox passes.
    @Test func theManncoFoldersLogInFirstAndSendTheSavedJWT() throws {
        let (_, collection) = try get("/postman.json")
        let folders = collection["item"]?.arrayValue ?? []
        #expect(folders.compactMap { $0["name"]?.stringValue }
            == ["D24 Cashouts API v3", "Errors", "Mannco user cashouts", "Mannco errors", "PayoutService (Connect JSON)", "Sandbox admin"])
        func requests(_ folder: String) -> [JSON] {
            folders.first { $0["name"]?.stringValue == folder }?["item"]?.arrayValue ?? []
        }
        func line(_ item: JSON) -> String {
            let request = item["request"]
            let url = request?["url"]?["raw"]?.stringValue ?? ""
            let authorization = request?["header"]?.arrayValue?.first { $0["key"] == "Authorization" }?["value"]?.stringValue
            let tests = item["event"]?.arrayValue?.first { $0["listen"] == "test" }?["script"]?["exec"]?[0]?.stringValue ?? ""
            let status = tests.split(separator: "(").last?.prefix { $0.isNumber } ?? ""
            return "\(request?["method"]?.stringValue ?? "") \(url.dropFirst("{{baseUrl}}".count)) \(status)"
                + (authorization.map { " [\($0)]" } ?? "")
        }
        #expect(requests("Mannco user cashouts").map(line) == [
            "POST /user/login 200", "GET /user/balance 200 [Bearer {{manncoJwt}}]", "POST /cashout/link 200 [Bearer {{manncoJwt}}]",
            "GET /cashout/link/{{manncoLinkToken}} 200", "POST /cashout/link 200 [Bearer {{manncoJwt}}]",
            "POST /cashout/process 200 [Bearer {{manncoJwt}}]", "GET /user/getCashoutHistory?page=1&perpage=20 200 [Bearer {{manncoJwt}}]",
            "POST /cashout/unlink 200 [Bearer {{manncoJwt}}]", "GET /sandbox/users 200 [Bearer {{adminToken}}]",
            "GET /sandbox/emails?user={{manncoUserId}} 200 [Bearer {{adminToken}}]",
        ])
        #expect(requests("Mannco errors").map(line) == [
            "POST /user/login 300", "POST /user/login 403", "GET /user/balance 403", "GET /user/balance 403 [Bearer not.a.jwt]",
            "POST /cashout/process 300 [Bearer {{manncoJwt}}]", "POST /cashout/process 300 [Bearer {{manncoJwt}}]",
            "POST /cashout/process 300 [Bearer {{manncoJwt}}]", "POST /cashout/process 300 [Bearer {{manncoJwt}}]",
            "GET /user/getCashoutHistory?perpage=0 300 [Bearer {{manncoJwt}}]", "POST /cashout/unlink 300 [Bearer {{manncoJwt}}]",
            "POST /sandbox/clock/advance 200 [Bearer {{adminToken}}]", "POST /cashout/process 300 [Bearer {{manncoJwt}}]",
        ])

        let login = try #require(requests("Mannco user cashouts").first)
        #expect(login["request"]?["body"]?["raw"] == "{\n    \"apiKey\": \"{{manncoApiKey}}\"\n}")
        let loginTests = login["event"]?.arrayValue?.first { $0["listen"] == "test" }?["script"]?["exec"]?.arrayValue ?? []
        #expect(loginTests.contains("pm.collectionVariables.set('manncoJwt', String(pm.response.json().content.jwt));"))
        let cooldown = try #require(requests("Mannco errors").last)
        let cooldownTests = cooldown["event"]?.arrayValue?.first { $0["listen"] == "test" }?["script"]?["exec"]?.arrayValue ?? []
        #expect(cooldownTests.contains(.string("pm.test('content is \"\(ManncoMessage.cooldown)\"', function () { "
            + "pm.expect(pm.response.json().content).to.eql('\(ManncoMessage.cooldown)'); });")))
        let variables = (collection["variable"]?.arrayValue ?? []).compactMap { $0["key"]?.stringValue }
        #expect(Set(variables).isSuperset(of: ["manncoApiKey", "manncoUserId", "manncoJwt", "manncoLinkToken", "manncoCashoutId"]))
    }
}
