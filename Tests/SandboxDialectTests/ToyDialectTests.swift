@testable import CashoutSandbox
import Foundation
@testable import SandboxContract
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// A payout API of a few lines, `POST /echo/payouts` with a JSON body and a gRPC method
/// (`echo.EchoService/Get`, of its own echo.proto), to show that an API plugs in through the seam
/// alone: nothing in the bank or the facade knows it. Its part of the documents, the report and
/// the dashboard is its own too (the extensions below).
private struct EchoDialect: Dialect, ScenarioDialect {
    let name = "echo"
    var scenarioVocabulary: ScenarioVocabulary { ScenarioVocabulary(ruleFields: ["reference", "amount", "currency"]) }

    /// Its accounts, neutral ones (`/sandbox/accounts/echo/{id}`), and its one to start with,
    /// which the bank keeps beside D24's merchants.
    var accounts: AccountKind? {
        AccountKind(template: { Account(id: $0, dialect: "echo", balance: .zero) },
                    defaults: [Account(id: "echo_account", dialect: name, balance: Money("1000.00")!)])
    }

    /// Its operations, each declared once: its id, route or gRPC method and role, which the
    /// router, the gRPC server, the documents, the dashboard, the report and faults read.
    static let create = APIOperation("createEchoPayout", .http("POST", "/echo/payouts"), role: .create)
    static let get = APIOperation("echoGet", .grpc(service: "echo.EchoService", method: "Get"), role: .statusQuery)
    var operations: [APIOperation] { [Self.create, Self.get] }

    /// The service of `get`, as a client generates its stubs from it.
    static let proto = """
        syntax = "proto3";
        package echo;
        service EchoService { rpc Get(GetRequest) returns (Payout); }
        message GetRequest { int64 id = 1; }
        message Payout { int64 id = 1; string state = 2; }
        """
    var grpcFiles: [ProtoFile] { (try? ProtoText.files([("echo.proto", Self.proto)])) ?? [] }

    /// `get`'s handler: a payout by id, with its state; NOT_FOUND for another.
    func registerGRPC(in grpc: inout GRPCServer, bank: Bank) {
        let registry = grpc.registry
        grpc.handle(Self.get) { request, _ in
            guard let payout = bank.payout(id: Int(request.int("id"))) else { return .failure(GRPCStatus(.notFound, "no payout")) }
            var reply = registry.message("echo.Payout")
            reply["id"] = .int(Int64(payout.id))
            reply["state"] = .string(Self.state(payout.status))
            return .message(reply)
        }
    }

    /// Its endpoint: the operation's description and handler, which the router serves and the
    /// documents describe.
    static let createPayout = Endpoint<Bank>(create, OpenAPI.operation(
        tag: "Echo", summary: "Create an echo payout", description: "A payout of the echo API.",
        body: OpenAPI.body(Schema.object(["account": Schema.string(), "reference": Schema.string()], required: ["account", "reference"]),
                           examples: ["five dollars": ["account": "echo_account", "reference": "r1", "currency": "USD", "amount": "5.00"]]),
        responses: ["201": OpenAPI.json("Created", Schema.object(["id": Schema.integer(), "state": Schema.string()]))])) { bank, request in
        guard let body = try? JSON.parse(request.body), let account = body["account"]?.stringValue,
              let reference = body["reference"]?.stringValue, let currency = body["currency"]?.stringValue,
              let amount = body["amount"]?.stringValue.flatMap(Money.init) else {
            return .json(["error": "expected account, reference, currency and amount"], status: 422)
        }
        let fields = Fields([("reference", reference), ("amount", amount.description), ("currency", currency)])
        do throws(PayoutRefusal) {
            let payout = try bank.createPayout(PayoutRequest(
                dialect: "echo", account: account, reference: reference, currency: currency, amount: amount,
                callbackURL: body["callback"]?.stringValue, fields: fields))
            return .json(["id": .number(payout.id), "state": .string(EchoDialect.state(payout.status))], status: 201)
        } catch {
            return .json(["error": .string("refused: \(error)")], status: 409)
        }
    }

    func register(in router: inout Router, bank: Bank) {
        router.add([Self.createPayout], serving: bank)
    }

    func notification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification? {
        RenderedNotification(contentType: "application/json") {
            JSON.object(["id": .number(notification.payoutID), "state": .string(Self.state(notification.status))]).serializedString()
        }
    }

