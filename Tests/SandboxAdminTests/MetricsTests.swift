@testable import CashoutSandbox
import Glibc
@testable import SandboxContract
@testable import SandboxBank
@testable import SandboxSupport
@testable import SandboxWire
import TestHelpers
import Testing
import FoundationEssentials

/// `GET /sandbox/metrics`: Prometheus text format 0.0.4 over HTTP. (`.ci/check-metrics` parses the
/// same output with the Python client's own parser.)
@Suite struct MetricsTests {
    static let buckets = ["0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "+Inf"]

    private func sandbox(token: String? = nil, webhookTimeout: Duration = .seconds(5)) throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.adminToken = token
        configuration.webhookTimeout = webhookTimeout
        return try Sandbox.launch(configuration)
    }

    private func get(_ sandbox: Sandbox, _ path: String, _ method: String = "GET", body: String = "") throws -> HTTPResponse {
        try TestHTTP.send(method: method, url: "\(sandbox.baseURL)\(path)", body: Array(body.utf8))
    }

    /// The exposition's sample lines as `name{labels}` to value.
    private func samples(_ sandbox: Sandbox) throws -> [String: String] {
        let text = try get(sandbox, "/sandbox/metrics").bodyText
        var samples: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let space = try #require(line.lastIndex(of: " "), "\(line)")  // label values may hold spaces, the value none
            samples[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        return samples
    }

    private func createCashout(_ sandbox: Sandbox, _ externalID: String, url: String) throws {
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"\#(externalID)","country":"BR","currency":"USD","#
                   + #""amount":"100.00","document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","#
                   + #""bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C","notification_url":"\#(url)"}"#
        let signature = Hex.lowercase(HMACSHA256.authenticationCode(for: Array(body.utf8), key: HMACSHA256.Key("sandbox_secret")))
        let response = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/v3/cashout", headers: ["Payload-Signature": signature],
                                         body: Array(body.utf8))
        #expect(response.status == 200, "\(response.bodyText)")
    }

    @Test func aFreshSandboxReportsEveryFamilyWithHelpAndType() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let response = try get(sandbox, "/sandbox/metrics")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
        // Nothing was answered before this scrape, so the HTTP families have no samples yet.
        #expect(response.bodyText == """
            # HELP cashout_sandbox_http_requests_total HTTP requests answered, by route pattern and status (status 0: closed without an answer).
            # TYPE cashout_sandbox_http_requests_total counter
            # HELP cashout_sandbox_http_request_duration_seconds Time from a whole request to its response, by route pattern.
            # TYPE cashout_sandbox_http_request_duration_seconds histogram
            # HELP cashout_sandbox_grpc_requests_total gRPC calls answered, by method and status code.
            # TYPE cashout_sandbox_grpc_requests_total counter
            # HELP cashout_sandbox_cashouts Cashouts by current status (a late return counts as REJECTED).
            # TYPE cashout_sandbox_cashouts gauge
            cashout_sandbox_cashouts{status="PENDING"} 0
            cashout_sandbox_cashouts{status="ON_HOLD"} 0
            cashout_sandbox_cashouts{status="DELIVERED"} 0
            cashout_sandbox_cashouts{status="COMPLETED"} 0
            cashout_sandbox_cashouts{status="REJECTED"} 0
            cashout_sandbox_cashouts{status="CANCELLED"} 0
            # HELP cashout_sandbox_webhook_attempts_total Webhook delivery attempts (retries and redeliveries included), by outcome.
            # TYPE cashout_sandbox_webhook_attempts_total counter
            cashout_sandbox_webhook_attempts_total{outcome="delivered"} 0
            cashout_sandbox_webhook_attempts_total{outcome="http_error"} 0
            cashout_sandbox_webhook_attempts_total{outcome="timeout"} 0
            cashout_sandbox_webhook_attempts_total{outcome="connection_error"} 0
            cashout_sandbox_webhook_attempts_total{outcome="not_sent"} 0
            # HELP cashout_sandbox_build_info The sandbox's version.
            # TYPE cashout_sandbox_build_info gauge
            cashout_sandbox_build_info{version="\(Sandbox.version)"} 1

