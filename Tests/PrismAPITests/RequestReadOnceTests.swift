@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxContract
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// A request's body is decoded once, where it is first read (a scenario's fault, or its handler),
/// and every later reader shares it: the handler, the report, the timeline, the clock's waits
/// (Architecture, "A request is read once"). For each API: a signed D24 create and status query, a
/// Mannco login and process, a gRPC `Create` and a Connect JSON `Create`; with no fault, and with
/// a fault armed that reads every request and fires on none. D24's handler reads its members
/// itself unless a fault decoded the body first (kept, they cost its hot path): its requests are
/// decoded once more, by the log's first reader, for every other.
@Suite struct RequestReadOnceTests {
    private static let user = "76561198000000101"

    private func start(faults: Bool) throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        let fault = faults ? #"{"when": {"account": "no-such-account"}, "every": 1, "kind": "error"}"# : ""
        let scenario = #"""
            {"users": [{"id": "\#(Self.user)", "api_key": "key-101", "balance": 1000000, "linked": ["payoneer"]}], "faults": [\#(fault)]}
            """#
        configuration.scenarios = [try ScenarioLoader.load(Array(scenario.utf8), file: "t.json", vocabulary: configuration.scenarioVocabulary)]
        return try Sandbox.launch(configuration)
    }

    private func send(_ sandbox: Sandbox, _ method: String, _ path: String, _ body: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var all: HTTPHeaders = ["Content-Type": "application/json"]
        for (name, value) in headers { all.add(name, value) }
        return sandbox.respond(to: HTTPRequest(method: method, target: path, headers: all, body: Array(body.utf8)))
    }

    @Test(arguments: [false, true]) func eachRequestsBodyIsDecodedOnceForEveryReader(faults: Bool) throws {
        let sandbox = try start(faults: faults)
        defer { sandbox.stop() }
        let create = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"read-once-1","country":"BR","currency":"BRL","#
            + #""amount":100,"document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","#
            + #""bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C"}"#
        #expect(send(sandbox, "POST", "/v3/cashout", create, headers: ["Payload-Signature": D24Signing.payloadSignature(create)]).status == 200)
        let status = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"read-once-1"}"#
        #expect(send(sandbox, "POST", "/v3/cashout/status", status,
                     headers: ["Payload-Signature": D24Signing.payloadSignature(status)]).status == 200)
        let login = send(sandbox, "POST", "/user/login", #"{"apiKey": "key-101"}"#)
        let token = try #require(try JSON.parse(login.body)["content"]?["jwt"]?.stringValue)
        #expect(send(sandbox, "POST", "/cashout/process", #"{"amount": 10000, "method": "payoneer"}"#,
                     headers: ["Authorization": "Bearer \(token)"]).status == 200)
        #expect(try sandbox.prism("Create", createRequest("po-1", minor: 12000)).code == 0)
        var connect = defaultAuth
        connect.add("Content-Type", "application/json")
        #expect(send(sandbox, "POST", "/types.PayoutService/Create",
                     #"{"merchantPayoutId":"po-2","amount":{"minorAmount":"500","currency":"USD"},"#
                     + #""payoutMethodData":{"card":{"cardNumber":{"value":"4111111111111111"}}}}"#, headers: connect).status == 200)

        let entries = sandbox.requestLog.all().entries
        let routes = ["POST /v3/cashout", "POST /v3/cashout/status", "POST /user/login", "POST /cashout/process",
                      "POST /types.PayoutService/Create", "POST /types.PayoutService/Create"]
        #expect(entries.map(\.route) == routes)
        // Answered: each was decoded once, by its handler or by the fault stage before it (D24's by the fault stage only).
        let d24 = faults ? 1 : 0
        #expect(entries.map { $0.request.decoded?.decodes } == [d24, d24] + Array(repeating: 1, count: routes.count - 2))
        // Its facts: made by the fault stage, when one is armed, before it was handled, and kept with the entry.
        #expect(entries.allSatisfy { $0.facts?.madeAsked == faults })
        // Then read by the clock's waits, the report and a timeline: nothing decodes it again, nor
        // makes its facts again (the fault stage's are every reader's).
        _ = sandbox.appRequests(after: 0)
        #expect(sandbox.integrationReport().status == 200)
        _ = sandbox.timeline(of: sandbox.bank.payouts(account: nil).map(\.id), title: "t", findings: [], judged: nil)
        #expect(entries.map { $0.request.decoded?.decodes } == Array(repeating: 1, count: routes.count))
        #expect(entries.allSatisfy { entry in
            entry.facts?.answered(asked: { Issue.record("its facts made twice"); return nil },
                                 by: { facts in Issue.record("its answer's facts made twice"); return facts }) != nil
        })
    }
}
