import CSystem
import Glibc
import Synchronization

/// An IPv4 or IPv6 address and port, as bound or connected.
package struct SocketAddress: Sendable, Equatable, CustomStringConvertible {
    /// The numeric host, e.g. `127.0.0.1` or `::1`.
    package let host: String
    /// The port.
    package let port: Int
    /// Whether this is an IPv6 address.
    package let isIPv6: Bool

    /// `127.0.0.1:8080` or `[::1]:8080`: the authority part of a URL.
    package var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Resolves `host` (a numeric address or a name) to addresses for `port`, IPv4 first.
    /// `localhost` is both loopbacks, `127.0.0.1` and `::1`, whatever `/etc/hosts` says.
    package static func resolve(host: String, port: Int, passive: Bool = false) throws(SocketError) -> [SocketAddress] {
        if host == "localhost" {
            return [SocketAddress(host: "127.0.0.1", port: port, isIPv6: false),
                    SocketAddress(host: "::1", port: port, isIPv6: true)]
        }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = csock_stream
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let status = getaddrinfo(bare, String(port), &hints, &list)
        guard status == 0, let list else {
            throw SocketError(operation: "resolve \(host)", message: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var found: [SocketAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = list
        while let info = cursor {
            if let address = SocketAddress(info.pointee.ai_addr), !found.contains(address) { found.append(address) }
            cursor = info.pointee.ai_next
        }
        return found.sorted { !$0.isIPv6 && $1.isIPv6 }
    }

    init(host: String, port: Int, isIPv6: Bool) {
        self.host = host
        self.port = port
        self.isIPv6 = isIPv6
    }

    /// Reads a `sockaddr_in` or `sockaddr_in6`.
    init?(_ raw: UnsafePointer<sockaddr>?) {
        guard let raw else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(raw.pointee.sa_family) {
        case AF_INET:
            var v4 = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
            inet_ntop(AF_INET, &v4.sin_addr, &text, socklen_t(text.count))
            self.init(host: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                      port: Int(UInt16(bigEndian: v4.sin_port)), isIPv6: false)
        case AF_INET6:
            var v6 = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }
            inet_ntop(AF_INET6, &v6.sin6_addr, &text, socklen_t(text.count))
            let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // An IPv4 client of a dual-stack (`::`) socket arrives as ::ffff:a.b.c.d: show it as IPv4.
            if host.hasPrefix("::ffff:"), host.contains(".") {
                self.init(host: String(host.dropFirst(7)), port: Int(UInt16(bigEndian: v6.sin6_port)), isIPv6: false)
            } else {
                self.init(host: host, port: Int(UInt16(bigEndian: v6.sin6_port)), isIPv6: true)
            }
        default:
            return nil
        }
    }

    /// Calls `body` with this address as a `sockaddr`.
    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        if isIPv6 {
            var v6 = sockaddr_in6()
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &v6.sin6_addr)
            return withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        var v4 = sockaddr_in()
        v4.sin_family = sa_family_t(AF_INET)
        v4.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, host, &v4.sin_addr)
        return withUnsafePointer(to: &v4) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// A TCP port on `host` that no socket listens on now (one bound and closed at once); nil when
    /// none can be bound. It is drawn below the system's ephemeral range (`ip_local_port_range`),
    /// which the system never gives the local end of an outgoing connection: the many connections
    /// of apps and deliveries running meanwhile (`explore --jobs`) cannot take it before its user
    /// binds it. Another process may still bind it first: the usual risk of a port handed out
    /// (Heroku's `$PORT`); no listener of this process asking for any port takes it
    /// (`Socket.handedOut`). Without room below the range, the system picks one (port 0).
    package static func freePort(on host: String = "127.0.0.1") -> Int? {
        let low = ephemeralRange.lowerBound
        if low > 4096 {
            for _ in 0 ..< 64 {
                let port = Int.random(in: low / 2 ..< low)
                guard !Socket.handedOut.withLock({ $0.contains(port) }),
                      let address = try? resolve(host: host, port: port, passive: true).first,
                      let fd = try? Socket.listen(on: address, backlog: 1) else { continue }
                close(fd)
                return handOut(port)
            }
        }
        guard let address = try? resolve(host: host, port: 0, passive: true).first,
              let fd = try? Socket.listen(on: address, backlog: 1) else { return nil }
        defer { close(fd) }
        return local(of: fd).map { handOut($0.port) }
    }

    /// Remembers `port` as handed out (`Socket.handedOut`, the last 64).
    private static func handOut(_ port: Int) -> Int {
        Socket.handedOut.withLock { ports in
            ports.append(port)
            if ports.count > 64 { ports.removeFirst() }
        }
        return port
    }

    /// The ports the system gives the local ends of outgoing connections (`/proc/sys/net/ipv4/ip_local_port_range`;
    /// Linux's default when it cannot be read).
    static let ephemeralRange: ClosedRange<Int> = {
        let fd = open("/proc/sys/net/ipv4/ip_local_port_range", O_RDONLY)
        guard fd >= 0 else { return 32768 ... 60999 }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(fd, &bytes, bytes.count)
        let numbers = String(decoding: bytes.prefix(max(0, count)), as: UTF8.self).split { $0 == " " || $0 == "\t" || $0 == "\n" }
            .compactMap { Int($0) }
        guard numbers.count == 2, numbers[0] <= numbers[1] else { return 32768 ... 60999 }
        return numbers[0] ... numbers[1]
    }()

    /// The local address a socket is bound to.
    static func local(of fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(fd, $0, &length) == 0 ? SocketAddress($0) : nil
            }
        }
    }
}

/// A failed socket call, with the system's explanation.
package struct SocketError: Error, Sendable, CustomStringConvertible {
    /// What was attempted, e.g. `bind 127.0.0.1:8080`.
    let operation: String
    /// The system's message, e.g. `Address already in use`.
    package let message: String
    /// The errno value, when there was one.
    package var code: Int32 = 0

    init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    /// An error from the current `errno`.
    init(_ operation: String, errno code: Int32 = errno) {
        self.operation = operation
        self.message = String(cString: strerror(code))
        self.code = code
    }

    package var description: String { "\(operation): \(message)" }
}