    /// Its own names for the bank's statuses.
    static func state(_ status: PayoutStatus) -> String {
        switch status {
        case .staged, .awaitingDetails, .pending, .onHold, .delivered: "in_flight"
        case .completed: "paid"
        case .rejected, .cancelled, .returned, .expired: "failed"
        }
    }
}

/// Its part of the OpenAPI document and the Postman collection, from its declarations: its
/// endpoint, its gRPC method as Connect's JSON, a folder with the requests they describe, its accounts.
extension EchoDialect: DocumentedDialect {
    /// `get` as Connect's JSON serves it, and the schemas of its messages.
    static let connect: (endpoints: [OpenAPIEndpoint], schemas: [String: JSON]) = {
        let registry = ProtoRegistry(EchoDialect().grpcFiles)
        guard let service = registry.service("echo.EchoService") else { preconditionFailure("no echo.EchoService") }
        return OpenAPI.connect(service, registry: registry, tag: "Echo", parameters: [], headers: [:], methods: [
            ConnectMethod(get, summary: "An echo payout", description: "By id, with its state.", examples: ["one": ["id": "1000001"]],
                          errors: [GRPCStatus(.notFound, "no payout")]),
        ])
    }()

    var docs: APIDocsFragment {
        APIDocsFragment(
            tag: "Echo", title: "Echo payouts", overview: "Echo routes take no credentials.", postmanOverview: "Echo: no credentials.",
            endpoints: [Self.createPayout.description] + Self.connect.endpoints.map(EndpointDescription.init),
            schemas: Self.connect.schemas.merging(["EchoAccount": Schema.object(["id": Schema.string()], open: true),
                                                   "EchoAccountUpdate": Schema.object([:], open: true)]) { $1 },
            securitySchemes: [:],
            folders: [.init("Echo payouts", [PostmanCollection.Item(describing: Self.createPayout),
                                             PostmanCollection.Item("An echo payout (Connect JSON)", Self.get, body: #"{"id": "1000001"}"#,
                                                                    expect: 200)],
                            "The echo API's calls.")],
            variables: [], sessionVariables: [], prerequest: [], create: nil, accountVariable: nil,
            accounts: AccountsDocs(dialect: "echo", schema: "EchoAccount", update: "EchoAccountUpdate", legacyPath: nil,
                                   exampleID: "echo_account", currencyKept: "an echo account keeps its currency"))
    }
}

/// Its checks in the integration report: one of its own, which any echo create exercises.
extension EchoDialect: ReportingDialect {
    func facts(of call: OperationCall, bank: Bank) -> RequestFacts? {
        switch call.operation.role {
        case .create:
            RequestFacts(account: call.text("account"), action: .create(beneficiary: call.text("reference") ?? "", amount: call.text("amount") ?? ""),
                         reference: call.text("reference"))
        default:
            RequestFacts(account: call.text("id").flatMap { Int($0) }.flatMap { bank.payout(id: $0)?.account }, action: .statusQuery,
                         payoutID: call.text("id").flatMap { Int($0) })
        }
    }

    func facts(_ facts: RequestFacts, answered answer: JSON, operation: APIOperation) -> RequestFacts {
        var facts = facts
        if operation.role == .create { facts.payoutID = answer["id"]?.numberText.flatMap { Int($0) } }
        return facts
    }

    var ledgerTerms: LedgerTerms? { LedgerTerms(referenceKey: "reference") { $0.reference } }

    var integrationChecks: [IntegrationCheck] {
        [IntegrationCheck(id: "echo_reference_echoed", severity: .warning, advice: "Send a reference.",
                          description: "Each echo create sends a reference.") { evidence in
            evidence.requests.isEmpty ? .notExercised : .passed
        }]
    }
}

/// Its view in the dashboard.
extension EchoDialect: DashboardDialect {
    var dashboard: DashboardPart {
        DashboardPart(views: [DashboardView(name: "echo", title: "Echo", content: "<h1>Echo payouts</h1>")], script: "")
    }
}

