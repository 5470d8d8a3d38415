import CSystem
import Glibc

/// A small blocking HTTP/1.1 client for webhook deliveries: one request per connection, a
/// deadline over the whole exchange, responses read with the server's own ``HTTPParser``.
///
/// ```swift
/// let response = try HTTPClient.send(method: "POST", url: "http://127.0.0.1:9000/hook",
///                                    headers: ["Content-Type": "application/x-www-form-urlencoded"],
///                                    body: Array("a=1".utf8), timeout: .seconds(5))
/// response.status  // 200
/// ```
package enum HTTPClient {
    /// The `User-Agent` it sends unless told another: what tells the sandbox's own requests (a
    /// suite's steps, its notifications) from the app's.
    package static let userAgent = "cashout-sandbox"

    /// Sends one request and waits for the response, at most `timeout` in all (connect included).
    /// `Host` is the URL's authority unless `headers` has one.
    /// Call it off the event-loop threads: it blocks.
    package static func send(method: String, url: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
                            timeout: Duration = .seconds(5), limits: HTTPLimits = HTTPLimits()) throws(HTTPClientError) -> HTTPResponse {
        let target = try URLParts(url)
        for field in headers where !field.name.utf8.allSatisfy(\.isTokenByte) || field.name.isEmpty
            || field.value.utf8.contains(where: { $0 == .cr || $0 == .lf || $0 == 0 }) {
            throw .invalidHeader(field.name)
        }
        let deadline = Socket.monotonicMilliseconds() + timeout.milliseconds
        let addresses: [SocketAddress]
        do { addresses = try SocketAddress.resolve(host: target.host, port: target.port) }
        catch { throw .cannotResolve(target.host) }
        let fd = try connect(to: addresses, deadline: deadline)
        defer { close(fd) }

        var message = Array("\(method) \(target.pathAndQuery) HTTP/1.1\r\n".utf8)
        if headers["Host"] == nil { message += "Host: \(target.authority)\r\n".utf8 }  // a given Host wins (a proxy's name)
        if headers["User-Agent"] == nil { message += "User-Agent: \(Self.userAgent)\r\n".utf8 }
        if !body.isEmpty || method == "POST" || method == "PUT" { message += "Content-Length: \(body.count)\r\n".utf8 }
        message += "Connection: close\r\n".utf8
        for field in headers { message += "\(field.name): \(field.value)\r\n".utf8 }
        message += "\r\n".utf8
        message += body
        try write(message, to: fd, deadline: deadline)
        return try readResponse(from: fd, method: method, limits: limits, deadline: deadline)
    }

    private static func connect(to addresses: [SocketAddress], deadline: Int64) throws(HTTPClientError) -> Int32 {
        var lastError = HTTPClientError.connectionFailed("no address")
        for address in addresses {
            let fd = socket(address.isIPv6 ? AF_INET6 : AF_INET, csock_stream | csock_nonblock | csock_cloexec, 0)
            guard fd >= 0 else { continue }
            let result = address.withSockAddr { Glibc.connect(fd, $0, $1) }
            if result == 0 || errno == EINPROGRESS {
                do {
                    try wait(fd, for: Int16(POLLOUT), deadline: deadline)
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 {
                        Socket.setNoDelay(fd)
                        return fd
                    }
                    let why = "\(address): \(SocketError("connect", errno: error).message)"
                    lastError = error == ECONNREFUSED ? .refused(why) : .connectionFailed(why)
                } catch {
                    close(fd)
                    throw error
                }
            } else {
                let refused = errno == ECONNREFUSED
                let why = "\(address): \(SocketError("connect").message)"
                lastError = refused ? .refused(why) : .connectionFailed(why)
            }
            close(fd)
        }
        throw lastError
    }

    private static func write(_ bytes: [UInt8], to fd: Int32, deadline: Int64) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                offset += n
            } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
                try wait(fd, for: Int16(POLLOUT), deadline: deadline)
            } else {
                throw .connectionFailed("send: \(SocketError("send").message)")
            }
        }
    }

    private static func readResponse(from fd: Int32, method: String, limits: HTTPLimits,
                                     deadline: Int64) throws(HTTPClientError) -> HTTPResponse {
        var parser = HTTPParser(mode: .response, limits: limits)
        parser.requestMethod = method
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            do {
                if n > 0 {
                    parser.append(buffer[0 ..< n])
                    if case .response(let response)? = try parser.next() { return response }
                } else if n == 0 {
                    if case .response(let response)? = try parser.finish() { return response }
                    throw HTTPClientError.malformedResponse("connection closed before a response")
                } else if errno == EAGAIN || errno == EINTR {
                    try wait(fd, for: Int16(POLLIN), deadline: deadline)
                } else {
                    throw HTTPClientError.connectionFailed("recv: \(SocketError("recv").message)")
                }
            } catch let error as HTTPParseError {
                throw .malformedResponse(error.description)
            } catch let error as HTTPClientError {
                throw error
            } catch {
                throw .malformedResponse("\(error)")
            }
        }
    }

    private static func wait(_ fd: Int32, for events: Int16, deadline: Int64) throws(HTTPClientError) {
        while true {
            let remaining = deadline - Socket.monotonicMilliseconds()
            guard remaining > 0 else { throw .timedOut }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(clamping: remaining))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw .connectionFailed("poll: \(SocketError("poll").message)") }
        }
    }
}

/// Why a client request failed.
package enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not `http://host[:port]/path`.
    case invalidURL(String)
    /// A header name is not a token, or a value holds CR, LF or NUL.
    case invalidHeader(String)
    /// The host name did not resolve.
    case cannotResolve(String)
    /// No address accepted the connection (unreachable), or it broke.
    case connectionFailed(String)
    /// Nothing listens there: each address refused the connection (the last one's error is told).
    case refused(String)
    /// The deadline passed before the whole response arrived.
    case timedOut
    /// The peer's answer was not valid HTTP/1.x.
    case malformedResponse(String)

    package var description: String {
        switch self {
        case .invalidURL(let url): "invalid URL: \(url)"
        case .invalidHeader(let name): "invalid header: \(name)"
        case .cannotResolve(let host): "cannot resolve host \(host)"
        case .connectionFailed(let why), .refused(let why): "connection failed: \(why)"
        case .timedOut: "timed out"
        case .malformedResponse(let why): "malformed response: \(why)"
        }
    }
}

/// The pieces of an `http://` URL the client needs.
struct URLParts {
    var host: String
    var port: Int
    var pathAndQuery: String
    /// `host:port` as the `Host` header wants it (brackets around IPv6).
    var authority: String

    init(_ url: String) throws(HTTPClientError) {
        guard url.lowercased().hasPrefix("http://"), url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidURL(url)
        }
        let rest = url.dropFirst(7)
        let slash = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<slash]
        var path = String(rest[slash...])
        if path.hasPrefix("?") { path = "/" + path }
        pathAndQuery = path.isEmpty ? "/" : path
        self.authority = String(authority)
        var hostPart = Substring(authority)
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL(url) }
            hostPart = authority[authority.index(after: authority.startIndex) ..< close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidURL(url) }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty, !hostPart.contains("@") else { throw .invalidURL(url) }
        host = String(hostPart)
        if let portText {
            guard let value = Int(portText), (1 ... 65535).contains(value) else { throw .invalidURL(url) }
            port = value
        } else {
            port = 80
        }
    }
}
