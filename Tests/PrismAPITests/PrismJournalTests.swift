@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxPrism
import Synchronization
import TestHelpers
import Testing

/// PayoutService calls in the request journal: gRPC messages shown as proto3 JSON, trailers among
/// the answer's headers, and a diagnosis for each metadata problem, over gRPC and Connect alike.
@Suite struct PrismJournalTests {
    private func newest(_ sandbox: Sandbox) throws -> JSON {
        try #require(sandbox.requests(limit: 1).first)
    }

    @Test func aGRPCCallShowsItsMessagesAsJSONAndItsTrailers() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let answer = try sandbox.prism("Create", createRequest())
        #expect(answer.code == 0)
        let entry = try newest(sandbox)
        #expect(entry["method"] == "POST" && entry["path"] == "/types.PayoutService/Create" && entry["protocol"] == "HTTP/2")
        #expect(entry["route"] == "POST /types.PayoutService/Create" && entry["dialect"] == "prism")
        #expect(entry["body_encoding"] == "json-from-protobuf")
        #expect(try JSON.parse(Array((entry["body"]?.stringValue ?? "").utf8)) == createRequest().json())
        let response = try #require(entry["response"])
        #expect(response["status"] == 200 && response["headers"]?["content-type"] == "application/grpc")
        #expect(response["headers"]?["grpc-status"] == "0" && response["headers"]?["x-request-id"] != nil)
        #expect(response["body_encoding"] == "json-from-protobuf")
        #expect(try JSON.parse(Array((response["body"]?.stringValue ?? "").utf8)) == answer.body?.json())
        #expect(entry["diagnosis"] == .null)
    }

    @Test func aCallToAnUnknownMethodIsJournaledUnmatched() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let request = HTTPRequest(method: "POST", target: "/types.PayoutService/Refund", version: .http2,
                                  headers: ["content-type": "application/grpc"], body: GRPCDeframer.frame([]))
        _ = sandbox.respond(to: request)
        let entry = try newest(sandbox)
        #expect(entry["route"] == .null && entry["dialect"] == .null && entry["body_encoding"] == "base64" && entry["body"] == "AAAAAAA=")
        #expect(entry["response"]?["headers"]?["grpc-status"] == "12")
        #expect(entry["response"]?["headers"]?["grpc-message"] == "unknown method Refund for service types.PayoutService")
    }

    /// A gRPC answer is HTTP 200 whatever its outcome: `?status=` takes the status Connect gives
    /// its code, so that `4xx` lists refused gRPC calls beside refused Connect and D24 ones.
    @Test func aRefusedGRPCCallIsFilteredByTheStatusConnectGivesItsCode() throws {
        let log = Mutex<[UInt8]>([])
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.eventLog = EventLog(format: .text) { bytes in log.withLock { $0 += bytes } }
        let sandbox = try Sandbox.launch(configuration)
        defer { sandbox.stop() }
        _ = try sandbox.prism("Create", createRequest())                                                                  // 1: OK
        var wrongKey = defaultAuth
        wrongKey["x-api-key"] = "nope"
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "order-1"), headers: wrongKey).code == 16)              // 2: UNAUTHENTICATED
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "order-1"), headers: [:]).code == 3)                    // 3: INVALID_ARGUMENT
        func ids(_ status: String) throws -> [String] {
            let response = sandbox.respond(to: HTTPRequest(method: "GET", target: "/sandbox/requests?status=\(status)"))
            return try JSON.parse(response.body)["requests"]?.arrayValue?.compactMap { $0["id"]?.numberText } ?? []
        }
        #expect(try ids("4xx") == ["3", "2"])
        #expect(try ids("401") == ["2"])
        #expect(try ids("400") == ["3"])
        #expect(try ids("2xx") == ["1"])
        #expect(try ids("200") == ["1"])
        // Its log line names the outcome beside the HTTP status.
        sandbox.stop()
        let text = String(decoding: log.withLock { $0 }, as: UTF8.self)
        #expect(text.contains(" auth.refused method=POST path=/types.PayoutService/Get status=200 grpc_status=UNAUTHENTICATED check=wrong_key "),
                "\(text)")
    }

    private static let acme = PrismMerchant.account(id: "acme", apiKey: "k", key1: "k1", balance: Money("100.00")!)

    @Test(arguments: [
        (["x-auth": "header-key", "x-api-key": "k", "x-merchant-id": "acme"], 3, ["check": "metadata", "header": "x-connector",
          "message": "The call has no x-connector metadata: name the connector (x-connector: sandbox), or send x-connector-config"]),
        (["x-connector": "nosuchpay"], 3, ["check": "metadata", "header": "x-connector", "received": "nosuchpay",
          "message": #"x-connector is "nosuchpay", expected a connector Prism knows, such as sandbox, stripe or adyen"#]),
        (["x-connector": "sandbox"], 3, ["check": "metadata", "header": "x-auth",
          "message": .string("The call has no x-auth metadata: say how the keys come: x-auth: header-key (with x-api-key), body-key (+ x-key1) or "
                             + "signature-key (+ x-api-secret)")]),
        (["x-connector": "sandbox", "x-auth": "magic"], 3, ["check": "metadata", "header": "x-auth", "received": "magic",
          "message": #"x-auth is "magic", expected header-key, body-key or signature-key"#]),
        (["x-connector": "sandbox", "x-auth": "body-key", "x-api-key": "k"], 3, ["check": "metadata", "header": "x-key1",
          "message": "The call has no x-key1 metadata: x-auth: body-key needs it"]),
        (["x-connector-config": #"{"config":{"Stripe":{}}}"#], 3, ["check": "metadata", "header": "api_key",
          "message": #"The call has no api_key metadata: x-connector-config's connector needs an "api_key""#]),
        (["x-connector": "sandbox", "x-auth": "header-key", "x-api-key": "k", "x-merchant-id": "ghost"], 16, ["check": "unknown_merchant",
          "merchant_id": "ghost", "merchants": ["DefaultMerchantId", "acme"],
          "message": #"x-merchant-id "ghost" is no PayoutService merchant; the key sent is merchant acme's: send x-merchant-id: acme"#]),
        (["x-connector": "sandbox", "x-auth": "header-key", "x-api-key": "nope", "x-merchant-id": "ghost"], 16, ["check": "unknown_merchant",
          "merchant_id": "ghost", "merchants": ["DefaultMerchantId", "acme"],
          "message": #"x-merchant-id "ghost" is no PayoutService merchant (DefaultMerchantId, acme; GET /sandbox/prism-merchants lists them)"#]),
        (["x-connector": "sandbox", "x-auth": "header-key", "x-api-key": "wrong", "x-merchant-id": "acme"], 16, ["check": "wrong_key",
          "merchant_id": "acme", "key": "x-api-key", "received": "wrong", "expected": "k",
          "message": #"x-api-key "wrong" is not merchant acme's, "k""#]),
        (["x-connector": "sandbox", "x-auth": "header-key", "x-api-key": "sandbox_prism_key", "x-merchant-id": "acme"], 16, ["check": "wrong_key",
          "merchant_id": "acme", "key": "x-api-key", "received": "sandbox_prism_key", "expected": "k",
          "message": .string(#"x-api-key "sandbox_prism_key" is not merchant acme's, "k": it is merchant DefaultMerchantId's key; send "#
                             + #"x-merchant-id: DefaultMerchantId"#)]),
        (["x-connector": "sandbox", "x-auth": "body-key", "x-api-key": "k", "x-key1": "no", "x-merchant-id": "acme"], 16, ["check": "wrong_key",
          "merchant_id": "acme", "key": "x-key1", "received": "no", "expected": "k1", "message": #"x-key1 "no" is not merchant acme's, "k1""#]),
        (["x-connector-config": #"{"config":{"Stripe":{"api_key":"no"}}}"#, "x-merchant-id": "acme"], 16, ["check": "wrong_key",
          "merchant_id": "acme", "key": "x-connector-config api_key", "received": "no", "expected": "k",
          "message": #"x-connector-config api_key "no" is not merchant acme's, "k""#]),
    ] as [(HTTPHeaders, Int, JSON)])
    func eachMetadataProblemIsDiagnosedOverGRPCAndConnect(headers: HTTPHeaders, code: Int, diagnosis: JSON) throws {
        let sandbox = try startPrismSandbox(extra: [Self.acme])
        defer { sandbox.stop() }
        let answer = try sandbox.prism("Get", lookup("Get", merchant: "order-1"), headers: headers)
        #expect(answer.code == code)
        let entry = try newest(sandbox)
        #expect(entry["diagnosis"] == diagnosis)
        #expect(entry["response"]?["headers"]?["grpc-status"] == .string(String(code)))

        // Connect's JSON over HTTP/1.1: the same diagnosis beside Connect's error.
        var connect: HTTPHeaders = ["Content-Type": "application/json"]
        for (name, value) in headers { connect.add(name, value) }
        let response = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/types.PayoutService/Get", headers: connect,
                                         body: Array(#"{"merchantPayoutId":"order-1"}"#.utf8))
        #expect(response.status == (code == 3 ? 400 : 401))
        let connectEntry = try newest(sandbox)
        #expect(connectEntry["protocol"] == "HTTP/1.1" && connectEntry["body"] == #"{"merchantPayoutId":"order-1"}"#)
        #expect(connectEntry["body_encoding"] == "utf8" && connectEntry["diagnosis"] == diagnosis)
        #expect(connectEntry["response"]?["body"] == .string(response.bodyText))
    }
}
