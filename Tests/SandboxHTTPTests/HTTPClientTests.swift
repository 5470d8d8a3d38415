import Foundation
import Glibc
import TestHelpers
import Testing
@testable import SandboxWire

@Suite struct HTTPClientTests {
    @Test func postsToOurOwnServerOverIPv4IPv6AndAHostName() throws {
        let server = try startTestServer { $0.host = "localhost" }
        defer { server.stop() }
        for host in ["127.0.0.1", "[::1]", "localhost"] {
            let response = try TestHTTP.send(method: "POST", url: "http://\(host):\(server.port)/echo",
                                             headers: ["Content-Type": "text/plain"], body: Array("ping \(host)".utf8))
            #expect(response.status == 200)
            #expect(response.bodyText == "ping \(host)")
            #expect(response.headers["X-Method"] == "POST")
        }
    }

    @Test func getsFromOurServerWithQueryAndReadsErrors() throws {
        let server = try startTestServer()
        defer { server.stop() }
        let ok = try TestHTTP.send(method: "GET", url: "http://127.0.0.1:\(server.port)/query?a=1")
        #expect(ok.bodyText == #"{"a":"1"}"#)
        let missing = try TestHTTP.send(method: "GET", url: "http://127.0.0.1:\(server.port)?x")
        #expect(missing.status == 404)
    }

    @Test(.enabled(if: PythonPeer.available))
    func talksToPythonHTTPServerPeers() throws {
        let peer = try PythonPeer()
        defer { peer.stop() }
        // HTTP/1.0 answer without Content-Length: the body ends when the peer closes.
        let form = try TestHTTP.send(method: "POST", url: "http://127.0.0.1:\(peer.port)/hook",
                                     headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                     body: Array("a=1&b=x+y".utf8))
        #expect(form.status == 200)
        #expect(form.bodyText == "POST /hook application/x-www-form-urlencoded a=1&b=x+y")
        // HTTP/1.1 chunked answer.
        let chunked = try TestHTTP.send(method: "POST", url: "http://localhost:\(peer.port)/chunked", body: Array("z".utf8))
        #expect(chunked.status == 201)
        #expect(chunked.bodyText == "chunked reply")
        let failing = try TestHTTP.send(method: "POST", url: "http://127.0.0.1:\(peer.port)/fail", body: [])
        #expect(failing.status == 503)
    }

    /// The timeout's own bound is the test's time limit: a client that ignored it would wait for ever.
    @Test(.timeLimit(.minutes(Waiting.testMinutes)))
    func aPeerThatNeverAnswersTimesOut() throws {
        // A listening socket nobody accepts from: the kernel completes the handshake, then silence.
        let listener = try Socket.listen(on: SocketAddress(host: "127.0.0.1", port: 0, isIPv6: false))
        defer { close(listener) }
        let port = try #require(SocketAddress.local(of: listener)).port
        let started = monotonicSeconds()
        #expect(throws: HTTPClientError.timedOut) {
            try HTTPClient.send(method: "POST", url: "http://127.0.0.1:\(port)/", timeout: .milliseconds(300))
        }
        #expect(monotonicSeconds() - started >= 0.29)
    }

    @Test func aRefusedConnectionIsReported() throws {
        // A socket bound but not listening: a connection to its port is refused, and while it stays
        // bound no other socket takes the port (a closed listener's port may be taken at once).
        let bound = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(bound) }
        #expect(SocketAddress(host: "127.0.0.1", port: 0, isIPv6: false).withSockAddr { bind(bound, $0, $1) } == 0)
        let port = try #require(SocketAddress.local(of: bound)).port
        #expect {
            try TestHTTP.send(method: "POST", url: "http://127.0.0.1:\(port)/")
        } throws: { error in
            guard case HTTPClientError.refused(let why) = error else { return false }
            return why.contains("Connection refused") && "\(error)".hasPrefix("connection failed: ")
        }
    }

    @Test func headerValuesWithLineBreaksAreRefused() {
        #expect(throws: HTTPClientError.invalidHeader("X-A")) {
            try TestHTTP.send(method: "POST", url: "http://127.0.0.1:9/", headers: ["X-A": "1\r\nX-B: 2"])
        }
        #expect(throws: HTTPClientError.invalidHeader("Bad Name")) {
            try TestHTTP.send(method: "POST", url: "http://127.0.0.1:9/", headers: ["Bad Name": "1"])
        }
    }

    @Test(arguments: ["https://x/", "ftp://x", "http://", "http://:80/", "http://x:0/", "http://x:99999/", "http://[::1/", "http://u@x/",
                      "http://x/a b", "http://x/a\r\nHost: y"])
    func invalidURLsAreRefused(url: String) {
        #expect(throws: HTTPClientError.invalidURL(url)) { try TestHTTP.send(method: "GET", url: url) }
    }

    @Test func urlPartsAreSplitForTheRequestLineAndHostHeader() throws {
        let v6 = try URLParts("http://[::1]:8080/a/b?c=d")
        #expect((v6.host, v6.port, v6.pathAndQuery, v6.authority) == ("::1", 8080, "/a/b?c=d", "[::1]:8080"))
        let bare = try URLParts("http://example.com?q")
        #expect((bare.host, bare.port, bare.pathAndQuery) == ("example.com", 80, "/?q"))
    }
}

/// A Python `http.server` peer on a free port: HTTP/1.0 answers by default, one chunked answer.
struct PythonPeer {
    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") || which("python3") != nil }

    private static func which(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static let script = #"""
    import http.server, sys
    class H(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a): pass
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if self.path == "/chunked":
                self.protocol_version = "HTTP/1.1"
                self.send_response(201); self.send_header("Transfer-Encoding", "chunked")
                self.send_header("Connection", "close"); self.end_headers()
                for part in (b"chunked", b" reply"):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                self.wfile.write(b"0\r\n\r\n")
                return
            self.send_response(503 if self.path == "/fail" else 200); self.end_headers()
            self.wfile.write(b"POST %s %s %s" % (self.path.encode(), self.headers.get("Content-Type", "-").encode(), body))
    server = http.server.HTTPServer(("127.0.0.1", 0), H)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#

    let process = Process()
    let port: Int

    init() throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script]
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line += byte
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else { throw SocketError("python peer did not start") }
        self.port = port
    }

    func stop() {
        // SIGKILL: the test runner may hand its children an ignored SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
