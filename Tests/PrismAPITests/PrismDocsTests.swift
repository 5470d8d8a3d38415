@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxPrism
import Testing

/// PayoutService in the OpenAPI document and the Postman collection: its eight methods as
/// Connect's JSON, with schemas made from PrismProtos, examples a fresh sandbox answers as shown,
/// and a Postman folder whose bodies are the methods' request messages.
@Suite struct PrismDocsTests {
    private static let service = PrismProtos.files.flatMap(\.services).first { $0.fullName == PrismProtos.serviceName }

    private func document(_ sandbox: Sandbox, _ path: String) throws -> JSON {
        try JSON.parse(sandbox.respond(to: HTTPRequest(method: "GET", target: path, headers: ["Host": "localhost"])).body)
    }

    /// A Connect JSON call of `method`.
    private func connect(_ sandbox: Sandbox, _ method: String, _ body: JSON, headers: HTTPHeaders = defaultAuth) throws
        -> (status: Int, json: JSON, headers: HTTPHeaders) {
        var all: HTTPHeaders = ["Host": "localhost", "Content-Type": "application/json"]
        for (name, value) in headers { all.add(name, value) }
        let response = sandbox.respond(to: HTTPRequest(method: "POST", target: "/types.PayoutService/\(method)", headers: all,
                                                       body: body.serialized()))
        return (response.status, try JSON.parse(response.body), response.headers)
    }

