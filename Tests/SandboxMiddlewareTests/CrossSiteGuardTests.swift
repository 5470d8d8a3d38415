@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing
import Foundation
import FoundationEssentials

/// A web page on another site cannot make a browser change the sandbox: admin changes whose
/// `Origin` is not the sandbox itself are refused; reads, same-origin calls (the dashboard), calls
/// without `Origin` (curl, Postman, tests) and notifications to the sink pass.
@Suite struct CrossSiteGuardTests {
    private func sandbox() throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        return try Sandbox.launch(configuration)
    }

    @Test func aCrossSiteAdminChangeIsRefusedAndChangesNothing() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let host = sandbox.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "")
        let advance = "\(sandbox.baseURL)/sandbox/clock/advance"
        let body = Array(#"{"by":"1h"}"#.utf8)
        let refused = try TestHTTP.send(method: "POST", url: advance, headers: ["Origin": "https://evil.example", "Content-Type": "text/plain"],
                                        body: body)
        #expect(refused.status == 403)
        #expect(refused.bodyText == #"{"code":403,"message":"cross-site request refused: Origin https://evil.example is not this sandbox "#
                                    + #"(\#(host))"}"#)
        let fetchSite = try TestHTTP.send(method: "POST", url: advance, headers: ["Sec-Fetch-Site": "cross-site"], body: body)
        #expect(fetchSite.bodyText == #"{"code":403,"message":"cross-site request refused: Sec-Fetch-Site is cross-site"}"#)
        #expect(try TestHTTP.send(method: "POST", url: advance, headers: ["Origin": "null"], body: body).status == 403)
        #expect(sandbox.clock.now == VirtualTime(iso8601: "2026-01-05T09:00:00Z"))

        #expect(try TestHTTP.send(method: "POST", url: advance, headers: ["Origin": "HTTP://\(host.uppercased())"], body: body).status == 200)
        #expect(try TestHTTP.send(method: "POST", url: advance, body: body).status == 200)
        #expect(try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/clock", headers: ["Origin": "https://evil.example"]).status == 200)
        let sink = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/sink/shop",
                                     headers: ["Origin": "https://bank.example",
                                               "Content-Type": "application/x-www-form-urlencoded"], body: Array("a=1".utf8))
        #expect(sink.status == 200)
        #expect(sandbox.clock.now == VirtualTime(iso8601: "2026-01-05T11:00:00Z"))
    }
}
