@testable import CashoutSandbox
import Dispatch
import Glibc
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
import Synchronization
import TestHelpers
import Testing

/// `GET /sandbox/report` over a large journal: made off the event loops (no other client waits for
/// it, nor for a verification), with an `ETag` that an `If-None-Match` turns into a 304 while
/// nothing the report reads has changed.
@Suite struct ReportCachingTests {
    private func start() throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        return try Sandbox.launch(configuration)
    }

    @discardableResult
    private func d24(_ sandbox: Sandbox, _ path: String, _ fields: String) throws -> HTTPResponse {
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass",\#(fields)}"#
        return try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)\(path)",
                                 headers: ["Content-Type": "application/json", "Payload-Signature": D24Signing.payloadSignature(body)],
                                 body: Array(body.utf8))
    }

    private func create(_ sandbox: Sandbox, _ externalID: String) throws {
        let answer = try d24(sandbox, "/v3/cashout",
                             #""external_id":"\#(externalID)","country":"BR","currency":"BRL","amount":"100.00","document_id":"01716001340","#
                             + #""document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","bank_code":"001","#
                             + #""bank_account":"3423422-7","bank_branch":"1234","account_type":"C""#)
        #expect(answer.status == 200)
    }

    private func report(_ sandbox: Sandbox, ifNoneMatch: String? = nil, query: String = "") throws -> HTTPResponse {
        try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/report\(query)", headers: ifNoneMatch.map { ["If-None-Match": $0] } ?? [:])
    }

    @Test func aReportCarriesAnETagThatIfNoneMatchAnswers304UntilARequestABankEventOrTheClockMoves() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        try create(sandbox, "o-1")
        let first = try report(sandbox)
        #expect(first.status == 200)
        let tag = try #require(first.headers["ETag"])
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))

        let again = try report(sandbox, ifNoneMatch: tag)
        #expect(again.status == 304 && again.body.isEmpty && again.headers["ETag"] == tag)
        #expect(try report(sandbox, ifNoneMatch: "W/\(tag)").status == 304)
        #expect(try report(sandbox, ifNoneMatch: "\"other\", \(tag)").status == 304)
        #expect(try report(sandbox, ifNoneMatch: "\"other\"").status == 200)
        #expect(try report(sandbox).body == first.body)  // asked again without a tag: the same answer

        // A request to a payout API, a bank event, a move of the clock, a cleared journal: each is a new report.
        var tags = [tag]
        func changedReport(_ change: () throws -> Void) throws {
            try change()
            let answer = try report(sandbox, ifNoneMatch: tags.joined(separator: ", "))
            #expect(answer.status == 200)
            let newTag = try #require(answer.headers["ETag"])
            #expect(!tags.contains(newTag))
            tags.append(newTag)
        }
        try changedReport { try d24(sandbox, "/v3/cashout/status", #""external_id":"o-1""#) }
        try changedReport { _ = try sandbox.bank.changeStatus(payoutID: 1_000_001, to: .onHold, by: "test") }
        try changedReport { sandbox.advance(by: .seconds(1)) }
        try changedReport {
            let cleared = try TestHTTP.send(method: "DELETE", url: "\(sandbox.baseURL)/sandbox/requests")
            #expect(cleared.status == 204)
        }
        #expect(try report(sandbox, ifNoneMatch: tags.last).status == 304)
    }

    @Test func theAnswerForEachAccountIsItsOwn() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        try create(sandbox, "o-1")
        let all = try report(sandbox)
        let one = try report(sandbox, query: "?account=sandbox_login")
        let unknown = try report(sandbox, query: "?account=nobody")
        #expect(all.status == 200 && one.status == 200 && unknown.status == 404)
        #expect(try JSON.parse(one.body)["accounts"]?.arrayValue?.count == 1)
        #expect(unknown.headers["ETag"] == nil)
        #expect(try report(sandbox, query: "?account=nobody").body == unknown.body)
        #expect(try report(sandbox).body == all.body)
        #expect(try report(sandbox, query: "?account=").body != all.body)  // an empty account is not every account
    }

    /// While a report (or a verification) is being made, every other request is answered: the
    /// report worker is held busy here, so the report cannot be answered until it opens, and the
    /// health check and a payout API's request are answered meanwhile.
    @Test(arguments: ["GET /sandbox/report", "POST /sandbox/requests/verify"])
    func aReportBeingMadeHoldsUpNoOtherRequest(_ route: String) throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        try create(sandbox, "o-1")
        let gate = DispatchSemaphore(value: 0)
        sandbox.reports.worker.run { gate.wait() }
        let answered = Mutex<HTTPResponse?>(nil)
        let done = DispatchSemaphore(value: 0)
        let parts = route.split(separator: " ").map(String.init)
        DispatchQueue.global().async {
            let response = try? TestHTTP.send(method: parts[0], url: "\(sandbox.baseURL)\(parts[1])",
                                              body: parts[0] == "POST" ? Array(#"{"request": {"path": "/v3/cashout"}}"#.utf8) : [])
            answered.withLock { $0 = response }
            done.signal()
        }
        #expect(try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/health").status == 200)
        #expect(try d24(sandbox, "/v3/cashout/status", #""external_id":"o-1""#).status == 200)
        #expect(answered.withLock { $0 } == nil, "\(route) was answered while its worker was busy")
        gate.signal()
        #expect(done.wait(timeout: .now() + .seconds(Waiting.seconds)) == .success)
        #expect(answered.withLock { $0?.status } == 200)
    }

    /// On one or two cores, the report's thread takes what the event loops leave: it runs at nice 10
    /// (or as nice as the process was started), and only that thread (Linux's nice value is a thread's).
    @Test func reportsAreMadeOnAThreadBelowTheEventLoopsPriority() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        let nice = Mutex<Int32?>(nil)
        let done = DispatchSemaphore(value: 0)
        sandbox.reports.worker.run {
            nice.withLock { $0 = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + .seconds(Waiting.seconds)) == .success)
        let loops = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)  // what this process was started with
        #expect(nice.withLock { $0 } == max(10, loops))
        #expect(try report(sandbox).status == 200)
    }
}
