@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
import Synchronization
import TestHelpers
import Testing

/// A 404 or 405 names the route the request most likely meant, in its message and in the request
/// journal's `near_miss`; a path far from every route gets no hint. The log names each refused
/// authentication with its diagnosis.
@Suite struct NearMissTests {
    private func start(eventLog: EventLog? = nil) throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.eventLog = eventLog
        return try Sandbox.launch(configuration)
    }

    @Test(arguments: [
        ("POST", "/v3/cashout/cancle", 404, "No such endpoint: POST /v3/cashout/cancle (did you mean DELETE /v3/cashout/cancel?)",
         "DELETE /v3/cashout/cancel"),
        ("GET", "/v3/cashouts", 404, "No such endpoint: GET /v3/cashouts (did you mean POST /v3/cashout?)", "POST /v3/cashout"),
        ("POST", "/v2/cashout", 404, "No such endpoint: POST /v2/cashout (did you mean POST /v3/cashout?)", "POST /v3/cashout"),
        ("GET", "/v3/bank", 404, "No such endpoint: GET /v3/bank (did you mean GET /v3/banks?)", "GET /v3/banks"),
        ("POST", "/v3/Cashout/Status", 404, "No such endpoint: POST /v3/Cashout/Status (did you mean POST /v3/cashout/status?)",
         "POST /v3/cashout/status"),
        ("GET", "/user/getcashouthistory", 404,
         "No such endpoint: GET /user/getcashouthistory (did you mean GET /user/getCashoutHistory?)", "GET /user/getCashoutHistory"),
        ("POST", "/types.PayoutService/create", 404,
         "No such endpoint: POST /types.PayoutService/create (did you mean POST /types.PayoutService/Create?)", "POST /types.PayoutService/Create"),
        ("GET", "/cashout/links/abc", 404, "No such endpoint: GET /cashout/links/abc (did you mean GET /cashout/link/{token}?)",
         "GET /cashout/link/{token}"),
        ("POST", "/v3/cashout/cancel", 405, "Method POST not allowed on /v3/cashout/cancel (did you mean DELETE /v3/cashout/cancel?)",
         "DELETE /v3/cashout/cancel"),
        ("GET", "/v3/cashout", 405, "Method GET not allowed on /v3/cashout (did you mean POST /v3/cashout?)", "POST /v3/cashout"),
        // A read is pointed to the query (POST), not to the update (PUT), though PUT is fewer letters from GET.
        ("GET", "/v3/cashout/status", 405, "Method GET not allowed on /v3/cashout/status (did you mean POST /v3/cashout/status?)",
         "POST /v3/cashout/status"),
        ("PATCH", "/v3/cashout/status", 405, "Method PATCH not allowed on /v3/cashout/status (did you mean PUT /v3/cashout/status?)",
         "PUT /v3/cashout/status"),
    ])
    func aWrongPathOrMethodNamesTheClosestRoute(method: String, path: String, status: Int, message: String, nearMiss: String) throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        let response = try TestHTTP.send(method: method, url: "\(sandbox.baseURL)\(path)", body: [])
        #expect(response.status == status)
        #expect(response.bodyText == JSON.object(["code": .number(status), "message": .string(message)]).serializedString())
        #expect(sandbox.requests(limit: 1).first?["near_miss"] == .string(nearMiss))
    }

    @Test(arguments: ["/nope", "/v3/refunds", "/api/v1/payouts", "/robots.txt", "/v3/cashout/status/extra/parts"])
    func aPathFarFromEveryRouteGetsNoHint(path: String) throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        let response = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)\(path)")
        #expect(response.bodyText == #"{"code":404,"message":"No such endpoint: GET \#(path)"}"#)
        #expect(sandbox.requests(limit: 1).first?["near_miss"] == .null)
    }

    @Test func anAdminPathNamesItsNearMissToo() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        let response = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/cashout/1000001")
        #expect(response.bodyText == #"{"code":404,"message":"No such endpoint: GET /sandbox/cashout/1000001 (did you mean GET "#
                                     + #"/sandbox/cashouts/{id}?)"}"#)
    }

    @Test(arguments: [AccessLog.Format.text, .json])
    func aRefusedAuthenticationIsLoggedWithWhatFailed(format: AccessLog.Format) throws {
        let output = Mutex<[UInt8]>([])
        let sandbox = try start(eventLog: EventLog(format: format) { bytes in output.withLock { $0 += bytes } })
        let body = #"{"login":"sandbox_login","pass":"nope","cashout_id":1}"#
        _ = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/v3/cashout/status", body: Array(body.utf8))
        sandbox.stop()
        let line = try #require(String(decoding: output.withLock { $0 }, as: UTF8.self).split(separator: "\n").first { $0.contains("auth.refused") })
        let message = "pass does not match merchant sandbox_login's passphrase \"sandbox_pass\""
        switch format {
        case .text:
            #expect(line.hasSuffix(#" auth.refused method=POST path=/v3/cashout/status status=401 check=wrong_pass expected_pass=sandbox_pass "#
                                   + #"login=sandbox_login received_pass=nope message="pass does not match merchant sandbox_login's passphrase "#
                                   + #"\"sandbox_pass\"""#),
                    "\(line)")
        case .json:
            var json = try JSON.parse(Array(line.utf8))
            #expect(json["time"]?.stringValue?.hasSuffix("Z") == true)
            if case .object(var members) = json { members["time"] = nil; json = .object(members) }
            #expect(json == ["event": "auth.refused", "method": "POST", "path": "/v3/cashout/status", "status": 401, "check": "wrong_pass",
                             "expected_pass": "sandbox_pass", "login": "sandbox_login", "received_pass": "nope", "message": .string(message)])
        }
    }
}
