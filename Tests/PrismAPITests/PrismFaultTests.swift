import CashoutSandbox
import SandboxBank
import SandboxGRPC
import SandboxHTTP
import SandboxJSON
import SandboxReport
import SandboxScenario
import TestHelpers
import Testing

/// Faults aimed at PayoutService calls by their message (read as proto3 JSON, as a verification
/// reads it), over gRPC and Connect alike; a retried Create answers the payout the lost answer
/// was about.
@Suite struct PrismFaultTests {
    private func start(_ scenario: String) throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.scenarios = [try ScenarioLoader.load(Array(scenario.utf8), file: "t.json", vocabulary: configuration.scenarioVocabulary)]
        return try Sandbox.launch(configuration)
    }

    static let fault = #"""
        {"faults": [{"when": {"path": "/types.PayoutService/Create", "body": {"amount.minor_amount": {"gte": 10900, "lt": 11000}}},
                     "every": 1, "kind": "drop_after_commit"}]}
        """#

    /// A payout's timeline names each call by its method and says what its answer said: the gRPC
    /// status and `payoutStatus` (`Get: OK SUCCESS`), and a Connect call's HTTP status.
    @Test func aPayoutsTimelineSaysWhatEachCallWasAnswered() throws {
        let sandbox = try start(#"{"seed": 1}"#)
        defer { sandbox.stop() }
        let id = try sandbox.prism("Create", createRequest("po-1", minor: 12000)).connectorPayoutID
        sandbox.bank.advance(by: .seconds(20))
        #expect(try sandbox.prism("Get", lookup("Get", connector: id)).status == "SUCCESS")
        let connect = sandbox.respond(to: HTTPRequest(method: "POST", target: "/types.PayoutService/Get", version: .http1_1,
                                                      headers: ["content-type": "application/json", "x-connector": "sandbox",
                                                                "x-auth": "header-key", "x-api-key": DefaultMerchant.apiKey],
                                                      body: Array(#"{"merchant_payout_id": "po-1"}"#.utf8)))
        #expect(connect.status == 200)
        let timeline = sandbox.timeline(of: [try #require(Int(id))], title: "t", findings: [], judged: nil)
        #expect(timeline.entries.filter { $0.kind == .request }.map(\.text) == ["Create: OK PENDING", "Get: OK SUCCESS", "Get: 200 SUCCESS"])
    }

    /// `rate_limit` answers as a rate-limiting gateway in each client's own terms, and handles nothing: a gRPC call
    /// gets `RESOURCE_EXHAUSTED` with `grpc-retry-pushback-ms`, a Connect call Connect's `resource_exhausted` (HTTP 429)
    /// with `Retry-After`, a D24 call HTTP 429 with `Retry-After` in whole seconds, rounded up; the timeline says so.
    @Test func aRateLimitAnswersEachClientInItsOwnTermsAndHandlesNothing() throws {
        let sandbox = try start(#"""
            {"faults": [{"when": {"path": "/types.PayoutService/Create"}, "every": 1, "kind": "rate_limit", "retry_after": "1500ms"},
                        {"when": {"endpoint": "GET /v3/banks"}, "every": 1, "kind": "rate_limit"}]}
            """#)
        defer { sandbox.stop() }
        let grpc = try sandbox.prism("Create", createRequest("po-1", minor: 12000))
        #expect(grpc.code == 8 && grpc.message == "rate limited: retry after 1s500ms", "\(String(describing: grpc.code)) \(grpc.message ?? "")")
        #expect(grpc.response.headers["grpc-retry-pushback-ms"] == "1500")
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        for (name, value) in defaultAuth { headers.add(name, value) }
        let connect = try TestHTTP.send(method: "POST", url: sandbox.baseURL.absoluteString + "/types.PayoutService/Create", headers: headers,
                                        body: Array(#"{"merchantPayoutId":"po-2","amount":{"minorAmount":"500","currency":"USD"}}"#.utf8))
        #expect(connect.status == 429 && connect.headers["Retry-After"] == "2")
        #expect(try JSON.parse(connect.body) == ["code": "resource_exhausted", "message": "rate limited: retry after 1s500ms"])
        let banks = try TestHTTP.send(method: "GET", url: sandbox.baseURL.absoluteString + "/v3/banks?country=BR",
                                      headers: ["Authorization": "Bearer sandbox_read_only"])
        #expect(banks.status == 429 && banks.headers["Retry-After"] == "1")
        #expect(try JSON.parse(banks.body) == ["message": "rate limited: retry after 1s"])
        #expect(sandbox.bank.payouts(account: DefaultMerchant.id).isEmpty)  // nothing handled
    }

    @Test func aGRPCCreateAimedByAmountLosesItsAnswerTheOthersAreAnswered() throws {
        let sandbox = try start(Self.fault)
        defer { sandbox.stop() }
        #expect(try sandbox.prism("Create", createRequest("po-1", minor: 12000)).code == 0)
        let lost = sandbox.respond(to: HTTPRequest(method: "POST", target: "/types.PayoutService/Create", version: .http2,
                                                   headers: ["content-type": "application/grpc", "te": "trailers", "x-connector": "sandbox",
                                                             "x-auth": "header-key", "x-api-key": DefaultMerchant.apiKey],
                                                   body: GRPCDeframer.frame(createRequest("po-2", minor: 10950).encoded())))
        #expect(lost.status == 0)  // in process, a dropped answer is status 0 (Sandbox.respond(to:))
        #expect(try sandbox.prism("Create", createRequest("po-3", minor: 11000)).code == 0)
        let payout = try #require(sandbox.bank.payout(account: DefaultMerchant.id, reference: "po-2"))
        // Committed: a Get by merchant_payout_id finds it.
        let found = try sandbox.prism("Get", lookup("Get", merchant: "po-2"))
        #expect(found.connectorPayoutID == String(payout.id))
        #expect(sandbox.bank.payouts(account: DefaultMerchant.id).count == 3)
    }

    @Test func aConnectCreateAimedByAmountLosesItsAnswerAndARetryAnswersTheExistingPayout() throws {
        let sandbox = try start(Self.fault)
        defer { sandbox.stop() }
        func create(_ id: String, minor: Int) throws -> HTTPResponse {
            var headers: HTTPHeaders = ["Content-Type": "application/json"]
            for (name, value) in defaultAuth { headers.add(name, value) }
            let body = #"{"merchantPayoutId":"\#(id)","amount":{"minorAmount":"\#(minor)","currency":"USD"},"#
                + #""payoutMethodData":{"card":{"cardNumber":{"value":"4111111111111111"}}}}"#
            return try TestHTTP.send(method: "POST", url: sandbox.baseURL.absoluteString + "/types.PayoutService/Create", headers: headers,
                                     body: Array(body.utf8))
        }
        #expect(try create("c-1", minor: 500).status == 200)
        #expect(throws: HTTPClientError.self) { try create("c-2", minor: 10999) }
        let payout = try #require(sandbox.bank.payout(account: DefaultMerchant.id, reference: "c-2"))
        // A retry with another amount is not aimed at: it answers the payout already made.
        let retry = try create("c-2", minor: 500)
        #expect(retry.status == 200)
        #expect((try JSON.parse(retry.body))["connectorPayoutId"]?.stringValue == String(payout.id))
        #expect(sandbox.bank.payouts(account: DefaultMerchant.id).count == 2)
    }

    /// A call a `rate_limit` fault answered is on its payout's timeline, in the words of its kind and the status it got.
    @Test func aRateLimitedCallIsOnItsPayoutsTimeline() throws {
        let sandbox = try start(#"""
            {"faults": [{"when": {"path": "/types.PayoutService/Get"}, "every": 1, "times": 1, "kind": "rate_limit"}]}
            """#)
        defer { sandbox.stop() }
        let id = try sandbox.prism("Create", createRequest("po-1", minor: 12000)).connectorPayoutID
        #expect(try sandbox.prism("Get", lookup("Get", connector: id)).code == 8)
        #expect(try sandbox.prism("Get", lookup("Get", connector: id)).status == "PENDING")
        let timeline = sandbox.timeline(of: [try #require(Int(id))], title: "t", findings: [], judged: nil)
        #expect(timeline.entries.filter { $0.kind == .request }.map(\.text)
            == ["Create: OK PENDING", "Get: injected fault rate_limit: answered RESOURCE_EXHAUSTED", "Get: OK PENDING"])
    }

    /// An `error` fault on a gRPC call answers as a gRPC client sees an HTTP error of a proxy: its
    /// status (503: UNAVAILABLE, safe to retry) with the body's message, in a trailers-only answer.
    /// Over Connect, the scripted HTTP status with Connect's error for that code (`{"code", "message"}`),
    /// which a Connect client reads.
    @Test func anErrorFaultAnswersAGRPCCallWithAGRPCStatus() throws {
        let sandbox = try start(#"""
            {"faults": [{"when": {"path": "/types.PayoutService/Get"}, "every": 1, "kind": "error", "status": 503,
                         "body": "{\"message\":\"explored fault: service unavailable\"}"}]}
            """#)
        defer { sandbox.stop() }
        let answer = sandbox.respond(to: HTTPRequest(method: "POST", target: "/types.PayoutService/Get", version: .http2,
                                                     headers: ["content-type": "application/grpc", "te": "trailers", "x-connector": "sandbox",
                                                               "x-auth": "header-key", "x-api-key": DefaultMerchant.apiKey],
                                                     body: GRPCDeframer.frame(lookup("Get", merchant: "po-1").encoded())))
        #expect(answer.status == 200 && answer.body.isEmpty)
        #expect(answer.headers["grpc-status"] == "14" && answer.headers["grpc-message"] == "explored fault: service unavailable")
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        for (name, value) in defaultAuth { headers.add(name, value) }
        let connect = try TestHTTP.send(method: "POST", url: sandbox.baseURL.absoluteString + "/types.PayoutService/Get", headers: headers,
                                        body: Array(#"{"merchantPayoutId":"po-1"}"#.utf8))
        #expect(connect.status == 503 && connect.bodyText == #"{"code":"unavailable","message":"explored fault: service unavailable"}"#)
    }

    /// A ledger names PayoutService payouts by `merchant_payout_id`, in its status words.
    @Test func aLedgerOfPayoutServicePayoutsIsReconciledInItsWords() throws {
        let sandbox = try start(#"{"seed": 1}"#)
        defer { sandbox.stop() }
        #expect(try sandbox.prism("Create", createRequest("po-1", minor: 12000)).code == 0)
        #expect(try sandbox.prism("Create", createRequest("po-2", minor: 500)).code == 0)
        let id = try #require(sandbox.bank.payout(account: DefaultMerchant.id, reference: "po-1")?.id)
        let outcome = try sandbox.reconcile(ledger: ["payouts": [["merchant_payout_id": "po-1", "status": "SUCCESS", "amount": "120.00"],
                                                                 ["merchant_payout_id": "po-2", "status": "pending", "amount": 5]]]).get()
        #expect(outcome.mismatches.map(\.occurrence.summary)
            == [#"the app believes cashout \#(id) (merchant_payout_id "po-1") is SUCCESS; the bank's is PENDING"#])
        let wrongWord = sandbox.reconcile(ledger: ["payouts": [["merchant_payout_id": "po-1", "status": "COMPLETED", "amount": "120.00"]]])
        #expect(throws: Reconciliation.Problem(
            "request body", "payouts[0].status: expected one of REQUIRES_FULFILLMENT, REQUIRES_PAYOUT_METHOD_DATA, PENDING, INITIATED, SUCCESS, "
                            + "FAILED, "
                + #"CANCELLED, REVERSED, EXPIRED, got "COMPLETED" (the entry of merchant_payout_id "po-1": cashout \#(id))"#)) { try wrongWord.get() }
    }
}
