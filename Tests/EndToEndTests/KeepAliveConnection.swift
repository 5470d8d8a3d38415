import Glibc
import TestHelpers

/// A blocking HTTP/1.1 client connection that stays open between requests, reading responses by
/// hand so that a response cut short is seen as such (a client library would hide it).
final class KeepAliveConnection {
    /// What came back for one request.
    enum Answer: Equatable {
        /// A whole response: status, whether it says `Connection: close`, body.
        case response(status: Int, closes: Bool, body: [UInt8])
        /// The connection ended before any byte of the response: the request was not answered.
        case closedBeforeResponse
        /// The connection ended, or went silent, part way through a response.
        case truncated(received: Int)
    }

    private let fd: Int32

    /// Connects to 127.0.0.1:`port`; nil with `errno` set when refused. A read waits up to
    /// ``Waiting/limit`` for the server's answer.
    init?(port: Int, timeoutSeconds: Int = Waiting.seconds) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            errno = code
            return nil
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends `request` and reads its response.
    func exchange(_ request: [UInt8]) -> Answer {
        var sent = 0
        while sent < request.count {
            let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            // The server closed first: nothing of a response can have come.
            guard n > 0 else { return .closedBeforeResponse }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if let answer = Self.complete(received) { return answer }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return received.isEmpty ? .closedBeforeResponse : .truncated(received: received.count) }
            received += buffer[0 ..< n]
        }
    }

    /// The response in `bytes` once all of it (head and `Content-Length` body) is there.
    private static func complete(_ bytes: [UInt8]) -> Answer? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.dropLast(3).first(where: { bytes[$0 ..< $0 + 4].elementsEqual(separator) }) else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased().split(separator: "\r\n")
        guard let statusLine = head.first, statusLine.hasPrefix("http/1.1 "),
              let status = Int(statusLine.dropFirst(9).prefix(3)) else { return .truncated(received: bytes.count) }
        let length = head.compactMap { $0.hasPrefix("content-length:") ? Int($0.dropFirst(15).trimmingPrefix(" ")) : nil }.first ?? 0
        guard bytes.count >= end + 4 + length else { return nil }
        return .response(status: status, closes: head.contains("connection: close"),
                         body: Array(bytes[(end + 4) ..< (end + 4 + length)]))
    }
}
