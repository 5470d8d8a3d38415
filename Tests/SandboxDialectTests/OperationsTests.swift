@testable import CashoutSandbox
import Foundation
@testable import SandboxContract
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// Every surface names only operations the declarations have: each API's `operations`, the
/// admin API's (`AdminRoute`), the accounts' older paths and the sandbox's documents
/// (`DocumentRoute`). The dashboard's script is held to it in DashboardTests.
@Suite struct OperationsTests {
    /// What a standard sandbox declares.
    private static let declared = DocumentRoute.all + Sandbox.standardDialects.operations

    /// `"METHOD /a/{b}"` as a pattern of its method and segments (`{b}` matches any one segment).
    private static func matches(_ route: String, method: String, path: String) -> Bool {
        let (routeMethod, pattern) = (route.prefix { $0 != " " }, route.drop { $0 != " " }.dropFirst())
        let want = pattern.split(separator: "/", omittingEmptySubsequences: false)
        let have = path.split(separator: "/", omittingEmptySubsequences: false)
        return routeMethod == method && want.count == have.count
            && zip(want, have).allSatisfy { wanted, had in wanted == had || (wanted.hasPrefix("{") && wanted.hasSuffix("}")) }
    }

    @Test func idsAndRoutesAreEachDeclaredOnce() {
        let ids = Dictionary(grouping: Self.declared, by: \.id).filter { $0.value.count > 1 }.keys.sorted()
        let routes = Dictionary(grouping: Self.declared, by: \.route).filter { $0.value.count > 1 }.keys.sorted()
        #expect(ids.isEmpty && routes.isEmpty, "twice: \(ids) \(routes)")
    }

    /// The router serves each operation (a gRPC method at its Connect route), and only declared
    /// ones besides gRPC's own services (health, reflection); the gRPC methods are the served
    /// services' methods.
    @Test func theRouterServesWhatIsDeclaredAndNothingElse() throws {
        let sandbox = try Sandbox.launch()
        defer { sandbox.stop() }
        let served = Set(sandbox.routeNames.dropFirst().filter { !$0.hasPrefix("HEAD ") && !$0.hasPrefix("POST /grpc.") })
        let routes = Set(Self.declared.map(\.route))
        #expect(served.subtracting(routes).isEmpty, "served, not declared: \(served.subtracting(routes).sorted())")
        #expect(routes.subtracting(served).isEmpty, "declared, not served: \(routes.subtracting(served).sorted())")
        let services = Set(Sandbox.standardDialects.flatMap(\.grpcServices).flatMap { service in
            service.methods.map { "/\(service.fullName)/\($0.name)" }
        })
        let methods = Set(Self.declared.compactMap(\.grpcPath))
        #expect(methods == services, "\(methods.symmetricDifference(services).sorted())")
    }

    /// The OpenAPI document describes each declared operation under its id, at its route, and no other.
    @Test func theDocumentDescribesTheDeclaredOperations() throws {
        let sandbox = try Sandbox.launch()
        defer { sandbox.stop() }
        let document = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/openapi.json").body)
        var described: [String: String] = [:]
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            for (method, operation) in item.objectValue ?? [:] {
                guard let id = operation["operationId"]?.stringValue else { continue }
                described[id] = "\(method.uppercased()) \(path)"
            }
        }
        let declared = Dictionary(uniqueKeysWithValues: Self.declared.map { ($0.id, $0.route) })
        #expect(described == declared, "differ: \(Set(described.keys).symmetricDifference(declared.keys).sorted())")
    }

    /// Each request of the Postman collection calls a declared operation.
    @Test func thePostmanCollectionCallsDeclaredOperations() throws {
        let sandbox = try Sandbox.launch()
        defer { sandbox.stop() }
        let collection = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/postman.json").body)
        func requests(_ items: [JSON]) -> [JSON] {
            items.flatMap { item in item["item"]?.arrayValue.map(requests) ?? [item["request"]].compactMap { $0 } }
        }
        let all = requests(collection["item"]?.arrayValue ?? [])
        #expect(all.count > 50)
        for request in all {
            let method = request["method"]?.stringValue ?? ""
            let raw = request["url"]?["raw"]?.stringValue ?? ""
            let path = String(raw.dropFirst("{{baseUrl}}".count).prefix { $0 != "?" })
            #expect(Self.declared.contains { Self.matches($0.route, method: method, path: path) }, "\(method) \(path)")
        }
    }

    /// A `HEAD` request to a `GET` operation is that operation's: its facts are read, so a fault
    /// aimed at the user its token names answers it (`HEAD /user/balance`), as it answers the `GET`.
    @Test func aHeadRequestIsItsGetOperations() throws {
        #expect(Sandbox.standardDialects.compactMap { $0.operation(route: "HEAD /v3/banks")?.id } == ["listBanks"])
        #expect(Sandbox.standardDialects.compactMap { $0.operation(route: "HEAD /v3/cashout") } .isEmpty)
        let sandbox = try Sandbox.launch()
        defer { sandbox.stop() }
        let login = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/user/login", headers: ["Content-Type": "application/json"],
                                      body: Array(#"{"apiKey": "sandbox_mannco_key"}"#.utf8))
        let token = try #require(try JSON.parse(login.body)["content"]?["jwt"]?.stringValue)
        let fault = #"{"faults": [{"when": {"account": "76561198000000001"}, "every": 1, "kind": "error", "status": 503}]}"#
        #expect(try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/scenario", body: Array(fault.utf8)).status == 200)
        for method in ["GET", "HEAD"] {
            let answer = try TestHTTP.send(method: method, url: "\(sandbox.baseURL)/user/balance", headers: ["Authorization": "Bearer \(token)"])
            #expect(answer.status == 503, "\(method): \(answer.status)")
        }
    }

    /// A fault of a scenario file in scenarios/ names its endpoint by a declared route.
    @Test func theScenarioFilesFaultsNameDeclaredRoutes() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scenarios")
        let routes = Set(Self.declared.map(\.route))
        var named = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".json") && file != "schema.json" {
            let scenario = try JSON.parse(Array(try Data(contentsOf: folder.appendingPathComponent(file))))
            for fault in scenario["faults"]?.arrayValue ?? [] {
                guard let endpoint = fault["when"]?["endpoint"]?.stringValue else { continue }
                named += 1
                #expect(routes.contains(endpoint), "\(file): \(endpoint)")
            }
        }
        #expect(named >= 4)
    }
}
