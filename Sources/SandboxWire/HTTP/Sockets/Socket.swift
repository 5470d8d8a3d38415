import CSystem
import Glibc
import Synchronization
import SandboxSupport

/// Small wrappers over the socket calls the server and client make.
enum Socket {
    /// A non-blocking listening socket. SO_REUSEADDR only (restarts while old connections sit in
    /// TIME_WAIT); never SO_REUSEPORT, so a port in use by anyone is refused. Asked for any port
    /// (0), it never takes one `SocketAddress.freePort` handed out lately (`handedOut`).
    static func listen(on address: SocketAddress, backlog: Int32 = 4096) throws(SocketError) -> Int32 {
        guard address.port == 0 else { return try listenOnce(on: address, backlog: backlog) }
        var passedOver: [Int32] = []  // kept open while trying, so the system picks another
        defer { passedOver.forEach { close($0) } }
        while true {
            let fd = try listenOnce(on: address, backlog: backlog)
            guard passedOver.count < 16, let port = SocketAddress.local(of: fd)?.port, handedOut.withLock({ $0.contains(port) }) else {
                return fd
            }
            passedOver.append(fd)
        }
    }

    /// The ports `SocketAddress.freePort` handed out lately, the last 64: free until their user
    /// (an app told `CASHOUT_SANDBOX_APP_PORT`) listens, and not to be taken meanwhile by a
    /// sandbox of the same process starting (`explore --jobs`).
    static let handedOut = Mutex<[Int]>([])

    private static func listenOnce(on address: SocketAddress, backlog: Int32) throws(SocketError) -> Int32 {
        let fd = socket(address.isIPv6 ? AF_INET6 : AF_INET, csock_stream | csock_nonblock | csock_cloexec, 0)
        guard fd >= 0 else { throw SocketError("socket") }
        setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        // `::` means both families; a specific IPv6 address only itself.
        if address.isIPv6 { setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, address.host == "::" ? 0 : 1) }
        let bound = address.withSockAddr { bind(fd, $0, $1) }
        guard bound == 0 else {
            let error = SocketError("bind \(address)")
            close(fd)
            throw error
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let error = SocketError("listen \(address)")
            close(fd)
            throw error
        }
        return fd
    }

    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var value = value
        setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    static func setNoDelay(_ fd: Int32) {
        setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
    }

    /// Monotonic milliseconds, for deadlines.
    static func monotonicMilliseconds() -> Int64 {
        SystemClock.monotonicNanoseconds() / 1_000_000
    }

    /// Monotonic nanoseconds, for request durations.
    static func monotonicNanoseconds() -> Int64 {
        SystemClock.monotonicNanoseconds()
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so a tiny positive duration never becomes zero.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }
}
