import Glibc
import Testing
@testable import SandboxWire

/// `SocketAddress.freePort` hands a port to an app that has not listened on it yet: a sandbox of the
/// same process starting meanwhile (`explore --jobs`) must not take it.
@Suite struct FreePortTests {
    @Test func aListenerOnAnyPortNeverTakesAPortHandedOut() throws {
        let handed = Set((0 ..< 32).compactMap { _ in SocketAddress.freePort() })
        #expect(handed.count == 32)  // half the ports remembered: tests running meanwhile hand out others
        let address = try #require(try SocketAddress.resolve(host: "127.0.0.1", port: 0, passive: true).first)
        // 300 listeners at once, as many sandboxes starting: each takes a port the system picks.
        let listeners = try (0 ..< 300).map { _ in try Socket.listen(on: address) }
        defer { listeners.forEach { close($0) } }
        let taken = listeners.compactMap { SocketAddress.local(of: $0)?.port }
        #expect(taken.count == 300)
        #expect(handed.isDisjoint(with: taken))
    }

    /// Below the ephemeral range, where no outgoing connection's local end is ever put: the connections of
    /// apps and deliveries made before the app binds it cannot take it.
    @Test func aPortHandedOutIsBelowTheEphemeralRange() throws {
        let low = SocketAddress.ephemeralRange.lowerBound
        try #require(low > 4096, "this machine's ephemeral range starts at \(low): no room below it")
        let handed = (0 ..< 32).compactMap { _ in SocketAddress.freePort() }
        #expect(handed.count == 32)
        #expect(handed.allSatisfy { (low / 2 ..< low).contains($0) }, "\(handed) against \(SocketAddress.ephemeralRange)")
        // Each is free: it can be bound.
        for port in handed.prefix(4) {
            let address = try #require(try SocketAddress.resolve(host: "127.0.0.1", port: port, passive: true).first)
            close(try Socket.listen(on: address))
        }
    }
}
