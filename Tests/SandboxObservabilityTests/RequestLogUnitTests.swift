@testable import SandboxBank
@testable import SandboxWire
@testable import CashoutSandbox
import Testing

/// `RequestLog` on its own: the ring, its ids, what a clear keeps, and bodies cut at the bound
/// (RequestLogTests has the same through `GET /sandbox/requests` of a started sandbox).
@Suite struct RequestLogUnitTests {
    private func log(capacity: Int, bodyLimit: Int = 100) -> RequestLog {
        RequestLog(capacity: capacity, bodyLimit: bodyLimit, grpc: GRPCServer(services: [], files: { [] }))
    }

    private func record(_ log: RequestLog, _ path: String, body: String = "", status: Int = 200) {
        log.record(HTTPRequest(method: "POST", target: path, body: Array(body.utf8)), HTTPResponse(status: status, body: Array(body.utf8)),
                   route: "POST \(path)", dialect: "d24", at: VirtualTime(milliseconds: 0), receivedAt: 0)
    }

    @Test func theNewestArePushingTheOldestOutAndCountedAsLost() {
        let log = log(capacity: 2)
        for path in ["/a", "/b", "/c"] { record(log, path) }
        let (newest, kept) = log.entries(limit: 10)
        #expect(newest.map(\.id) == [3, 2] && kept == 2)
        #expect(newest.map(\.request.path) == ["/c", "/b"])
        #expect(log.entries(limit: 1).entries.map(\.id) == [3])
        #expect(log.entries(limit: 10) { $0.request.path == "/b" }.entries.map(\.id) == [2])
        let all = log.all()
        #expect(all.entries.map(\.id) == [2, 3] && all.lost == 1)
        #expect(log.entries(after: 2).map(\.id) == [3])
        #expect(log.version == (lastID: 3, clears: 0))
    }

    @Test func aClearForgetsEntriesAndLossesWhileIdsGoOn() {
        let log = log(capacity: 2)
        for path in ["/a", "/b", "/c"] { record(log, path) }
        log.clear()
        #expect(log.all().entries.isEmpty && log.all().lost == 0)
        #expect(log.version == (lastID: 3, clears: 1))
        record(log, "/d")
        #expect(log.entries(limit: 10).entries.map(\.id) == [4])
    }

    @Test func bodiesOverTheBoundAreCutAndMarked() throws {
        let log = log(capacity: 5, bodyLimit: 4)
        record(log, "/short", body: "1234")
        record(log, "/long", body: "123456")
        let entries = log.all().entries
        #expect(entries.map { String(decoding: $0.request.body, as: UTF8.self) } == ["1234", "1234"])
        #expect(entries.map { String(decoding: $0.response.body, as: UTF8.self) } == ["1234", "1234"])
        #expect(entries.map(\.requestTruncated) == [false, true] && entries.map(\.responseTruncated) == [false, true])
    }

    @Test func atCapacityZeroNothingIsKept() {
        let log = log(capacity: 0)
        record(log, "/a")
        #expect(log.all().entries.isEmpty && log.version.lastID == 0)
    }
}
