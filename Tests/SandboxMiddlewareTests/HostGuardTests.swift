@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// DNS rebinding: a page on evil.example that makes its name resolve to 127.0.0.1 sends
/// `Host: evil.example:PORT` with a same-origin `Origin`. While the sandbox listens on loopback,
/// such requests are refused, whatever route they ask for; loopback names and allowed names pass.
/// Bound to all addresses (Docker), the `Host` is not checked.
@Suite struct HostGuardTests {
    private func sandbox(host: String = "127.0.0.1", allowed: [String] = []) throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.server.host = host
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.allowedHosts = allowed
        return try Sandbox.launch(configuration)
    }

    private func get(_ sandbox: Sandbox, _ path: String, host: String) throws -> HTTPResponse {
        try TestHTTP.send(method: "GET", url: "http://127.0.0.1:\(sandbox.addresses[0].port)\(path)", headers: ["Host": host])
    }

    static func refusal(_ host: String, allow name: String) -> String {
        #"{"code":403,"message":"Host \#(host) is not allowed: this sandbox listens on loopback and answers only requests "#
            + #"addressed to localhost, *.localhost, 127.0.0.0/8 or [::1], against DNS rebinding; to allow this name, start it "#
            + #"with --allowed-host \#(name) (or CASHOUT_SANDBOX_ALLOWED_HOSTS=\#(name))"}"#
    }

    @Test func aRebindingPageCanNeitherReadTheSecretsNorResetTheSandbox() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let port = sandbox.addresses[0].port
        let secrets = try get(sandbox, "/sandbox/merchants", host: "evil.example:\(port)")
        #expect(secrets.status == 403)
        #expect(secrets.bodyText == Self.refusal("evil.example:\(port)", allow: "evil.example"))
        #expect(!secrets.bodyText.contains("sandbox_secret"))
        let reset = try TestHTTP.send(method: "POST", url: "http://127.0.0.1:\(port)/sandbox/reset",
                                      headers: ["Host": "evil.example:\(port)", "Origin": "http://evil.example:\(port)"])
        #expect(reset.status == 403)
        // The D24 API and the dashboard are refused too: every route.
        #expect(try get(sandbox, "/", host: "Evil.Example").status == 403)
        #expect(try get(sandbox, "/v3/banks?country=BR", host: "attacker.test:80").status == 403)
    }

    @Test(arguments: ["localhost", "localhost:8080", "LOCALHOST.", "app.localhost:3000", "127.0.0.1", "127.1.2.3:9",
                      "[::1]", "[::1]:8080"])
    func loopbackNamesPass(host: String) throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        #expect(try get(sandbox, "/sandbox/health", host: host).status == 200)
    }

    @Test(arguments: ["localhost.evil.example", "127.0.0.1.evil.example", "128.0.0.1", "[::2]", "0.0.0.0", "127.0.0.256",
                      "[::1]evil.example", "127.0.0.1:80@evil.example", "localhost:", "localhost:8o", "127.0.0.1:", "127.0.0.1:8080x",
                      "localhostevil.example", "127.0.0.10.evil.example"])
    func namesThatOnlyLookLikeLoopbackAreRefused(host: String) throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        #expect(try get(sandbox, "/sandbox/health", host: host).status == 403)
    }

    @Test func allowedNamesPassWithSubdomainsForALeadingDot() throws {
        let sandbox = try sandbox(allowed: ["qa-box", ".corp.example"])
        defer { sandbox.stop() }
        #expect(try get(sandbox, "/sandbox/health", host: "qa-box:8080").status == 200)
        #expect(try get(sandbox, "/sandbox/health", host: "sandbox.corp.example").status == 200)
        #expect(try get(sandbox, "/sandbox/health", host: "corp.example").status == 200)
        #expect(try get(sandbox, "/sandbox/health", host: "qa-box.evil.example").status == 403)
        #expect(try get(sandbox, "/sandbox/health", host: "evilcorp.example").status == 403)
        let any = try self.sandbox(allowed: ["*"])
        defer { any.stop() }
        #expect(try get(any, "/sandbox/health", host: "anything.example").status == 200)
    }

    @Test func boundToAllAddressesTheHostIsNotChecked() throws {
        let sandbox = try sandbox(host: "0.0.0.0")
        defer { sandbox.stop() }
        #expect(try get(sandbox, "/sandbox/health", host: "qa-box.internal:9000").status == 200)
    }
}
