@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxD24
@testable import SandboxContract
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxMannco
import TestHelpers
import Testing

/// `GET /openapi.json`: the document is served as JSON, names the server it was asked on, and
/// describes exactly the routes the router has. (.ci/check-openapi validates it against the
/// OpenAPI 3.1 specification and fuzzes the server with it.)
@Suite struct OpenAPIDocumentTests {
    private static let methods: Set = ["get", "put", "post", "delete", "patch", "head", "options"]

    private func sandbox() throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.allowedHosts = ["sandbox.example"]  // a QA host name, allowed on a loopback sandbox
        return try Sandbox.launch(configuration)
    }

    private func document(from sandbox: Sandbox, host: String) throws -> (response: HTTPResponse, json: JSON) {
        let response = sandbox.respond(to: HTTPRequest(method: "GET", target: "/openapi.json", headers: ["Host": host]))
        return (response, try JSON.parse(response.body))
    }

    /// Every route `sandbox`'s router serves, as it numbers them (no source text read): each
    /// `HEAD` twin left out (the router answers it from its `GET`), and the gRPC layer's own
    /// services (health, reflection) and streaming methods, which are described by reflection, not
    /// as Connect's JSON. The dialects' unary methods stay: Connect's JSON serves them as plain POSTs.
    private static func registeredRoutes(_ sandbox: Sandbox) -> Set<String> {
        let streaming = Sandbox.standardDialects.flatMap(\.grpcFiles).flatMap(\.services).flatMap { service in
            service.methods.filter { !$0.isUnary }.map { "POST /\(service.fullName)/\($0.name)" }
        }
        return Set(sandbox.routeNames.dropFirst().filter { route in
            !route.hasPrefix("HEAD ") && !route.hasPrefix("POST /grpc.") && !streaming.contains(route)
        })
    }

    /// `"POST /v3/cashout"` for each operation of `paths`.
    private static func documentedRoutes(_ document: JSON) throws -> Set<String> {
        let paths = try #require(document["paths"]?.objectValue)
        return Set(paths.flatMap { path, item in
            (item.objectValue ?? [:]).keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" }
        })
    }

    /// A sandbox that serves no API with accounts (here none at all) still documents
    /// `/sandbox/accounts`, whose every path answers 404, and the scenario format and the ledger,
    /// with no choice among nothing: no empty `oneOf` or `anyOf`, which JSON Schema refuses, and
    /// the account's API any name (not an empty `enum`, which it advises against).
    @Test func withoutAccountsTheAccountsResourceOffersNoEmptyChoice() throws {
        var configuration = Sandbox.Configuration()
        configuration.dialects = []
        let sandbox = try Sandbox.launch(configuration)
        defer { sandbox.stop() }
        let (_, json) = try document(from: sandbox, host: "127.0.0.1")
        let put = try #require(json["paths"]?["/sandbox/accounts/{dialect}/{id}"]?["put"])
        #expect(put["parameters"]?[0]?["schema"] == ["type": "string"])
        func emptyChoices(_ value: JSON, at path: String) -> [String] {
            switch value {
            case .object(let members):
                members.flatMap { key, member in
                    (["oneOf", "anyOf"].contains(key) && member.arrayValue?.isEmpty == true ? ["\(path)/\(key)"] : [])
                        + emptyChoices(member, at: "\(path)/\(key)")
                }
            case .array(let items): items.enumerated().flatMap { emptyChoices($1, at: "\(path)/\($0)") }
            default: []
            }
        }
        #expect(emptyChoices(json, at: "").isEmpty)
        let response = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/accounts/d24")
        #expect(response.status == 404)
    }

    @Test func servesOpenAPI310AsJSONNamingTheServerByTheHostHeader() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let (response, json) = try document(from: sandbox, host: "sandbox.example:9090")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(json["openapi"] == "3.1.0")
        #expect(json["servers"]?[0]?["url"] == "http://sandbox.example:9090")
        #expect(try document(from: sandbox, host: "127.0.0.1:1234").json["servers"]?[0]?["url"] == "http://127.0.0.1:1234")
        #expect(json["components"]?["securitySchemes"]?["PayloadSignature"]
            == ["type": "apiKey", "in": "header", "name": "Payload-Signature",
                "description": "Lowercase hex HMAC-SHA256 of the exact request body, keyed with the merchant's secret"])
    }

    @Test func documentsEveryRouteTheRouterRegistersAndNoOther() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let registered = Self.registeredRoutes(sandbox)
        #expect(registered.count >= 29, "the router has only \(registered.sorted())")
        #expect(registered.isSuperset(of: ["POST /v3/cashout", "DELETE /v3/cashout/cancel", "GET /v3/exchange_rates",
                                           "POST /sandbox/cashouts/{id}/actions", "GET /openapi.json", "GET /",
                                           "POST /types.PayoutService/Create"]))
        let documented = try Self.documentedRoutes(document(from: sandbox, host: "localhost").json)
        #expect(registered.subtracting(documented).sorted() == [], "registered but not documented")
        #expect(documented.subtracting(registered).sorted() == [], "documented but not registered")
    }

    @Test func everyDocumentedOperationReachesAHandler() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let documented = try Self.documentedRoutes(document(from: sandbox, host: "localhost").json)
        for route in documented.sorted() {
            let parts = route.split(separator: " ")
            let target = parts[1].replacingOccurrences(of: #"\{[^}]+\}"#, with: "1", options: .regularExpression)
            let response = sandbox.respond(to: HTTPRequest(method: String(parts[0]), target: target, headers: ["Host": "localhost"]))
            let message = (try? JSON.parse(response.body))?["message"]?.stringValue ?? ""
            #expect(response.status != 405 && !message.hasPrefix("No such endpoint"), "\(route): \(response.status) \(message)")
        }
    }

    @Test func everyOperationHasAnIDAndEveryReferenceResolves() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let json = try document(from: sandbox, host: "localhost").json
        let schemas = try #require(json["components"]?["schemas"]?.objectValue)
        let ids = (json["paths"]?.objectValue?.values ?? [:].values).flatMap { item in
            (item.objectValue ?? [:]).values.compactMap { $0["operationId"]?.stringValue }
        }
        var mentioned: Set<String> = []  // operations' own ids and the targets of links
        var references: Set<String> = []
        func walk(_ value: JSON) {
            switch value {
            case .object(let members):
                if let id = members["operationId"]?.stringValue { mentioned.insert(id) }
                if let reference = members["$ref"]?.stringValue { references.insert(reference) }
                members.values.forEach(walk)
            case .array(let elements): elements.forEach(walk)
            default: break
            }
        }
        walk(json)
        #expect(Set(ids).count == ids.count, "duplicate operationId")
        #expect(ids.count == (try Self.documentedRoutes(json)).count)
        #expect(mentioned == Set(ids), "a link names an operation that does not exist")
        #expect(json["paths"]?["/v3/cashout"]?["post"]?["responses"]?["200"]?["links"]?["ForceOutcome"]?["parameters"]
            == ["id": "$response.body#/cashout_id"])
        // A reference is a JSON pointer: a component, or a schema inside one (`Scenario.requestPattern/properties/body`).
        let missing = references.filter { reference in
            let path = reference.dropFirst("#/components/schemas/".count).split(separator: "/").map(String.init)
            return path.dropFirst().reduce(schemas[path.first ?? ""]) { $0?[$1] } == nil
        }
        #expect(missing.sorted() == [])
    }

    /// The Mannco operations' examples are exactly what a fresh sandbox answers at the documents'
    /// time: the login example's token, the balance, the example cashout and its history; a second
    /// cashout is the documented 300, no token the documented 403.
    /// What the handlers check, the document says, read from the same declarations: the version,
    /// the statuses a listing takes (the sandbox's names and each API's words), D24's countries,
    /// the journal's smallest `limit`, the clock's three exclusive forms, a scenario's top-level keys.
    /// `POST /sandbox/scenario`'s body is what `cashout-sandbox schema` prints (scenarios/schema.json): the file's
    /// schema as the component `Scenario`, each definition as `Scenario.NAME`, references made the document's.
    @Test func aScenarioBodyIsTheScenarioFormatsSchema() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let components = try #require(try document(from: sandbox, host: "localhost").json["components"]?["schemas"]?.objectValue)
        let text = ScenarioFormat.schema(Sandbox.standardVocabulary).schemaText
            .replacingOccurrences(of: "\"#/$defs/", with: "\"#/components/schemas/Scenario.")
        var file = try #require(try JSON.parse(Array(text.utf8)).objectValue)
        let definitions = try #require(file.removeValue(forKey: "$defs")?.objectValue)
        file["$schema"] = nil
        file["$id"] = nil
        #expect(components["Scenario"] == .object(file))
        #expect(definitions.count > 40)
        for (name, definition) in definitions { #expect(components["Scenario.\(name)"] == definition, "Scenario.\(name)") }
        #expect(components.keys.filter { $0.hasPrefix("Scenario.") }.count == definitions.count)
    }

    @Test func theConstraintsComeFromWhatTheHandlersCheck() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let json = try document(from: sandbox, host: "localhost").json
        #expect(json["info"]?["version"] == .string(Sandbox.version))
        func parameter(_ path: String, _ name: String) -> JSON? {
            json["paths"]?[path]?["get"]?["parameters"]?.arrayValue?.first { $0["name"] == .string(name) }?["schema"]
        }
        let statuses = (parameter("/sandbox/cashouts", "status")?["enum"]?.arrayValue ?? []).compactMap { $0.stringValue }
        let words = Sandbox.standardDialects.flatMap { dialect in PayoutStatus.allCases.compactMap(dialect.statusWord) }
        #expect(Set(statuses) == Set(PayoutStatus.allCases.map(\.name) + words))
        #expect(statuses.contains("SUCCESS") && statuses.contains("completed") && statuses.contains("STAGED"))
        #expect(parameter("/v3/banks", "country")?["enum"] == .array(D24Countries.allCountries.map { .string($0) }))
        #expect(parameter("/sandbox/requests", "limit")?["minimum"] == 1)
        let advance = try #require(json["components"]?["schemas"]?["AdvanceClockRequest"]?["oneOf"]?.arrayValue)
        #expect(advance.map { $0["required"] } == [["by"], ["to"], ["to_next_event"]])
        #expect(advance.allSatisfy { $0["additionalProperties"] == false })
        let body = json["paths"]?["/sandbox/scenario"]?["post"]?["requestBody"]?["content"]?["application/json"]?["schema"]
        #expect(body == ["$ref": "#/components/schemas/Scenario"])
        let scenario = json["components"]?["schemas"]?["Scenario"]
        #expect(scenario?["additionalProperties"] == false)
        #expect(Set(scenario?["properties"]?.objectValue?.keys.map { $0 } ?? []) == Set(ScenarioLoader.topLevelKeys(Sandbox.standardVocabulary)))
        let create = json["components"]?["schemas"]?["CreateCashoutRequest"]?["properties"]?["external_id"]
        #expect(create?["minLength"] == 1)
    }

    /// The document says what JSON Schema can of what the handlers refuse, and the sandbox
    /// answers so: a proto3 JSON field under both its names (the message's description says it, and
    /// the decoder answers "field given twice"), webhook chaos rules whose members go with their kind (the
    /// scenario format's `chaosRule`), a verification's matchers as a scenario's (amounts by their
    /// form), and an account update that is any API's (`{"balance": "5.00"}` is D24's and
    /// PayoutService's: `anyOf`, not `oneOf`).
    @Test func theDocumentSaysWhatJSONSchemaCanAndTheSandboxAgrees() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let json = try document(from: sandbox, host: "localhost").json
        let schemas = json["components"]?["schemas"]
        func body(_ path: String, _ method: String) -> JSON? {
            json["paths"]?[path]?[method]?["requestBody"]?["content"]?["application/json"]?["schema"]
        }

        let get = schemas?["types.PayoutServiceGetRequest"]
        #expect(get?["description"]?.stringValue?.hasSuffix("A field is named by its JSON name or its .proto name, not both.") == true)
        #expect(get?["not"] == nil)  // no `not`: schemathesis's coverage phase would enumerate it for minutes
        let twice = sandbox.respond(to: HTTPRequest(method: "POST", target: "/types.PayoutService/Get",
                                                    headers: ["Content-Type": "application/json", "x-connector": "sandbox", "x-auth": "header-key",
                                                              "x-api-key": "sandbox_prism_key"],
                                                    body: Array(#"{"connectorPayoutId": "1", "connector_payout_id": "1"}"#.utf8)))
        #expect(twice.status == 400 && twice.bodyText.contains("field given twice"), "\(twice.status) \(twice.bodyText)")

        #expect(body("/sandbox/webhooks/chaos", "put") == ["type": "array", "items": ["$ref": "#/components/schemas/Scenario.chaosRule"]])
        let pattern = schemas?["RequestPattern"]?["properties"]
        for member in ["method", "path", "dialect"] { #expect(pattern?[member] == ["$ref": "#/components/schemas/Scenario.matcher"]) }
        let verify = sandbox.respond(to: HTTPRequest(method: "POST", target: "/sandbox/requests/verify",
                                                     body: Array(#"{"request": {"path": {"lte": "1.234"}}}"#.utf8)))
        #expect(verify.status == 400, "\(verify.bodyText)")  // Scenario.amount's pattern refuses it too

        let update = body("/sandbox/accounts/{dialect}/{id}", "put")
        #expect(update?["anyOf"]?.arrayValue?.count == 3 && update?["oneOf"] == nil)
        for dialect in ["d24", "prism"] {
            let id = dialect == "d24" ? "sandbox_login" : "DefaultMerchantId"
            let put = sandbox.respond(to: HTTPRequest(method: "PUT", target: "/sandbox/accounts/\(dialect)/\(id)",
                                                      body: Array(#"{"balance": "5.00"}"#.utf8)))
            #expect(put.status == 200, "\(dialect): \(put.status) \(put.bodyText)")
        }
    }

    @Test func theManncoExamplesAreWhatTheSandboxAnswers() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let json = try document(from: sandbox, host: "localhost").json
        #expect(json["components"]?["securitySchemes"]?["ManncoJWT"]?["scheme"] == "bearer")
        #expect(json["components"]?["securitySchemes"]?["ManncoJWT"]?["bearerFormat"] == "JWT")
        let process = try #require(json["paths"]?["/cashout/process"]?["post"])
        #expect(process["tags"] == ["Mannco"])
        #expect(process["security"] == [["ManncoJWT": []]])
        func send(_ method: String, _ path: String, token: String? = nil, body: JSON? = nil) throws -> (status: Int, json: JSON) {
            var headers: HTTPHeaders = ["Host": "localhost", "Content-Type": "application/json"]
            if let token { headers["Authorization"] = "Bearer \(token)" }
            let response = sandbox.respond(to: HTTPRequest(method: method, target: path, headers: headers,
                                                           body: body?.serialized() ?? []))
            return (response.status, try JSON.parse(response.body))
        }

        let loginBody = json["paths"]?["/user/login"]?["post"]?["requestBody"]?["content"]?["application/json"]
        let login = try send("POST", "/user/login", body: .object(try #require(loginBody?["examples"]?["default user"]?["value"]?.objectValue)))
        #expect(login.status == 200)
        #expect(login.json == json["paths"]?["/user/login"]?["post"]?["responses"]?["200"]?["content"]?["application/json"]?["example"])
        let token = try #require(login.json["content"]?["jwt"]?.stringValue)
        let balance = json["paths"]?["/user/balance"]?["get"]?["responses"]?["200"]?["content"]?["application/json"]?["example"]
        #expect(try send("GET", "/user/balance", token: token).json == balance)

        let example = try #require(process["requestBody"]?["content"]?["application/json"]?["examples"]?["document 002"]?["value"])
        #expect(example == ["amount": .number(Int(ManncoExample.amount)), "method": .string(ManncoExample.method.rawValue),
                            "email": .string(ManncoExample.email)])
        let answer = try send("POST", "/cashout/process", token: token, body: example)
        #expect(answer.status == 200)
        #expect(answer.json == process["responses"]?["200"]?["content"]?["application/json"]?["example"])
        #expect(answer.json["content"]?["netAmount"] == 98_000 && answer.json["content"]?["estimatedCompletion"] == "1767862800")
        let history = json["paths"]?["/user/getCashoutHistory"]?["get"]?["responses"]?["200"]?["content"]?["application/json"]?["example"]
        #expect(try send("GET", "/user/getCashoutHistory", token: token).json == history)

        let refusals = process["responses"]?["300"]?["content"]?["application/json"]?["examples"]?.objectValue ?? [:]
        let again = try send("POST", "/cashout/process", token: token, body: example)
        #expect(again.status == 300)
        #expect(again.json == refusals[ManncoMessage.pendingExists]?["value"])
        #expect(Set(refusals.keys) == [ManncoMessage.missing("amount"), ManncoMessage.missing("method"), ManncoMessage.invalidAmount,
                                       ManncoMessage.invalidMethod, ManncoMessage.invalidEmail, ManncoMessage.belowMinimum,
                                       ManncoMessage.verificationRequired, ManncoMessage.methodNotLinked, ManncoMessage.pendingExists,
                                       ManncoMessage.cooldown, ManncoMessage.insufficientBalance])

        let noToken = try send("GET", "/user/balance")
        #expect(noToken.status == 403)
        let forbidden = json["paths"]?["/user/balance"]?["get"]?["responses"]?["403"]?["content"]?["application/json"]?["examples"]
        #expect(noToken.json == forbidden?[ManncoMessage.forbidden]?["value"])
        #expect(noToken.json == ["err": true, "success": false, "content": "forbidden"])
    }
}
