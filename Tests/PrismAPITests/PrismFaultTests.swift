@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxContract
@testable import SandboxRunner
import TestHelpers
import Testing
import FoundationEssentials

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

    /// A wait for a Create that a rate limit answered, and that the app never sent again, says what came in the client's
    /// own terms: a gRPC call's status and pushback, a Connect call's HTTP status and `Retry-After`. (The app's last call,
    /// a Get, comes after both: the waits for the Creates run once they came.)
    @Test func aWaitSaysARateLimitedCreateCameInItsClientsTermsAndWasNeverSentAgain() throws {
        let scenario = try ScenarioLoader.load(Array(#"""
            {"name": "limited", "faults": [{"when": {"path": "/types.PayoutService/Create"}, "every": 1, "times": 2, "kind": "rate_limit"}],
             "steps": [{"wait_for_request": {"request": {"path": "/types.PayoutService/Get"}, "timeout": "1h"}},
                       {"wait_for_request": {"request": {"path": "/types.PayoutService/Create", "body": {"amount.minor_amount": 12000}},
                                             "timeout": "1ms"}, "as": "grpc"},
                       {"wait_for_request": {"request": {"path": "/types.PayoutService/Create", "body": {"amount.minor_amount": 500}},
                                             "timeout": "1ms"}, "as": "connect"}]}
            """#.utf8), file: "t.json", vocabulary: Sandbox.standardVocabulary)
        let app: @Sendable (Sandbox) -> CommandOutcome? = { sandbox in
            _ = try? sandbox.prism("Create", createRequest("po-1", minor: 12000))
            var headers: HTTPHeaders = ["Content-Type": "application/json", "User-Agent": "app"]
            for (name, value) in defaultAuth { headers.add(name, value) }
            _ = try? TestHTTP.send(method: "POST", url: sandbox.baseURL.absoluteString + "/types.PayoutService/Create", headers: headers,
                                   body: Array(#"{"merchantPayoutId":"po-2","amount":{"minorAmount":"500","currency":"USD"}}"#.utf8))
            _ = try? sandbox.prism("Get", lookup("Get", connector: "1"))
            return nil
        }
        let result = try ScenarioRunner.run(scenario, serving: ScenarioRunner.Serving(threads: 2, beside: app))
        let failures = result.failedSteps
        #expect(failures.map(\.step) == [2, 3])
        #expect(failures.first?.message.hasPrefix("wait_for_request: the create of USD 12000 came at +") == true)
        #expect(failures.first?.message.hasSuffix("and was rate limited (RESOURCE_EXHAUSTED, grpc-retry-pushback-ms 1000); the app never sent "
                                                  + "it again within 1ms") == true, "\(failures)")
        #expect(failures.last?.message.hasSuffix("and was rate limited (429, Retry-After 1s); the app never sent it again within 1ms") == true)
        #expect(result.cases.map(\.name) == ["other steps", "grpc", "connect"])
    }

    /// The header fields of a gRPC call to PayoutService, as a client sends them.
    private static let grpcFields = [("content-type", "application/grpc"), ("te", "trailers")] + defaultAuth.map { ($0.name, $0.value) }

    /// A sandbox whose fault on Create has `fault`'s keys, and a gRPC Create of po-cut (120.00) sent on stream 1 of a
    /// raw HTTP/2 connection: the connection, and the frames that stream got.
    private func truncatedCreate(_ fault: String) throws -> (Sandbox, WireClient, [WireClient.Frame]) {
        let sandbox = try start(#"{"faults": [{"when": {"path": "/types.PayoutService/Create"}, \#(fault)}]}"#)
        do {
            let wire = try WireClient(port: try #require(sandbox.baseURL.port))
            wire.openHTTP2()
            wire.post(stream: 1, path: "/types.PayoutService/Create", Self.grpcFields,
                      body: GRPCDeframer.frame(createRequest("po-cut", minor: 12000).encoded()))
            return (sandbox, wire, try wire.frames(of: 1))
        } catch {
            sandbox.stop()
            throw error
        }
    }

    /// `truncate` over gRPC (HTTP/2): HEADERS, a DATA frame with the first half of the length-prefixed message and no
    /// END_STREAM, then RST_STREAM INTERNAL_ERROR and no trailers; the Create committed (a Get finds it), and the next
    /// stream of the same connection is answered whole. The timeline says how much of the answer went.
    @Test func aTruncatedGRPCCallGetsAShortFrameThenItsStreamIsResetAndTheConnectionGoesOn() throws {
        let (sandbox, wire, cut) = try truncatedCreate(#""every": 1, "times": 1, "kind": "truncate""#)
        defer { sandbox.stop() }
        typealias Frame = WireClient.Frame
        try #require(cut.map(\.type) == [Frame.headers, Frame.data, Frame.rstStream], "\(cut.map(\.type))")
        #expect(!cut[0].endStream && !cut[1].endStream && cut[2].errorCode == 2)  // INTERNAL_ERROR
        let data = cut[1].payload
        try #require(data.count >= 5)
        let whole = 5 + data[1 ... 4].reduce(0) { $0 << 8 | Int($1) }
        #expect(data[0] == 0 && data.count == whole / 2, "\(data.count) of \(whole)")
        wire.post(stream: 3, path: "/types.PayoutService/Get", Self.grpcFields, body: GRPCDeframer.frame(lookup("Get", merchant: "po-cut").encoded()))
        let get = try wire.frames(of: 3)
        #expect(get.map(\.type) == [Frame.headers, Frame.data, Frame.headers] && get[2].endStream)
        let made = try sandbox.prism("Get", lookup("Get", merchant: "po-cut"))
        #expect(made.code == 0 && made.status == "PENDING")
        let id = try #require(sandbox.bank.payouts(account: DefaultMerchant.id).first?.id)
        let timeline = sandbox.timeline(of: [id], title: "t", findings: [], judged: nil)
        #expect(timeline.entries.filter { $0.kind == .request }.map(\.text).first
            == "Create: injected fault truncate: done, then its answer (OK) was cut off after \(whole / 2) of its \(whole) bytes")
    }

    /// `truncate` with `"commit": false` over gRPC: nothing is made, and the call is cut right after its head
    /// (a gRPC error has no message to cut): HEADERS, then RST_STREAM, no trailers.
    @Test func anUncommittedTruncateOverGRPCMakesNothingAndResetsAfterTheHead() throws {
        let (sandbox, _, cut) = try truncatedCreate(#""every": 1, "kind": "truncate", "commit": false"#)
        defer { sandbox.stop() }
        #expect(cut.map(\.type) == [WireClient.Frame.headers, WireClient.Frame.rstStream] && !cut[0].endStream && cut.last?.errorCode == 2)
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "po-cut")).code == 5)  // NOT_FOUND
        #expect(sandbox.bank.payouts(account: DefaultMerchant.id).isEmpty)
    }

    /// Sends `request` over HTTP/1.1 and reads to the end of the connection: the head, and the body bytes that came.
    private func exchange(_ sandbox: Sandbox, _ request: String) throws -> (head: String, body: [UInt8]) {
        let wire = try WireClient(port: try #require(sandbox.baseURL.port))
        wire.send(Array(request.utf8))
        let bytes = try wire.readToEnd()
        let end = try #require((0 ..< max(bytes.count - 3, 0)).first { Array(bytes[$0 ..< $0 + 4]) == Array("\r\n\r\n".utf8) })
        return (String(decoding: bytes[..<end], as: UTF8.self), Array(bytes[(end + 4)...]))
    }

    /// The body the last logged request was answered with, whole (`GET /sandbox/requests`, newest first).
    private func loggedAnswer(_ sandbox: Sandbox) throws -> [UInt8] {
        let log = try JSON.parse(sandbox.respond(to: HTTPRequest(method: "GET", target: "/sandbox/requests")).body)
        return Array(try #require(log["requests"]?[0]?["response"]?["body"]?.stringValue).utf8)
    }

    /// `truncate` over HTTP/1.1, byte for byte: a D24 create's head with its whole body's Content-Length, exactly
    /// `after_bytes` bytes of that body, then the end of the connection (though the client asked to keep it); the
    /// payout was made. A Connect call the same, after its own `after_bytes`.
    @Test func aTruncatedHTTPAnswerIsItsHeadAndExactlyNBytesThenTheEndOfTheConnection() throws {
        let sandbox = try start(#"""
            {"faults": [{"when": {"endpoint": "POST /v3/cashout"}, "every": 1, "kind": "truncate", "after_bytes": 10},
                        {"when": {"path": "/types.PayoutService/Create"}, "every": 1, "kind": "truncate", "after_bytes": 7}]}
            """#)
        defer { sandbox.stop() }
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"cut-1","country":"BR","currency":"BRL","amount":100,"#
            + #""document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","bank_code":"001","#
            + #""bank_account":"3423422-7","bank_branch":"1234","account_type":"C"}"#
        let d24 = try exchange(sandbox, "POST /v3/cashout HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                   + "Payload-Signature: \(D24Signing.payloadSignature(body))\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let whole = try loggedAnswer(sandbox)
        #expect(d24.head.hasPrefix("HTTP/1.1 200 OK\r\n") && d24.head.contains("\r\nContent-Length: \(whole.count)\r\n"), "\(d24.head)")
        #expect(!d24.head.contains("Connection: close"))
        #expect(d24.body == Array(whole.prefix(10)) && whole.count > 10)
        #expect(sandbox.bank.payouts().map(\.reference) == ["cut-1"])
        // To the clock's waits for the app, a lost answer it owes a retry of: about the payout made, showing it nothing.
        let owed = try #require(sandbox.appRequests(after: 0).requests.first)
        #expect(owed.fault == .truncate && !owed.succeeded && owed.read.isEmpty && owed.payoutIDs == sandbox.bank.payouts().map(\.id))
        let message = #"{"merchantPayoutId":"po-2","amount":{"minorAmount":"500","currency":"USD"},"#
            + #""payoutMethodData":{"card":{"cardNumber":{"value":"4111111111111111"}}}}"#
        let auth = defaultAuth.map { "\($0.name): \($0.value)\r\n" }.joined()
        let connect = try exchange(sandbox, "POST /types.PayoutService/Create HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                       + "\(auth)Content-Length: \(message.utf8.count)\r\n\r\n\(message)")
        let connectWhole = try loggedAnswer(sandbox)
        #expect(connect.head.hasPrefix("HTTP/1.1 200 OK\r\n") && connect.head.contains("\r\nContent-Length: \(connectWhole.count)\r\n"))
        #expect(connect.body == Array(connectWhole.prefix(7)) && connectWhole.count > 7)
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "po-2")).code == 0)  // committed
    }

    /// `truncate` with `"commit": false` over HTTP/1.1: the create is not handled, and a 503's head comes with none of
    /// its body (`after_bytes` 0), then the end of the connection; nothing was made.
    @Test func anUncommittedTruncateCutsA503AndMakesNothing() throws {
        let sandbox = try start(#"""
            {"faults": [{"when": {"endpoint": "POST /v3/cashout"}, "every": 1, "kind": "truncate", "after_bytes": 0, "commit": false}]}
            """#)
        defer { sandbox.stop() }
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"cut-2","country":"BR","currency":"BRL","amount":100}"#
        let d24 = try exchange(sandbox, "POST /v3/cashout HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                   + "Payload-Signature: \(D24Signing.payloadSignature(body))\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let whole = #"{"message":"service unavailable"}"#
        #expect(d24.head.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n") && d24.head.contains("\r\nContent-Length: \(whole.utf8.count)\r\n"))
        #expect(d24.body.isEmpty)
        #expect(try loggedAnswer(sandbox) == Array(whole.utf8))
        #expect(sandbox.bank.payouts().isEmpty)
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
