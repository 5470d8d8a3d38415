import Foundation
import Glibc
@testable import SandboxWire
import TestHelpers
import Testing

/// `serve` as a user runs it: loopback only unless `--host` says otherwise, and the admin token
/// from `--admin-token` or `CASHOUT_SANDBOX_ADMIN_TOKEN`.
@Suite struct SecurityCommandTests {
    /// This machine's IPv4 addresses other than loopback (none in some containers).
    private static func otherIPv4Addresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var entry = list
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                var raw = ipv4.pointee.sin_addr
                _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
            }
            let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !host.hasPrefix("127.") { addresses.append(host) }
        }
        return addresses
    }

    @Test func serveListensOnLoopbackOnlyByDefault() throws {
        let binary = try RunningBinary(["serve", "--port", "0", "--clock", "manual"])
        let listening = try #require(binary.line(startingWith: "listening on http://"))
        let port = try #require(listening.split(separator: ":").last.map(String.init))
        #expect(listening == "listening on http://127.0.0.1:\(port)")
        // Every address line names a loopback address: 127.0.0.1, then ::1 where the machine has IPv6.
        let lines = binary.stdout.split(separator: "\n").filter { $0.contains("listening on http://") }
        #expect(lines.allSatisfy { $0.hasSuffix("//127.0.0.1:\(port)") || $0.hasSuffix("//[::1]:\(port)") }, "\(lines)")
        #expect(try TestHTTP.send(method: "GET", url: "http://127.0.0.1:\(port)/sandbox/health").status == 200)
        for host in Self.otherIPv4Addresses() {
            #expect(throws: HTTPClientError.self, "\(host):\(port) must not answer") {
                try TestHTTP.send(method: "GET", url: "http://\(host):\(port)/sandbox/health")
            }
        }
        #expect(binary.terminate() == 0)
    }

    @Test func theAdminTokenOptionProtectsTheAdminAPI() throws {
        let binary = try RunningBinary(["serve", "--port", "0", "--admin-token", "option-token"])
        let url = try #require(binary.url)
        #expect(binary.line(startingWith: "admin API: requests to /sandbox/... need Authorization: Bearer <admin token>") != nil)
        #expect(!binary.stdout.contains("option-token"))  // the token itself is never printed
        #expect(try TestHTTP.send(method: "GET", url: url + "/sandbox/health").status == 200)
        let refused = try TestHTTP.send(method: "GET", url: url + "/sandbox/clock")
        #expect(refused.status == 401)
        #expect(refused.headers["WWW-Authenticate"] == #"Bearer realm="cashout-sandbox admin""#)
        #expect(try TestHTTP.send(method: "GET", url: url + "/sandbox/clock", headers: ["Authorization": "Bearer option-token"]).status == 200)
        #expect(binary.terminate() == 0)
    }

    @Test func theEnvironmentVariableSetsTheTokenAndTheOptionWins() throws {
        let fromEnvironment = try RunningBinary(["serve", "--port", "0"], under: ["/usr/bin/env", "CASHOUT_SANDBOX_ADMIN_TOKEN=env-token"])
        let url = try #require(fromEnvironment.url)
        #expect(try TestHTTP.send(method: "GET", url: url + "/sandbox/clock").status == 401)
        #expect(try TestHTTP.send(method: "GET", url: url + "/sandbox/clock", headers: ["Authorization": "Bearer env-token"]).status == 200)
        #expect(fromEnvironment.terminate() == 0)

        let both = try RunningBinary(["serve", "--port", "0", "--admin-token", "option-token"],
                                     under: ["/usr/bin/env", "CASHOUT_SANDBOX_ADMIN_TOKEN=env-token"])
        let bothURL = try #require(both.url)
        #expect(try TestHTTP.send(method: "GET", url: bothURL + "/sandbox/clock", headers: ["Authorization": "Bearer env-token"]).status == 401)
        #expect(try TestHTTP.send(method: "GET", url: bothURL + "/sandbox/clock", headers: ["Authorization": "Bearer option-token"]).status == 200)
        #expect(both.terminate() == 0)
    }

    /// Against DNS rebinding: on loopback, a request addressed to another name is refused unless
    /// `--allowed-host` (or the environment variable, which the option overrides) names it.
    @Test func onLoopbackOnlyLoopbackNamesAndTheAllowedHostsAreAnswered() throws {
        func status(_ url: String, host: String) throws -> Int {
            try TestHTTP.send(method: "GET", url: url + "/sandbox/merchants", headers: ["Host": host]).status
        }
        let binary = try RunningBinary(["serve", "--port", "0", "--allowed-host", "qa-box", "--allowed-host", ".example.com"],
                                       under: ["/usr/bin/env", "CASHOUT_SANDBOX_ALLOWED_HOSTS=from-env"])
        let url = try #require(binary.url)
        #expect(try status(url, host: "localhost:8080") == 200)
        #expect(try status(url, host: "qa-box:8080") == 200)
        #expect(try status(url, host: "api.example.com") == 200)
        #expect(try status(url, host: "from-env") == 403)
        let refused = try TestHTTP.send(method: "POST", url: url + "/sandbox/reset", headers: ["Host": "evil.example:8080"])
        #expect(refused.status == 403)
        #expect(refused.bodyText.contains("start it with --allowed-host evil.example (or CASHOUT_SANDBOX_ALLOWED_HOSTS=evil.example)"))
        #expect(binary.terminate() == 0)

        let fromEnvironment = try RunningBinary(["serve", "--port", "0"], under: ["/usr/bin/env", "CASHOUT_SANDBOX_ALLOWED_HOSTS=qa-box, from-env"])
        let environmentURL = try #require(fromEnvironment.url)
        #expect(try status(environmentURL, host: "from-env:1") == 200)
        #expect(try status(environmentURL, host: "evil.example") == 403)
        #expect(fromEnvironment.terminate() == 0)
    }

    /// Bound to every address (as in Docker), the sandbox cannot know its names: Host is not
    /// checked, and with no admin token the start-up says so.
    @Test func onEveryAddressHostIsNotCheckedAndTheStartUpRecommendsAToken() throws {
        let binary = try RunningBinary(["serve", "--host", "0.0.0.0", "--port", "0"])
        let url = try #require(binary.url)
        #expect(binary.line(startingWith: "admin API: open to anyone who can reach this address") != nil)
        let port = try #require(url.split(separator: ":").last)
        #expect(try TestHTTP.send(method: "GET", url: "http://127.0.0.1:\(port)/sandbox/clock", headers: ["Host": "qa-box.internal"]).status == 200)
        #expect(binary.terminate() == 0)

        let (status, out, err) = try RunningBinary.run(["serve", "--allowed-host", "evil example"])
        #expect(status == 2)
        #expect(out.isEmpty)
        #expect(err.hasPrefix("error: option '--allowed-host' expects a host name such as qa-box, .example.com, [fd00::1] or *, got 'evil "
                              + "example'\n"))
    }

    @Test func aBadTokenIsAUsageError() throws {
        let (status, out, err) = try RunningBinary.run(["serve", "--admin-token", "two words"])
        #expect(status == 2)
        #expect(out.isEmpty)
        #expect(err.hasPrefix("error: option '--admin-token' expects a token of visible ASCII characters without spaces, got 'two words'\n"))
    }
}
