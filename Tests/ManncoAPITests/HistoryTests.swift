@testable import CashoutSandbox
@testable import SandboxWire
@testable import SandboxSupport
import Testing

/// `GET /user/getCashoutHistory`: pages from 1, newest first, 20 a page by default, at most 50,
/// `perpage` or its aliases `count` and `limit`; and `totalCashedOut`.
@Suite struct HistoryTests {
    /// A sandbox whose default user has `count` cashouts, one a day (the cooldown), each completed.
    private func sandboxWithCashouts(_ count: Int) throws -> (Sandbox, String) {
        let sandbox = try startSandbox()
        for index in 0 ..< count {
            _ = try sandbox.processOK(try sandbox.login(), amount: 5_000 + Int64(index))  // a token lasts 31 days
            try sandbox.advance("1d")
        }
        return (sandbox, try sandbox.login())
    }

    private func page(_ sandbox: Sandbox, _ token: String, _ query: String) throws -> JSON {
        let response = try sandbox.call("GET", "/user/getCashoutHistory\(query)", token: token)
        try #require(response.status == 200, "\(response.bodyText)")
        return try #require(JSON.parse(response.body)["content"])
    }

    private func ids(_ content: JSON) -> [Int] {
        content["cashouts"]?.arrayValue?.compactMap { $0["id"]?.numberText.flatMap { Int($0) } } ?? []
    }

    @Test func anEmptyHistory() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let response = try sandbox.call("GET", "/user/getCashoutHistory", token: try sandbox.login())
        #expect(response.bodyText == #"{"err":false,"success":true,"content":{"cashouts":[],"total":0,"page":1,"perpage":20,"totalCashedOut":0}}"#)
    }

    @Test func aRowShowsTheCashoutAsItStands() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let token = try sandbox.login()
        _ = try sandbox.processOK(token, amount: 100_000, method: "tipalti")
        let pending = try sandbox.call("GET", "/user/getCashoutHistory", token: token)
        // Monday 09:00 + 5 business days: the next Monday.
        #expect(pending.bodyText == #"{"err":false,"success":true,"content":{"cashouts":[{"id":1000001,"amount":100000,"method":"tipalti","#
                                    + #""status":"pending","requestedAt":1767603600,"completedAt":null,"estimatedCompletionAt":1768208400,"#
                                    + #""transactionId":null}],"total":1,"page":1,"perpage":20,"totalCashedOut":0}}"#)
        try sandbox.advance("5s")
        #expect(try page(sandbox, token, "")["cashouts"]?[0]?["status"] == "processing")
        try sandbox.admin("POST", "/sandbox/cashouts/1000001/actions", #"{"action":"complete","bank_reference_id":"TX-9"}"#)
        let done = try page(sandbox, token, "")
        #expect(done["cashouts"]?[0]?["status"] == "completed")
        #expect(done["cashouts"]?[0]?["completedAt"] == .number(String(startSeconds + 5)))
        #expect(done["cashouts"]?[0]?["transactionId"] == "TX-9")
        #expect(done["totalCashedOut"] == 100000)
        // A late failure: failed, no longer completed nor counted.
        try sandbox.admin("POST", "/sandbox/cashouts/1000001/actions", #"{"action":"reject"}"#)
        let failed = try page(sandbox, token, "")
        #expect(failed["cashouts"]?[0]?["status"] == "failed" && failed["cashouts"]?[0]?["completedAt"] == .null)
        #expect(failed["totalCashedOut"] == 0)
    }

    @Test func pagesAreNewestFirstWithTheirEdges() throws {
        let (sandbox, token) = try sandboxWithCashouts(23)
        defer { sandbox.stop() }
        let newest = 1_000_023
        let first = try page(sandbox, token, "")
        #expect(ids(first) == Array((newest - 19 ... newest).reversed()))
        #expect(first["total"] == 23 && first["page"] == 1 && first["perpage"] == 20)
        #expect(first["totalCashedOut"] == .number(String((0 ..< 23).reduce(0) { $0 + 5_000 + $1 })))
        #expect(ids(try page(sandbox, token, "?page=2")) == [1_000_003, 1_000_002, 1_000_001])
        #expect(ids(try page(sandbox, token, "?page=3")) == [])
        #expect(ids(try page(sandbox, token, "?page=999999999999")) == [])
        #expect(ids(try page(sandbox, token, "?page=2&perpage=10")) == Array((1_000_004 ... 1_000_013).reversed()))
        #expect(ids(try page(sandbox, token, "?page=3&perpage=10")) == [1_000_003, 1_000_002, 1_000_001])
        #expect(ids(try page(sandbox, token, "?perpage=1")) == [newest])
        #expect(ids(try page(sandbox, token, "?count=2")) == [newest, newest - 1])
        #expect(ids(try page(sandbox, token, "?limit=3")) == [newest, newest - 1, newest - 2])
        #expect(try page(sandbox, token, "?perpage=23")["perpage"] == 23)
    }

    @Test func aPageSizeAbove50IsClamped() throws {
        let (sandbox, token) = try sandboxWithCashouts(52)
        defer { sandbox.stop() }
        let clamped = try page(sandbox, token, "?perpage=51")
        #expect(clamped["perpage"] == 50 && ids(clamped).count == 50)
        #expect(ids(try page(sandbox, token, "?perpage=1000&page=2")) == [1_000_002, 1_000_001])
    }

    @Test(arguments: ["?perpage=0", "?perpage=-1", "?perpage=abc", "?perpage=", "?count=0", "?limit=x", "?perpage=1.5"])
    func aBadPageSizeIs300(query: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.call("GET", "/user/getCashoutHistory\(query)", token: try sandbox.login()), 300, "Invalid perpage")
    }

    @Test(arguments: ["?page=0", "?page=-2", "?page=first", "?page="])
    func aBadPageIs300(query: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.call("GET", "/user/getCashoutHistory\(query)", token: try sandbox.login()), 300, "Invalid page")
    }

    @Test func aUserSeesOnlyTheirOwnCashouts() throws {
        let sandbox = try startSandbox(users: [user(), user("2", apiKey: "two")])
        defer { sandbox.stop() }
        _ = try sandbox.processOK(try sandbox.login())
        let other = try page(sandbox, try sandbox.login("two"), "")
        #expect(ids(other) == [] && other["total"] == 0)
    }
}