            """)
        #expect(try get(sandbox, "/sandbox/metrics", "HEAD").status == 200)
    }

    @Test func requestsAreCountedByRoutePatternAndStatus() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        for _ in 0 ..< 3 { _ = try get(sandbox, "/sandbox/health") }
        _ = try get(sandbox, "/sandbox/cashouts/1000001")
        _ = try get(sandbox, "/sandbox/cashouts/42")
        _ = try get(sandbox, "/no/such/path")
        _ = try get(sandbox, "/sandbox/clock", "DELETE")
        _ = try get(sandbox, "/v3/cashout", "POST", body: "{")
        let first = try samples(sandbox)
        #expect(first[#"cashout_sandbox_http_requests_total{route="GET /sandbox/health",status="200"}"#] == "3")
        #expect(first[#"cashout_sandbox_http_requests_total{route="GET /sandbox/cashouts/{id}",status="404"}"#] == "2")
        #expect(first[#"cashout_sandbox_http_requests_total{route="unmatched",status="404"}"#] == "1")
        #expect(first[#"cashout_sandbox_http_requests_total{route="unmatched",status="405"}"#] == "1")
        #expect(first[#"cashout_sandbox_http_requests_total{route="POST /v3/cashout",status="400"}"#] == "1")
        #expect(first[#"cashout_sandbox_http_requests_total{route="GET /sandbox/metrics",status="200"}"#] == nil)
        // A later scrape counts the earlier one, and the counters only grow.
        _ = try get(sandbox, "/sandbox/health")
        let second = try samples(sandbox)
        #expect(second[#"cashout_sandbox_http_requests_total{route="GET /sandbox/health",status="200"}"#] == "4")
        #expect(second[#"cashout_sandbox_http_requests_total{route="GET /sandbox/metrics",status="200"}"#] == "1")
        for (name, value) in first where name.hasPrefix("cashout_sandbox_http_requests_total") {
            #expect(Int(second[name] ?? "") ?? -1 >= Int(value) ?? 0, "\(name)")
        }
    }

    @Test func aRequestTheParserRefusesCountsAsUnmatched() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let port = try #require(sandbox.baseURL.port)
        let answer = try Listener.exchange(port: port, "GET /sandbox/health HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 400 "))
        #expect(try samples(sandbox)[#"cashout_sandbox_http_requests_total{route="unmatched",status="400"}"#] == "1")
    }

    @Test func theHistogramsBucketsAreCumulativeAndInfEqualsCount() throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        for _ in 0 ..< 5 { _ = try get(sandbox, "/sandbox/clock") }
        _ = try get(sandbox, "/sandbox/clock/advance", "POST", body: #"{"by":"1m"}"#)
        let text = try get(sandbox, "/sandbox/metrics").bodyText
        let lines = text.split(separator: "\n").map(String.init)
        for route in ["GET /sandbox/clock", "POST /sandbox/clock/advance"] {
            let prefix = #"cashout_sandbox_http_request_duration_seconds_bucket{route="\#(route)",le=""#
            let bucketLines = lines.filter { $0.hasPrefix(prefix) }
            #expect(bucketLines.map { $0.dropFirst(prefix.count).prefix { $0 != "\"" } }.map(String.init) == Self.buckets)
            let counts = bucketLines.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
            #expect(counts == counts.sorted(), "\(route): not cumulative: \(counts)")
            let count = lines.first { $0.hasPrefix(#"cashout_sandbox_http_request_duration_seconds_count{route="\#(route)"}"#) }
            #expect(count?.split(separator: " ").last.map(String.init) == counts.last.map(String.init))
            #expect(counts.last == (route == "GET /sandbox/clock" ? 5 : 1))
            let sum = lines.first { $0.hasPrefix(#"cashout_sandbox_http_request_duration_seconds_sum{route="\#(route)"}"#) }
            let seconds = try #require(sum?.split(separator: " ").last.flatMap { Double($0) })
            #expect(seconds > 0 && seconds < 5)
        }
    }

    @Test func cashoutsAreCountedByStatusAndWebhookAttemptsByOutcome() throws {
        // A port nobody listens on (refused) and one that accepts but never answers (timeout).
        let refused = try Listener(accepting: false)
        let silent = try Listener(accepting: true)
        defer { refused.close(); silent.close() }
        let sandbox = try sandbox(webhookTimeout: .milliseconds(300))
        defer { sandbox.stop() }
        let sink = "\(sandbox.baseURL)/sandbox/sink/orders"
        _ = try TestHTTP.send(method: "PUT", url: sink, body: Array(#"{"answers":[500]}"#.utf8))
        try createCashout(sandbox, "to-sink", url: sink)
        try createCashout(sandbox, "to-refused", url: "http://127.0.0.1:\(refused.port)/hook")
        try createCashout(sandbox, "to-silent", url: "http://127.0.0.1:\(silent.port)/hook")
        var metrics = try samples(sandbox)
        #expect(metrics[#"cashout_sandbox_cashouts{status="PENDING"}"#] == "3")

        // DELIVERED at 5 s, one notification each: the sink's scripted 500, refused, no answer in time.
        try advance(sandbox, by: "6s")
        metrics = try samples(sandbox)
        #expect(metrics[#"cashout_sandbox_cashouts{status="PENDING"}"#] == "0")
        #expect(metrics[#"cashout_sandbox_cashouts{status="DELIVERED"}"#] == "3")
        #expect(metrics[#"cashout_sandbox_webhook_attempts_total{outcome="delivered"}"#] == "0")
        #expect(metrics[#"cashout_sandbox_webhook_attempts_total{outcome="http_error"}"#] == "1")
        #expect(metrics[#"cashout_sandbox_webhook_attempts_total{outcome="connection_error"}"#] == "1")
        #expect(metrics[#"cashout_sandbox_webhook_attempts_total{outcome="timeout"}"#] == "1")

        // A fourth, held and then cancelled (two notifications to the sink, both taken), and the
        // first three COMPLETED at 15 s (one more each); no retry is due within the 4 minutes.
        try createCashout(sandbox, "held", url: sink)
        _ = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/cashouts/1000004/actions", body: Array(#"{"action":"hold"}"#.utf8))
        #expect(try samples(sandbox)[#"cashout_sandbox_cashouts{status="ON_HOLD"}"#] == "1")
        _ = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/cashouts/1000004/actions", body: Array(#"{"action":"cancel"}"#.utf8))
        try advance(sandbox, by: "4m")
        metrics = try samples(sandbox)
        #expect(metrics[#"cashout_sandbox_cashouts{status="COMPLETED"}"#] == "3")
        #expect(metrics[#"cashout_sandbox_cashouts{status="CANCELLED"}"#] == "1")
        #expect(metrics[#"cashout_sandbox_cashouts{status="ON_HOLD"}"#] == "0")
        #expect(metrics[#"cashout_sandbox_webhook_attempts_total{outcome="delivered"}"#] == "3")
        #expect(metrics[#"cashout_sandbox_webhook_attempts_total{outcome="http_error"}"#] == "1")
        #expect(metrics[#"cashout_sandbox_webhook_attempts_total{outcome="connection_error"}"#] == "2")
        #expect(metrics[#"cashout_sandbox_webhook_attempts_total{outcome="timeout"}"#] == "2")
        #expect(metrics[#"cashout_sandbox_webhook_attempts_total{outcome="not_sent"}"#] == "0")
        // The journal agrees: every attempt it lists was counted once.
        let journal = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/webhooks").body)
        #expect(journal["webhooks"]?.arrayValue?.reduce(0) { $0 + ($1["attempts"]?.arrayValue?.count ?? 0) } == 8)
    }

    private func advance(_ sandbox: Sandbox, by duration: String) throws {
        let response = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/clock/advance",
                                         body: Array(#"{"by":"\#(duration)"}"#.utf8))
        #expect(response.status == 200)
    }

    @Test func theMetricsAreBehindTheAdminToken() throws {
        let sandbox = try sandbox(token: "metrics-token")
        defer { sandbox.stop() }
        let refused = try get(sandbox, "/sandbox/metrics")
        #expect(refused.status == 401)
        #expect(refused.bodyText == #"{"code":401,"message":"\#(AdminToken.missing)"}"#)
        let answered = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/metrics",
                                         headers: ["Authorization": "Bearer metrics-token"])
        #expect(answered.status == 200)
        #expect(answered.bodyText.contains(#"cashout_sandbox_http_requests_total{route="GET /sandbox/metrics",status="401"} 1"#))
    }
}

/// A TCP port on 127.0.0.1: listening without ever accepting or answering (a receiver that hangs),
/// or closed again at once so that connecting to it is refused.
private final class Listener: Sendable {
    let fd: Int32
    let port: Int

    init(accepting: Bool) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0)
        #expect(listen(fd, 16) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        if accepting {
            self.fd = fd
        } else {
            Glibc.close(fd)
            self.fd = -1
        }
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Sends `request` as raw bytes to 127.0.0.1:`port` and returns what comes back until the server closes.
    static func exchange(port: Int, _ request: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        var timeout = timeval(tv_sec: Waiting.seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = Array(request.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[0 ..< n]
        }
        return String(decoding: received, as: UTF8.self)
    }
}