@Suite struct ToyDialectTests {
    /// Large echo payouts fail after a minute; the rest keep the default bank (D24's own rules
    /// stay in force for D24).
    static let scenario = #"""
        {"bank": {"rules": [{"name": "big echo payouts fail", "when": {"dialect": "echo", "amount": {"gte": 500}},
                             "then": [{"after": "1m", "status": "REJECTED"}]}]}}
        """#

    private func configuration(_ folder: String, port: Int = 0) throws -> Sandbox.Configuration {
        var configuration = Sandbox.Configuration()
        configuration.server.port = port
        configuration.dialects = Sandbox.standardDialects + [EchoDialect()]
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.stateDirectory = folder
        configuration.scenarios = [try ScenarioLoader.load(Array(Self.scenario.utf8), file: "echo.json",
                                                           vocabulary: configuration.scenarioVocabulary)]
        return configuration
    }

    private func create(_ sandbox: Sandbox, reference: String, amount: String) throws -> HTTPResponse {
        let body = #"{"account":"echo_account","reference":"\#(reference)","currency":"USD","amount":"\#(amount)","#
                   + #""callback":"\#(sandbox.baseURL)/sandbox/sink/echo"}"#
        return try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/echo/payouts", body: Array(body.utf8))
    }

    @Test func aToyDialectPlugsInThroughTheSeamAndSurvivesARestart() throws {
        let folder = NSTemporaryDirectory() + "echo-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try Sandbox.launch(try configuration(folder))
        let big = try create(first, reference: "big", amount: "900.00")
        #expect(big.status == 201)
        #expect(try JSON.parse(big.body)["state"]?.stringValue == "in_flight")
        #expect(try create(first, reference: "small", amount: "5.00").status == 201)
        #expect(try create(first, reference: "small", amount: "5.00").status == 409)  // the bank's own check
        first.advance(by: .seconds(5))  // the default bank: small is delivered
        #expect(first.sinks.received("echo").map(\.body) == [#"{"id":1000002,"state":"in_flight"}"#])
        first.stop()

        // The journal names each payout's dialect: after a restart (on the same port, where the
        // callbacks point) the rule's late rejection and the default bank's completion are still
        // rendered by the echo dialect.
        let second = try Sandbox.launch(try configuration(folder, port: first.addresses[0].port))
        defer { second.stop() }
        #expect(second.bank.payouts().map(\.dialect) == ["echo", "echo"])
        second.advance(by: .seconds(60))
        #expect(second.bank.payout(id: 1_000_001)?.status == .rejected)
        #expect(second.bank.payout(id: 1_000_002)?.status == .completed)
        let received = second.sinks.received("echo")
        #expect(received.map(\.contentType) == ["application/json", "application/json"])
        #expect(received.map(\.body).sorted() == [#"{"id":1000001,"state":"failed"}"#, #"{"id":1000002,"state":"paid"}"#])
        #expect(second.bank.account(id: "echo_account")?.balance == Money("995.00"))
        #expect(second.bank.account(id: "sandbox_login")?.balance == Money("1000000.00"))  // D24's merchant: another API's

        // Its accounts are served by the admin API as neutral ones, from what it declared alone.
        let put = try TestHTTP.send(method: "PUT", url: "\(second.baseURL)/sandbox/accounts/echo/echo_two", body: Array(#"{"balance":"5.00"}"#.utf8))
        #expect(put.status == 201)
        #expect(put.bodyText == #"{"balance":"5.00","currency":"USD","id":"echo_two","limits":{"daily":null,"monthly":null,"transaction":null},"#
                                + #""notification_url":null}"#)
        let listed = try TestHTTP.send(method: "GET", url: "\(second.baseURL)/sandbox/accounts/echo")
        #expect(try JSON.parse(listed.body)["accounts"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["echo_account", "echo_two"])
    }

    /// The documents and the dashboard are assembled from the dialects served: without D24, the
    /// OpenAPI document and the Postman collection hold the echo API's part and the admin API's
    /// alone, and the dashboard has no request form, while its page still loads the same way.
    @Test func documentsAndTheDashboardComeFromTheDialectsServed() throws {
        var configuration = Sandbox.Configuration()
        configuration.dialects = [EchoDialect()]
        let sandbox = try Sandbox.launch(configuration)
        defer { sandbox.stop() }
        let get = { (path: String) throws -> HTTPResponse in try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)\(path)") }
        let openAPI = try JSON.parse(get("/openapi.json").body)
        guard case .object(let paths)? = openAPI["paths"] else { Issue.record("no paths"); return }
        #expect(paths["/sandbox/health"] != nil && !paths.keys.contains { $0.hasPrefix("/v3/") })
        #expect(paths["/sandbox/merchants"] == nil)  // D24's merchants come with D24
        #expect(openAPI["components"]?["securitySchemes"]?["PayloadSignature"] == nil)
        let postman = try JSON.parse(get("/postman.json").body)
        #expect(postman["item"]?.arrayValue?.map { $0["name"]?.stringValue } == ["Echo payouts", "Sandbox admin"])
        #expect(postman["info"]?["name"] == "CashoutSandbox: Echo payouts")
        #expect(postman["event"] == nil)  // no API to sign for
        let page = try get("/").bodyText
        #expect(page.contains(#"id="view-cashouts""#) && !page.contains(#"id="new-form""#))

        let standard = try Sandbox.launch(Sandbox.Configuration())
        defer { standard.stop() }
        #expect(try TestHTTP.send(method: "GET", url: "\(standard.baseURL)/").bodyText.contains(#"id="new-form""#))
    }

    /// Registered beside the three, the echo API appears in every place that lists the APIs: the
    /// OpenAPI document, the Postman collection, the accounts, the report, the dashboard and the
    /// scenario format, from its own file alone.
    @Test func aFourthAPIAppearsEverywhereTheAPIsAreListed() throws {
        var configuration = Sandbox.Configuration()
        configuration.dialects = Sandbox.standardDialects + [EchoDialect()]
        configuration.clockMode = .manual
        let sandbox = try Sandbox.launch(configuration)
        defer { sandbox.stop() }
        let get = { (path: String) throws -> JSON in try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)\(path)").body) }

        let openAPI = try get("/openapi.json")
        #expect(openAPI["paths"]?["/echo/payouts"]?["post"]?["tags"] == ["Echo"])
        #expect(openAPI["tags"]?.arrayValue?.compactMap { $0["name"]?.stringValue }.contains("Echo") == true)
        #expect(openAPI["paths"]?["/sandbox/accounts/{dialect}"]?["get"]?["parameters"]?[0]?["schema"]?["enum"] == ["d24", "mannco", "prism", "echo"])
        #expect(openAPI["paths"]?["/sandbox/requests"]?["get"]?["parameters"]?.arrayValue?.first { $0["name"] == "dialect" }?["schema"]?["enum"]
                == ["d24", "mannco", "prism", "echo"])
        #expect(openAPI["components"]?["schemas"]?["Ledger"]?["properties"]?["payouts"]?["items"]?["properties"]?["reference"]?["description"]
                == "Echo: the merchant's reference")
        let postman = try get("/postman.json")
        #expect(postman["item"]?.arrayValue?.compactMap { $0["name"]?.stringValue }.contains("Echo payouts") == true)
        // From its one declaration: the route served, the operation described, the request in the collection.
        #expect(sandbox.routeNames.contains("POST /echo/payouts"))
        #expect(openAPI["paths"]?["/echo/payouts"]?["post"]?["operationId"] == "createEchoPayout")
        let echoRequest = postman["item"]?.arrayValue?.first { $0["name"] == "Echo payouts" }?["item"]?[0]
        #expect(echoRequest?["name"] == "Create an echo payout")
        #expect(echoRequest?["request"]?["method"] == "POST")
        #expect(echoRequest?["request"]?["url"]?["raw"] == "{{baseUrl}}/echo/payouts")
        #expect(echoRequest?["request"]?["body"]?["raw"] == #"{"account":"echo_account","amount":"5.00","currency":"USD","reference":"r1"}"#)
        #expect(echoRequest?["event"]?[0]?["script"]?["exec"]?[0] == "pm.test('HTTP 201', function () { pm.response.to.have.status(201); });")

        #expect(try create(sandbox, reference: "r1", amount: "5.00").status == 201)
        let accounts = try get("/sandbox/accounts")
        #expect(accounts["accounts"]?["echo"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["echo_account"])
        let report = try get("/sandbox/report?account=echo_account")
        #expect(report["accounts"]?[0]?["dialect"] == "echo")
        #expect(report["accounts"]?[0]?["passed"] == ["echo_reference_echoed"])
        #expect(report["check_descriptions"]?["echo"]?["echo_reference_echoed"] == "Each echo create sends a reference.")

        let page = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/").bodyText
        #expect(page.contains(#"id="view-echo""#) && page.contains("<h1>Echo payouts</h1>"))
    }
}

extension ToyDialectTests {
    /// The echo API's gRPC method, from its declaration alone (`EchoDialect.get`, its .proto and
    /// its handler), reaches every surface: the gRPC server (HTTP/2 framing) and Connect's JSON,
    /// the OpenAPI document under its id, the Postman collection, the dashboard's table of
    /// operations, the request log under its route and API, and a fault that names its route.
    @Test func theToyDialectsGRPCMethodReachesEverySurface() throws {
        var configuration = Sandbox.Configuration()
        configuration.dialects = Sandbox.standardDialects + [EchoDialect()]
        configuration.clockMode = .manual
        let sandbox = try Sandbox.launch(configuration)
        defer { sandbox.stop() }
        #expect(try create(sandbox, reference: "r1", amount: "5.00").status == 201)
        let path = try #require(EchoDialect.get.grpcPath)

        // gRPC, as a generated client sends it.
        let registry = ProtoRegistry(EchoDialect().grpcFiles)
        var message = registry.message("echo.GetRequest")
        message["id"] = .int(1_000_001)
        let grpc = sandbox.respond(to: HTTPRequest(method: "POST", target: path, version: .http2,
                                                   headers: ["content-type": "application/grpc", "te": "trailers"],
                                                   body: GRPCDeframer.frame(message.encoded())))
        #expect((grpc.trailers ?? grpc.headers)["grpc-status"] == "0")
        var deframer = GRPCDeframer()
        let reply = try #require(try deframer.append(grpc.body).first)
        let decoded = try registry.decode("echo.Payout", from: reply)
        #expect(decoded.int("id") == 1_000_001 && decoded.string("state") == "in_flight")

        // Connect's JSON.
        let connect = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)\(path)", headers: ["Content-Type": "application/json"],
                                        body: Array(#"{"id": "1000001"}"#.utf8))
        #expect(connect.status == 200 && connect.bodyText == #"{"id":"1000001","state":"in_flight"}"#)
        let unknown = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)\(path)", headers: ["Content-Type": "application/json"],
                                        body: Array(#"{"id": "7"}"#.utf8))
        #expect(unknown.status == 404 && unknown.bodyText.contains("no payout"))

        // The documents and the dashboard.
        let get = { (path: String) throws -> String in try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)\(path)").bodyText }
        let openAPI = try JSON.parse(Array(get("/openapi.json").utf8))
        #expect(openAPI["paths"]?[path]?["post"]?["operationId"] == "echoGet")
        #expect(openAPI["components"]?["schemas"]?["echo.Payout"] != nil)
        let postman = try JSON.parse(Array(get("/postman.json").utf8))
        let echoItems = postman["item"]?.arrayValue?.first { $0["name"] == "Echo payouts" }?["item"]?.arrayValue ?? []
        #expect(echoItems.contains { $0["request"]?["url"]?["raw"]?.stringValue == "{{baseUrl}}" + path })
        #expect(try get("/dashboard.js").contains(#""echoGet":{"method":"POST","path":"\#(path)"}"#))

        // The request log names its route and API; the report reads it as a status query of its payout.
        let logged = try JSON.parse(Array(get("/sandbox/requests?path=" + path).utf8))["requests"]?.arrayValue ?? []
        #expect(logged.count == 3 && logged.allSatisfy { $0["route"]?.stringValue == EchoDialect.get.route && $0["dialect"] == "echo" })
        let report = try JSON.parse(Array(get("/sandbox/report?account=echo_account").utf8))
        #expect(report["accounts"]?[0]?["requests"] == 3)  // the create, and its payout's two status queries (gRPC, Connect)

        // A fault that names its route answers its calls instead.
        let fault = #"{"faults": [{"when": {"endpoint": "\#(EchoDialect.get.route)"}, "every": 1, "kind": "error", "status": 503}]}"#
        #expect(try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/scenario", body: Array(fault.utf8)).status == 200)
        let faulted = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)\(path)", headers: ["Content-Type": "application/json"],
                                        body: Array(#"{"id": "1000001"}"#.utf8))
        #expect(faulted.status == 503)
    }

    /// The scenario schema reads the dialect list: registered beside the three, the toy dialect's
    /// rule fields are keys a rule's `when` and a chaos rule's `when` may name, as the loader takes them.
    @Test func theScenarioSchemaHasTheToyDialectsRuleFields() throws {
        var configuration = Sandbox.Configuration()
        configuration.dialects = Sandbox.standardDialects + [EchoDialect()]
        let schema = try JSON.parse(ScenarioFormat.schema(configuration.scenarioVocabulary).schemaText)
        let when = schema["$defs"]?["rule"]?["properties"]?["when"]?["properties"]?.objectValue ?? [:]
        #expect(when["reference"] != nil && when["country"] != nil)
        let chaos = schema["$defs"]?["chaosRule"]?["properties"]?["when"]?["propertyNames"]?["enum"]?.arrayValue ?? []
        #expect(chaos.contains("reference"))
        let standard = try JSON.parse(ScenarioFormat.schema(Sandbox.standardVocabulary).schemaText)
        #expect(standard["$defs"]?["rule"]?["properties"]?["when"]?["properties"]?["reference"] == nil)
    }
}
