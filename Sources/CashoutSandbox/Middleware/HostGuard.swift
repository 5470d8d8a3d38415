package import SandboxWire

/// Refuses requests addressed to a host name that is not this machine's own, while the sandbox
/// listens on loopback only: the defence against DNS rebinding. A page on `evil.example` that a
/// developer opens can make its own name resolve to 127.0.0.1 and then read
/// `http://evil.example:8080/sandbox/merchants` (every secret) as a same-origin request; the
/// browser still sends `Host: evil.example:8080`, which no local client sends. Dev servers guard
/// the same way (Vite's and webpack-dev-server's `allowedHosts`).
///
/// Loopback names pass, with or without a port: `localhost`, `*.localhost`, `127.0.0.0/8` and
/// `[::1]`; so do the names allowed with `--allowed-host` (`.example.com` allows its subdomains
/// too, `*` any name) and requests without a `Host` (HTTP/1.0). Anything else gets 403.
public struct HostGuard: Sendable {
    /// The names allowed besides loopback ones, lowercased.
    private let allowed: [String]

    /// The option and environment variable that allow more names (the answer names them).
    public static let option = "--allowed-host"
    /// The environment variable that allows more names, comma-separated, as ``option`` does.
    public static let variable = "CASHOUT_SANDBOX_ALLOWED_HOSTS"

    init(allowed: [String]) {
        self.allowed = allowed.map { $0.lowercased() }
    }

    package func check(_ request: HTTPRequest, _ context: RequestContext, next: HTTPHandler) -> HTTPResponse {
        guard let host = request.headers["Host"], !isAllowed(host) else { return next(request) }
        let name = Self.name(of: host)
        return Router.error(403, "Host \(host) is not allowed: this sandbox listens on loopback and answers only requests "
            + "addressed to localhost, *.localhost, 127.0.0.0/8 or [::1], against DNS rebinding; to allow this name, start it "
            + "with \(Self.option) \(name.isEmpty ? "NAME" : name) (or \(Self.variable)=\(name.isEmpty ? "NAME" : name))")
    }

    func isAllowed(_ host: String) -> Bool {
        if Self.isUsualLoopback(host) { return true }
        let name = Self.name(of: host)
        if Self.isLoopback(name) { return true }
        return allowed.contains { $0 == "*" || $0 == name || ($0.hasPrefix(".") && (name.hasSuffix($0) || "." + name == $0)) }
    }

    /// The host name of a `Host` header, lowercased, without its port and a final dot; an IPv6
    /// address keeps its brackets. A header with anything but `:digits` after the name is
    /// returned whole (lowercased): it names no host this guard allows.
    package static func name(of host: String) -> String {
        let whole = host.lowercased()
        var (name, port) = (Substring(whole), Substring(""))
        if name.hasPrefix("["), let close = name.firstIndex(of: "]") {
            (name, port) = (name[...close], name[name.index(after: close)...])
        } else if let colon = name.lastIndex(of: ":") {
            (name, port) = (name[..<colon], name[colon...])
        }
        guard port.isEmpty || (port.count > 1 && port.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }) else { return whole }
        if name.hasSuffix(".") { name = name.dropLast() }
        return String(name)
    }

    /// `127.0.0.1` or `localhost`, with or without a port: what nearly every request names, known
    /// without taking the header apart.
    static func isUsualLoopback(_ host: String) -> Bool {
        host.utf8.inPlace { host in  // bytes where they lie: this runs for every request
            for name in usualNames where host.starts(with: name) {
                let port = host[name.count...]
                return port.isEmpty
                    || (port.first == UInt8(ascii: ":") && port.count > 1 && port.dropFirst().allSatisfy { (0x30 ... 0x39).contains($0) })
            }
            return false
        }
    }

    private static let usualNames = [Array("127.0.0.1".utf8), Array("localhost".utf8)]

    static func isLoopback(_ name: String) -> Bool {
        if name == "localhost" || name.hasSuffix(".localhost") || name == "[::1]" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127"
            && octets.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }
    }
}
