@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// `POST /sandbox/requests/verify`: what the payout APIs received, counted or in order, with the
/// scenario files' matchers over method, path, dialect, headers and body (JSON, form, Connect),
/// the near misses of a verification that fails, and no answer when the journal lost what decides.
@Suite struct RequestVerificationTests {
    private func start(journal: Int = 1000) throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.requestJournalCapacity = journal
        return try Sandbox.launch(configuration)
    }

    /// A signed D24 create of `amount` BRL.
    @discardableResult
    private func create(_ sandbox: Sandbox, _ externalID: String, amount: String, country: String = "BR") throws -> HTTPResponse {
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"\#(externalID)","country":"\#(country)","currency":"BRL","#
                   + #""amount":"\#(amount)","document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","#
                   + #""beneficiary_lastname":"Silva","bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C"}"#
        return try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/v3/cashout",
                                 headers: ["Content-Type": "application/json", "Payload-Signature": D24Signing.payloadSignature(body)],
                                 body: Array(body.utf8))
    }

    private func verify(_ sandbox: Sandbox, _ body: String) throws -> (status: Int, json: JSON) {
        let answer = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/requests/verify", body: Array(body.utf8))
        return (answer.status, try JSON.parse(answer.body))
    }

    @Test func aCountOfRequestsMatchingMethodPathDialectAndBodyAmounts() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        try create(sandbox, "o-1", amount: "50.00")
        try create(sandbox, "o-2", amount: "150.00")
        try create(sandbox, "o-3", amount: "200", country: "MX")
        let any = try verify(sandbox, #"{"request": {"path": "/v3/cashout"}}"#)
        #expect(any.status == 200 && any.json == ["ok": true, "count": 3])
        let two = try verify(sandbox,
                             #"{"request": {"method": "POST", "path": "/v3/cashout", "dialect": "d24", "body": {"amount": {"gte": 100}}}, "count": "#
                             + #"{"exactly": 2}}"#)
        #expect(two.status == 200 && two.json == ["ok": true, "count": 2])
        #expect(try verify(sandbox, #"{"request": {"body": {"amount": 150}}, "count": {"exactly": 1}}"#).json["count"] == 1)  // 150 equals "150.00"
        #expect(try verify(sandbox, #"{"request": {"body": {"country": {"in": ["BR", "AR"]}}}, "count": {"at_most": 2}}"#).status == 200)
        #expect(try verify(sandbox,
                           #"{"request": {"headers": {"Payload-Signature": {"regex": "[0-9a-f]{64}"}}}, "count": {"exactly": 3}}"#).status == 200)

        let none = try verify(sandbox,
                              #"{"request": {"method": "POST", "path": "/v3/cashout", "body": {"amount": {"gte": 100}, "country": "BR"}}, "count": "#
                              + #"{"exactly": 2}}"#)
        #expect(none.status == 422)
        #expect(none.json["ok"] == false && none.json["count"] == 1)
        #expect(none.json["message"] == .string(#"expected exactly 2 requests matching POST /v3/cashout with body.amount >= 100.00, body.country "#
                                                + #""BR", got 1"#))
        #expect(none.json["expected"] == ["request": ["method": "POST", "path": "/v3/cashout", "body": ["amount": ["gte": 100], "country": "BR"]],
                                          "count": ["exactly": 2]])
        #expect(none.json["near_misses"] == [])  // one matched: no near miss is listed
        let missing = try verify(sandbox, #"{"request": {"path": "/v3/cashout", "body": {"amount": {"gte": 1000}, "country": "BR"}}}"#)
        #expect(missing.status == 422 && missing.json["message"] == .string(#"expected at least 1 request matching /v3/cashout with body.amount >= "#
                                                                            + #"1000.00, body.country "BR", got 0"#))
        let misses = try #require(missing.json["near_misses"]?.arrayValue)
        #expect(misses.map { $0["differences"] } == [[#"body.amount: expected >= 1000.00, got "150.00""#],
                                                      [#"body.amount: expected >= 1000.00, got "50.00""#],
                                                      [#"body.amount: expected >= 1000.00, got "200""#, #"body.country: expected "BR", got "MX""#]])
        #expect(misses.first?["path"] == "/v3/cashout" && misses.first?["response"]?["status"] == 200)  // a journal entry, as GET /sandbox/requests
    }

    @Test func aSequenceIsTheOrderTheRequestsCameIn() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        try create(sandbox, "o-1", amount: "10.00")
        _ = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/v3/cashouts")  // a 404 is journaled too
        try create(sandbox, "o-2", amount: "20.00")
        let inOrder = try verify(sandbox,
                                 #"{"sequence": [{"body": {"external_id": "o-1"}}, {"path": "/v3/cashouts"}, {"body": {"external_id": "o-2"}}]}"#)
        #expect(inOrder.status == 200 && inOrder.json == ["ok": true, "count": 3])
        let reversed = try verify(sandbox, #"{"sequence": [{"body": {"external_id": "o-2"}}, {"body": {"external_id": "o-1"}}]}"#)
        #expect(reversed.status == 422)
        #expect(reversed.json["message"] == .string(#"expected the requests in order; request 2 of the sequence, any request with body.external_id "#
                                                    + #""o-1", did not come after request 3"#))
    }

    /// Connect JSON (proto3 JSON, either case of field names) and a form body are read as JSON too.
    @Test func connectAndFormBodiesAreMatchedAsJSON() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        let create = #"{"merchant_payout_id":"p-1","amount":{"minor_amount":1000,"currency":"USD"},"#
                     + #""payout_method_data":{"card":{"card_number":{"value":"4111111111111111"}}}}"#
        let created = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/types.PayoutService/Create",
                                        headers: ["Content-Type": "application/json", "x-connector": "sandbox", "x-auth": "header-key",
                                                    "x-api-key": "sandbox_prism_key"], body: Array(create.utf8))
        #expect(created.status == 200)
        #expect(try verify(sandbox,
                           #"{"request": {"dialect": "prism", "body": {"merchant_payout_id": "p-1", "amount.minorAmount": 1000, "amount": "#
                           + #"{"currency": "USD"}}}}"#).status == 200)
        let login = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/user/login",
                                      headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                      body: Array("apiKey=sandbox_mannco_key".utf8))
        #expect(login.status == 200)
        #expect(try verify(sandbox,
                           #"{"request": {"path": "/user/login", "dialect": "mannco", "body": {"apiKey": "sandbox_mannco_key"}}}"#).status == 200)
    }

    /// Once the ring has pushed a request out, an answer that needs it is refused (409), never
    /// given as if the request had not come; clearing the journal starts a test afresh.
    @Test func aVerificationTheJournalCannotDecideIsUnknowable() throws {
        let sandbox = try start(journal: 2)
        defer { sandbox.stop() }
        for index in 1 ... 3 { try create(sandbox, "o-\(index)", amount: "10.00") }
        #expect(try verify(sandbox, #"{"request": {"path": "/v3/cashout"}, "count": {"at_least": 2}}"#).status == 200)  // the two kept suffice
        #expect(try verify(sandbox, #"{"request": {"path": "/v3/cashout"}, "count": {"at_most": 1}}"#).status == 422)   // the two kept exceed it
        let exactly = try verify(sandbox, #"{"request": {"path": "/v3/cashout"}, "count": {"exactly": 3}}"#)
        #expect(exactly.status == 409)
        #expect(exactly.json["unknowable"] == true)
        #expect(exactly.json["message"] == .string("2 of the requests kept match, and 1 requests were pushed out of the request journal since it was "
                                                   + "last cleared (it keeps 2: serve --request-journal N keeps more; DELETE /sandbox/requests at "
                                                   + "the start of a test starts it afresh)"))
        #expect(try verify(sandbox, #"{"sequence": [{"body": {"external_id": "o-1"}}]}"#).status == 409)
        _ = try TestHTTP.send(method: "DELETE", url: "\(sandbox.baseURL)/sandbox/requests")
        #expect(try verify(sandbox, #"{"request": {"path": "/v3/cashout"}, "count": {"exactly": 0}}"#).json == ["ok": true, "count": 0])
        let nothing = try start(journal: 0)
        defer { nothing.stop() }
        #expect(try verify(nothing, #"{"request": {}}"#).status == 409)
    }

    @Test(arguments: [
        (#"{"request": {"methd": "POST"}}"#,
         #"request.methd: unknown key (did you mean "method"? expected one of: method, path, dialect, headers, body)"#),
        (#"{"request": {}, "count": {"exactly": 1, "at_most": 2}}"#, #"count: expected one of "exactly", "at_least" or "at_most""#),
        (#"{"request": {}, "count": {"exactly": -1}}"#, "count.exactly: expected a whole number from 0 to 100000000, got -1"),
        (#"{"sequence": []}"#, "sequence: expected at least one request pattern"),
        (#"{"sequence": [{}], "count": {"exactly": 1}}"#, #"count: expected only without "sequence""#),
        (#"{"request": {"body": {"amount": {"gte": "lots"}}}}"#,
         #"request.body.amount.gte: expected an amount with at most two decimals, such as "5000.00", got "lots""#),
        ("[1]", "(top level): expected an object"),
    ])
    func aBodyThatIsNoVerificationIsA400NamingItsPath(body: String, message: String) throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        let answer = try verify(sandbox, body)
        #expect(answer.status == 400)
        #expect(answer.json == ["code": 400, "message": .string(message)])
    }
}
