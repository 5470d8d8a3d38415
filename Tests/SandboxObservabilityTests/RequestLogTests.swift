@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// `GET` and `DELETE /sandbox/requests`: what is journaled, how an entry reads, the filters, the
/// bound and the body limit.
@Suite struct RequestLogTests {
    /// A sandbox on a manual clock at 2026-01-05T09:00:00Z, changed by `configure`.
    private func start(_ configure: (inout Sandbox.Configuration) -> Void = { _ in }) throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configure(&configuration)
        return try Sandbox.launch(configuration)
    }

    @discardableResult
    private func send(_ sandbox: Sandbox, _ method: String, _ path: String, _ body: String = "",
                      headers: HTTPHeaders = [:]) throws -> HTTPResponse {
        try TestHTTP.send(method: method, url: "\(sandbox.baseURL)\(path)", headers: headers, body: Array(body.utf8))
    }

    private func journal(_ sandbox: Sandbox, _ query: String = "") throws -> JSON {
        let response = try send(sandbox, "GET", "/sandbox/requests\(query)")
        try #require(response.status == 200, "\(response.bodyText)")
        return try JSON.parse(response.body)
    }

    private func ids(_ journal: JSON) -> [Int] {
        journal["requests"]?.arrayValue?.compactMap { $0["id"]?.numberText.flatMap { Int($0) } } ?? []
    }

    private static let createBody = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"j-1","country":"BR","currency":"USD","#
                                    + #""amount":"12.30","document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","#
                                    + #""beneficiary_lastname":"Silva","bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","#
                                    + #""account_type":"C"}"#

    @Test func anEntryHoldsTheRequestItsAnswerTheRouteAndTheAPI() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        let signature = D24Signing.payloadSignature(Self.createBody)
        try send(sandbox, "POST", "/v3/cashout?trace=1", Self.createBody,
                 headers: ["Content-Type": "application/json", "Payload-Signature": signature])
        let journal = try journal(sandbox)
        #expect(journal["kept"] == 1)
        #expect(journal["capacity"] == 1000)
        var entry = try #require(journal["requests"]?.arrayValue?.first)
        let receivedAt = try #require(entry["received_at"]?.stringValue)
        #expect(receivedAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(receivedAt)")
        #expect(entry["headers"]?["host"] != nil && entry["headers"]?["content-length"] == .string("\(Self.createBody.utf8.count)"))
        guard case .object(var members) = entry else { return }
        members["received_at"] = nil
        members["headers"] = entry["headers"].map { headers in
            .object(headers.objectValue!.filter { ["content-type", "payload-signature"].contains($0.key) })
        }
        entry = .object(members)
        #expect(entry == [
            "id": 1, "at": "2026-01-05T09:00:00Z", "method": "POST", "path": "/v3/cashout", "query": "trace=1", "protocol": "HTTP/1.1",
            "headers": ["content-type": "application/json", "payload-signature": .string(signature)],
            "body": .string(Self.createBody), "body_encoding": "utf8", "body_truncated": false,
            "route": "POST /v3/cashout", "dialect": "d24",
            "response": ["status": 200, "headers": ["content-type": "application/json"], "body": #"{"cashout_id":"1000001"}"#,
                         "body_encoding": "utf8", "body_truncated": false],
            "diagnosis": .null, "near_miss": .null,
        ])
    }

    @Test func theAdminAPITheSinkTheDashboardAndTheDocumentsAreNotJournaled() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        for (method, path) in [("GET", "/sandbox/health"), ("GET", "/sandbox/cashouts"), ("GET", "/sandbox/nothing"),
                               ("POST", "/sandbox/sink/orders"), ("GET", "/"), ("HEAD", "/"), ("GET", "/dashboard.js"), ("GET", "/openapi.json"),
                               ("GET", "/postman.json"),
                               ("GET", "/postman/environment.json"), ("GET", "/sandbox/requests")] {
            try send(sandbox, method, path)
        }
        #expect(try journal(sandbox)["kept"] == 0)
        // A request no route matches is journaled: it is often the one that went wrong.
        try send(sandbox, "GET", "/v3/nothing")
        let entry = try journal(sandbox)["requests"]?[0]
        #expect(entry?["route"] == .null && entry?["dialect"] == .null && entry?["response"]?["status"] == 404)
    }

    @Test func filtersByPathStatusClassAndAPIAndLimitsNewestFirst() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        let signature = D24Signing.payloadSignature(Self.createBody)
        try send(sandbox, "POST", "/v3/cashout", Self.createBody, headers: ["Payload-Signature": signature])                 // 1: 200
        try send(sandbox, "POST", "/v3/cashout/status", #"{"login":"sandbox_login","pass":"x"}"#)                          // 2: 401
        try send(sandbox, "GET", "/v3/banks?country=BR", headers: ["Authorization": "Bearer sandbox_read_only"])           // 3: 200
        try send(sandbox, "POST", "/user/login", #"{"apiKey":"nope"}"#, headers: ["Content-Type": "application/json"])     // 4: 403
        try send(sandbox, "GET", "/v3/nothing")                                                                            // 5: 404
        #expect(ids(try journal(sandbox)) == [5, 4, 3, 2, 1])
        #expect(ids(try journal(sandbox, "?limit=2")) == [5, 4])
        #expect(ids(try journal(sandbox, "?status=4xx")) == [5, 4, 2])
        #expect(ids(try journal(sandbox, "?status=4XX&limit=1")) == [5])
        #expect(ids(try journal(sandbox, "?status=401")) == [2])
        #expect(ids(try journal(sandbox, "?status=2xx")) == [3, 1])
        #expect(ids(try journal(sandbox, "?path=/v3/cashout")) == [2, 1])
        #expect(ids(try journal(sandbox, "?dialect=mannco")) == [4])
        #expect(ids(try journal(sandbox, "?dialect=d24&status=200&path=/v3/b")) == [3])
        #expect(try journal(sandbox, "?status=4xx")["kept"] == 5)
        for (query, message) in [("?limit=0", "limit: expected a whole number of at least 1"),
                                 ("?limit=ten", "limit: expected a whole number of at least 1"),
                                 ("?status=40", "status: expected a status code such as 401, or a class such as 4xx"),
                                 ("?status=6xx", "status: expected a status code such as 401, or a class such as 4xx"),
                                 ("?dialect=D24", "dialect: expected one of d24, mannco, prism")] {
            let response = try send(sandbox, "GET", "/sandbox/requests\(query)")
            #expect(response.status == 400 && response.bodyText == #"{"code":400,"message":"\#(message)"}"#, "\(query)")
        }
    }

    @Test func deleteAndResetClearItWhileIdsGoOn() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        try send(sandbox, "GET", "/v3/one")
        try send(sandbox, "GET", "/v3/two")
        let cleared = try send(sandbox, "DELETE", "/sandbox/requests")
        #expect(cleared.status == 204 && cleared.body.isEmpty)
        #expect(try journal(sandbox)["kept"] == 0)
        try send(sandbox, "GET", "/v3/three")
        #expect(ids(try journal(sandbox)) == [3])
        #expect(try send(sandbox, "POST", "/sandbox/reset").status == 200)
        #expect(try journal(sandbox)["kept"] == 0)
        try send(sandbox, "GET", "/v3/four")
        #expect(ids(try journal(sandbox)) == [4])
        // The same through the Swift API.
        #expect(sandbox.requests(limit: 5).map { $0["path"] } == ["/v3/four"])
        sandbox.clearRequests()
        #expect(sandbox.requests().isEmpty)
    }

    @Test func itKeepsTheNewestUpToItsCapacityAndNoneAtZero() throws {
        let sandbox = try start { $0.requestJournalCapacity = 3 }
        defer { sandbox.stop() }
        for index in 1 ... 5 { try send(sandbox, "GET", "/v3/nothing/\(index)") }
        let journal = try journal(sandbox, "?limit=10")
        #expect(journal["kept"] == 3 && journal["capacity"] == 3)
        #expect(ids(journal) == [5, 4, 3])
        #expect(journal["requests"]?.arrayValue?.map { $0["path"] } == ["/v3/nothing/5", "/v3/nothing/4", "/v3/nothing/3"])

        let off = try start { $0.requestJournalCapacity = 0 }
        defer { off.stop() }
        try send(off, "GET", "/v3/nothing")
        #expect(try self.journal(off) == ["requests": [], "kept": 0, "capacity": 0])
    }

    @Test func bodiesOverTheBoundAreCutAndMarkedAndBinaryOnesAreBase64() throws {
        let sandbox = try start { $0.requestJournalBodyBytes = 10 }
        defer { sandbox.stop() }
        try send(sandbox, "POST", "/v3/cashout", "{\"login\":\"é é é\"}")
        let entry = try #require(try journal(sandbox)["requests"]?[0])
        #expect(entry["body"] == "{\"login\":\"" && entry["body_truncated"] == true && entry["body_encoding"] == "utf8")
        #expect(entry["response"]?["body"] == "{\"code\":40" && entry["response"]?["body_truncated"] == true)
        // Cut inside a character: the character is left out, the text stays text.
        try send(sandbox, "POST", "/v3/cashout", "{\"a\":\"bcdé\"}")
        #expect(try journal(sandbox)["requests"]?[0]?["body"] == "{\"a\":\"bcd")
        let binary = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/v3/cashout", body: [0xFF, 0xFE, 0x00, 0x41])
        #expect(binary.status == 400)
        let entry2 = try #require(try journal(sandbox)["requests"]?[0])
        #expect(entry2["body"] == "//4AQQ==" && entry2["body_encoding"] == "base64" && entry2["body_truncated"] == false)
    }

    @Test func anAnswerMadeLaterIsJournaledAsItWasSent() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // With a state directory, an answer waits for its change to be on disk: it is sent later.
        let sandbox = try start { $0.stateDirectory = directory }
        defer { sandbox.stop() }
        try send(sandbox, "POST", "/v3/cashout", Self.createBody, headers: ["Payload-Signature": D24Signing.payloadSignature(Self.createBody)])
        let entry = try #require(try journal(sandbox)["requests"]?[0])
        #expect(entry["response"]?["status"] == 200 && entry["response"]?["body"] == #"{"cashout_id":"1000001"}"#)
    }
}