    @Test func everyMethodIsAConnectPathWithTheMessagesSchemasMadeFromTheProtos() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let json = try document(sandbox, "/openapi.json")
        let service = try #require(Self.service)
        #expect(service.methods.count == 8)
        let components = try #require(json["components"]?["schemas"]?.objectValue)
        let made = prismRegistry.jsonSchemas(reachableFrom: service.methods.flatMap { [$0.input, $0.output] }, refPrefix: "#/components/schemas/")
        #expect(made.count > 40)
        for (name, schema) in made {
            // What a method's handler requires is added to its request's schema (ConnectMethod.required), as `allOf`.
            var declared = schema.objectValue ?? [:]
            declared["allOf"] = components[name]?["allOf"]
            #expect(components[name] == .object(declared), "\(name) is not the schema made from its declaration")
            if schema["type"] == "object" {
                #expect(schema["additionalProperties"] == false, "\(name) is not closed: the server refuses a member of no field")
            }
        }
        for method in service.methods {
            let operation = try #require(json["paths"]?["/types.PayoutService/\(method.name)"]?["post"], "\(method.name) is not documented")
            #expect(operation["tags"] == ["PayoutService"])
            let headers = (operation["parameters"]?.arrayValue ?? []).filter { $0["in"] == "header" }.compactMap { $0["name"]?.stringValue }
            #expect(Set(headers).isSuperset(of: ["x-connector", "x-auth", "x-api-key", "x-merchant-id", "x-request-id"]))
            #expect(operation["requestBody"]?["content"]?["application/json"]?["schema"]?["$ref"] == .string("#/components/schemas/\(method.input)"))
            #expect(operation["requestBody"]?["required"] == true, "without a JSON body the call is taken for gRPC (415)")
            let answer = operation["responses"]?["200"]?["content"]?["application/json"]
            #expect(answer?["schema"]?["$ref"] == .string("#/components/schemas/\(method.output)"))
            for status in ["400", "401"] {
                #expect(operation["responses"]?[status]?["content"]?["application/json"]?["schema"]?["$ref"] == "#/components/schemas/ConnectError")
            }
            for example in (operation["requestBody"]?["content"]?["application/json"]?["examples"]?.objectValue ?? [:]).values {
                #expect(throws: Never.self) { try prismRegistry.decode(method.input, json: example["value"] ?? .null) }
            }
        }
        func requirement(_ method: String) throws -> [JSON] {
            let input = try #require(service.method(method)?.input)
            return try #require(components[input]?["allOf"]?.arrayValue, "\(method) requires nothing")
        }
        for method in ["Create", "Stage", "CreateLink"] {
            let amount = try requirement(method)[0]["anyOf"]
            #expect(amount?[0]?["required"] == ["amount"], "\(method) refuses a request without amount")
        }
        #expect(try requirement("EnrollDisburseAccount")[0]["anyOf"]?[0]?["required"] == ["payoutMethodData"])
        #expect(try requirement("Create").count == 4)  // amount, its currency and minor units, a method or an enrolled one's id
        let money = components["types.Money"]?["properties"]
        #expect(money?["minorAmount"]?["anyOf"]?[0]?["anyOf"]?[1]?["type"] == "string")
        #expect(money?["minor_amount"] == money?["minorAmount"])
        #expect(money?["currency"]?["anyOf"]?[0]?["$ref"] == "#/components/schemas/types.Currency")
        #expect(components["types.PayoutEnums.PayoutStatus"]?["anyOf"]?[0]?["enum"]?.arrayValue?.contains("REQUIRES_FULFILLMENT") == true)
        #expect(components["ConnectError"]?["properties"]?["code"]?["enum"]?.arrayValue?.contains("failed_precondition") == true)
    }

    /// Sent in the order PrismDocs lists them (a payout's flows) to a fresh sandbox, each
    /// method's example gets the answer shown; the errors shown are what the sandbox answers too.
    /// The document types integers as JSON Schema does: `1000.0` and `1e3` are the integer 1000,
    /// as proto3 JSON reads them too; `1000.5` is no integer.
    @Test func aWholeAmountWrittenAsADecimalOrWithAnExponentIsTheInteger() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        func create(_ id: String, _ minor: String) throws -> (status: Int, json: JSON, headers: HTTPHeaders) {
            let body = #"{"merchantPayoutId":"\#(id)","amount":{"minorAmount":\#(minor),"currency":"USD"},"#
                + #""payoutMethodData":{"card":{"cardNumber":{"value":"4111111111111111"}}}}"#
            return try connect(sandbox, "Create", try JSON.parse(Array(body.utf8)))
        }
        for (id, minor) in [("w-1", "1000.0"), ("w-2", "1e3"), ("w-3", #""1000.00""#), ("w-4", "10.00e2")] {
            let answer = try create(id, minor)
            #expect(answer.status == 200 && answer.json["payoutStatus"] == "PENDING", "\(minor): \(answer.json)")
            #expect(sandbox.bank.payout(account: DefaultMerchant.id, reference: id)?.amount == Money("10.00"), "\(minor)")
        }
        let fraction = try create("w-5", "1000.5")
        #expect(fraction.status == 400)
        #expect(fraction.json["code"] == "invalid_argument")
        #expect(sandbox.bank.payout(account: DefaultMerchant.id, reference: "w-5") == nil)
    }

    @Test func theExamplesAreWhatAFreshSandboxAnswers() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let json = try document(sandbox, "/openapi.json")
        let flows = ["Create", "Get", "Void", "Stage", "Transfer", "CreateLink", "CreateRecipient", "EnrollDisburseAccount"]
        #expect(Set(flows) == Set((Self.service?.methods ?? []).map(\.name)))
        for method in flows {
            let operation = json["paths"]?["/types.PayoutService/\(method)"]?["post"]
            let example = try #require(operation?["requestBody"]?["content"]?["application/json"]?["examples"]?.objectValue?.values.first?["value"])
            let answer = try connect(sandbox, method, example)
            #expect(answer.status == 200, "\(method): \(answer.json)")
            #expect(answer.json == operation?["responses"]?["200"]?["content"]?["application/json"]?["example"], "\(method)")
            #expect(answer.headers["x-request-id"] != nil)
            if method == "CreateLink" { #expect(answer.headers["x-payout-link"]?.contains("/prism/payout-links/lnk_") == true) }
        }

        func documented(_ method: String, _ status: String, _ message: String) -> JSON? {
            let response = json["paths"]?["/types.PayoutService/\(method)"]?["post"]?["responses"]?[status]
            return response?["content"]?["application/json"]?["examples"]?[message]?["value"]
        }
        let unknown = try connect(sandbox, "Get", PrismExample.payout("999"))
        #expect(unknown.status == 404 && unknown.json == documented("Get", "404", PrismMessage.payoutNotFound("999")))
        var noAmount = PrismExample.create("order-9").objectValue ?? [:]
        noAmount["amount"] = nil
        let missing = try connect(sandbox, "Create", .object(noAmount))
        #expect(missing.status == 400 && missing.json == documented("Create", "400", PrismMessage.missing("amount")))
        var wrongKey = defaultAuth
        wrongKey["x-api-key"] = "not-the-key"
        let refused = try connect(sandbox, "Create", PrismExample.create("order-10"), headers: wrongKey)
        #expect(refused.status == 401 && refused.json == documented("Create", "401", PrismMessage.invalidCredentials))
        let notAMessage = try connect(sandbox, "Stage", ["notAField": true])
        let undecodable = json["paths"]?["/types.PayoutService/Stage"]?["post"]?["responses"]?["400"]?["content"]?["application/json"]?["examples"]?
            .objectValue?.values.first { $0["summary"]?.stringValue?.hasPrefix("could not decode request message") == true }
        #expect(notAMessage.status == 400 && notAMessage.json == undecodable?["value"])
    }

    /// The Postman folder: every method, the default merchant's metadata on each call, and bodies
    /// that are the methods' request messages once the collection's variables are filled in.
    @Test func thePostmanFolderCallsEveryMethodWithItsRequestMessage() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let collection = try document(sandbox, "/postman.json")
        let folders = collection["item"]?.arrayValue ?? []
        let folder = try #require(folders.first { $0["name"] == "PayoutService (Connect JSON)" }?["item"]?.arrayValue)
        var called: [String] = []
        for item in folder {
            let request = item["request"]
            let url = request?["url"]?["raw"]?.stringValue ?? ""
            guard url.hasPrefix("{{baseUrl}}/types.PayoutService/") else { continue }
            let method = String(url.dropFirst("{{baseUrl}}/types.PayoutService/".count))
            called.append(method)
            let headers = Dictionary((request?["header"]?.arrayValue ?? []).compactMap { header in
                header["key"]?.stringValue.map { ($0, header["value"]?.stringValue ?? "") }
            }) { first, _ in first }
            #expect(headers["Content-Type"] == "application/json" && headers["x-connector"] == "sandbox" && headers["x-auth"] == "header-key")
            #expect(headers["x-merchant-id"] == "{{prismMerchantId}}", "\(item["name"] ?? "")")
            let body = try JSON.parse(Array((request?["body"]?["raw"]?.stringValue ?? "").utf8))
            #expect(throws: Never.self, "\(item["name"] ?? "")") { try prismRegistry.decode("types.PayoutService\(method)Request", json: body) }
        }
        #expect(Set(called) == Set((Self.service?.methods ?? []).map(\.name)))
        #expect(Array(called.prefix(7)) == ["Create", "Create", "Get", "Void", "Get", "Stage", "Transfer"])
        #expect(Array(called.suffix(3)) == ["CreateRecipient", "EnrollDisburseAccount", "Create"])
        let variables = (collection["variable"]?.arrayValue ?? []).compactMap { $0["key"]?.stringValue }
        #expect(Set(variables).isSuperset(of: ["prismMerchantId", "prismApiKey", "prismPayoutId", "prismStagedId", "prismLinkToken",
                                               "prismRecipientId", "prismMethodId"]))
    }
}
