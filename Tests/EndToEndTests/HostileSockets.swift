import Foundation
import Glibc
import Synchronization
import TestHelpers

/// The sandbox binary served for ``HostileClientsTests``: on a manual clock, without a log, with
/// `--max-body`, under `prlimit` with a soft RLIMIT_NOFILE of 1024 (the hard one unchanged), so
/// that it must raise its own to hold a thousand clients. Its descriptors, VmRSS and limits are
/// read from `/proc`.
final class HostileServer {
    static let softNofile = 1024
    let binary: RunningBinary
    let port: Int

    init(maxBody: Int) throws {
        binary = try RunningBinary(["serve", "--host", "127.0.0.1", "--port", "0", "--clock", "manual", "--log-format", "off",
                                    "--max-body", String(maxBody)],
                                   under: ["/usr/bin/prlimit", "--nofile=\(Self.softNofile):", "--"])
        guard let url = binary.url, let port = url.split(separator: ":").last.flatMap({ Int($0) }) else {
            throw Unexpected("the server did not start: \(binary.stderr)")
        }
        self.port = port
    }

    /// Open descriptors (-1 when unreadable).
    var descriptors: Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(binary.pid)/fd").count) ?? -1 }

    /// VmRSS in KiB (-1 when unreadable).
    var residentKiB: Int { field(of: "status", line: "VmRSS:", index: 1) }

    /// The soft RLIMIT_NOFILE the server runs with now.
    var nofileLimit: Int { field(of: "limits", line: "Max open files", index: 3) }

    private func field(of file: String, line prefix: String, index: Int) -> Int {
        let text = RawSocket.procFile("/proc/\(binary.pid)/\(file)")
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return -1 }
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        return fields.count > index ? Int(fields[index]) ?? -1 : -1
    }

    /// Raises this process's soft RLIMIT_NOFILE to at least `count` (up to the hard limit): the
    /// attackers need descriptors too.
    static func raiseOwnNofile(to count: Int) {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(count))
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// Raw TCP client sockets to 127.0.0.1, for clients that behave as no client library would.
enum RawSocket {
    /// A connected socket (`TCP_NODELAY`, the buffer sizes given), blocking; -1 when refused.
    static func connect(port: Int, receiveBuffer: Int32? = nil, sendBuffer: Int32? = nil) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return -1 }
        for (option, size) in [(SO_RCVBUF, receiveBuffer), (SO_SNDBUF, sendBuffer)] {
            if var size { setsockopt(fd, SOL_SOCKET, option, &size, socklen_t(MemoryLayout<Int32>.size)) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return -1
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Sends all of `bytes` on a blocking socket; false once the peer is gone.
    @discardableResult
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// What one read brings within `milliseconds`: the bytes, `[]` when the peer closed (or
    /// reset: `reset` tells), nil when nothing came.
    static func receive(_ fd: Int32, waiting milliseconds: Int32, reset: inout Bool) -> [UInt8]? {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, milliseconds) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n < 0 && (errno == EAGAIN || errno == EINTR) { return nil }
        if n < 0 { reset = true }
        return n > 0 ? Array(buffer[0 ..< n]) : []
    }

    /// The local port of a connected socket.
    static func localPort(_ fd: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The kernel's queues of the TCP socket from 127.0.0.1:`local` to 127.0.0.1:`remote`, from
    /// `/proc/net/tcp`: bytes sent and not yet taken by the peer (`tx_queue`), bytes received and not
    /// yet read by the socket's owner (`rx_queue`); nil when there is no such socket.
    static func queues(local: Int, remote: Int) -> (sent: Int, unread: Int)? {
        let table = procFile("/proc/net/tcp")
        let addresses = (String(format: "0100007F:%04X", local), String(format: "0100007F:%04X", remote))
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 4, fields[1] == addresses.0, fields[2] == addresses.1 else { continue }
            let queues = fields[4].split(separator: ":")
            guard queues.count == 2, let sent = Int(queues[0], radix: 16), let unread = Int(queues[1], radix: 16) else { return nil }
            return (sent, unread)
        }
        return nil
    }

    /// A file of `/proc` read to its end (Foundation reads only the first page of one: its size says 0).
    static func procFile(_ path: String) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while case let n = buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }), n > 0 { bytes += buffer[0 ..< n] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Everything the peer sends until it closes, waiting up to `limit` (a hang) for the close.
    static func readUntilClose(_ fd: Int32, limit: Duration = Waiting.limit) -> (data: [UInt8], closed: Bool, reset: Bool) {
        let deadline = ContinuousClock.now + limit
        var data: [UInt8] = []
        var reset = false
        while ContinuousClock.now < deadline {
            guard let chunk = receive(fd, waiting: 50, reset: &reset) else { continue }
            if chunk.isEmpty { return (data, true, reset) }
            data += chunk
        }
        return (data, false, false)
    }
}

/// HTTP/1.1 responses read from a stream of bytes, whole ones only (the server always sends a
/// `Content-Length`): their statuses, in order, and whether the bytes were not HTTP at all.
struct ResponseStream {
    private(set) var statuses: [Int] = []
    private(set) var garbage = false
    private var buffer: [UInt8] = []
    private var start = 0

    init(_ bytes: [UInt8] = []) {
        append(bytes)
    }

    /// Bytes after the last whole response.
    var partial: Bool { !garbage && start < buffer.count }

    /// What the bytes said, as the report words it: each status, then `partial` or `garbage`.
    var summary: [String] { statuses.map(String.init) + (garbage ? ["garbage"] : partial ? ["partial"] : []) }

    mutating func append(_ bytes: [UInt8]) {
        guard !garbage else { return }
        buffer += bytes
        while start < buffer.count {
            let headEnd: Int? = buffer.withUnsafeBytes { all in
                let base = all.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var index = start
                while index + 3 < all.count {
                    guard let found = memchr(base + index, 13, all.count - index - 3) else { return nil }
                    let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if base[at + 1] == 10 && base[at + 2] == 13 && base[at + 3] == 10 { return at }
                    index = at + 1
                }
                return nil
            }
            guard let end = headEnd else { break }
            let head = String(decoding: buffer[start ..< end], as: UTF8.self).lowercased().split(separator: "\r\n")
            guard let line = head.first, line.hasPrefix("http/1."), line.count >= 12, let status = Int(line.dropFirst(9).prefix(3)) else {
                garbage = true
                return
            }
            let length = head.compactMap { $0.hasPrefix("content-length:") ? Int($0.dropFirst(15).trimmingPrefix(" ")) : nil }.first ?? 0
            guard buffer.count >= end + 4 + length else { break }
            statuses.append(status)
            start = end + 4 + length
        }
        if start > 1 << 20 {
            buffer.removeFirst(start)
            start = 0
        }
    }
}

extension [UInt8] {
    /// The status of the response these bytes start with, if they start with one.
    var firstStatus: Int? {
        let text = String(decoding: prefix(12), as: UTF8.self)
        guard text.hasPrefix("HTTP/1.0 ") || text.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(text.dropFirst(9).prefix(3))
    }
}

/// Runs `body` on a thread of its own; `done` is signalled when it returns.
func detached(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    return done
}
