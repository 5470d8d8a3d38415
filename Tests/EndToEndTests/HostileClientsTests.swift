import Foundation
import Glibc
import TestHelpers
import Testing

/// Hostile clients against the built binary, from raw sockets: the limits of the Behaviour and
/// choices guide, "HTTP behaviour you can rely on" (413 over `--max-body`, 408 for a head not
/// complete 10 s after its first byte) and the PayoutService guide, "HTTP/2 limits".
///
/// Each test serves `serve --clock manual --log-format off --max-body 1 MiB` under `prlimit` with a
/// soft RLIMIT_NOFILE of 1024, so that holding a thousand clients needs the server to raise its
/// own limit, and ends by checking that the server's descriptors are back to where they started,
/// its VmRSS stayed under 256 MB, a health check answers 200, and SIGTERM exits 0.
///
/// No verdict depends on how fast the machine is. Where a latency bound stood ("the normal
/// client's median within 5 times its quiet value", "its p99 within 50 ms"), the test now holds
/// the attack open for the whole of the normal client's requests, checks that the attack is
/// really running while they are made (the attackers are connected and unanswered, the flood is
/// still sending between one request and the next), and requires every request answered 200:
/// a server that an attack stalls answers none of them before ``Waiting/limit``, and the test
/// fails. A slower server fails nothing. What does not depend on speed keeps its bound: the
/// bytes a client could send before a 413, the VmRSS an HTTP/2 attack may add (64 MB), the
/// 10-second header timeout's lower side (the 408 comes no earlier than 9.5 s after the first
/// byte, measured by the client, which sent that byte before the server received it), and the
/// rule that each slow-header client is cut off before it could finish its head.
///
/// 1. Held together: 1,000 idle connections, 50 slow-header clients (a byte every 200 ms, each
///    answered 408 about 10 s after its first byte, then closed), 5 garbage clients (an error or
///    a close), 5 half-closed sockets (closed without a timeout's 408, answering only the whole
///    requests before the half-close), and a non-reader pipelining some 40,000 requests, which the server stops
///    reading while their answers wait; every connection accepted;
///    the normal client's requests all 200 among them; the non-reader then gets all its
///    answers, all 200, while the normal client's requests made as it reads are all 200 too.
/// 2. Bodies: a declared `max-body + 1` refused with 413 on its head alone; a chunked body of
///    exactly `max-body` not answered, one byte more 413; 100 MB bodies, declared and chunked,
///    refused with 413 after at most 1 MiB (declared) or `max-body + 2 MiB` (chunked: the
///    sockets' buffers) of body taken, the connection ended after at most `max-body + 4 MiB`.
/// 3. Seeded random bytes on 200 connections: each answered with errors only (or a 200 for a
///    whole request before the noise) and closed, none hanging.
/// 4. HTTP/2 attacks one after the other: rapid reset, CONTINUATION flood, a zero-window reader,
///    a wide-window non-reader, PING/SETTINGS flood. Beside each, the normal HTTP/2 client's
///    requests are all 200; each flood is closed with ENHANCE_YOUR_CALM and no other GOAWAY code;
///    VmRSS grows by at most 64 MB during an attack.
@Suite struct HostileClientsTests {
    static let maxBody = 1 << 20
    static let requests = 200
    static let idle = 1000
    static let slow = 50
    /// Requests the non-reader pipelines: 40,000, or more where the kernel's send buffers may be
    /// larger, so that their answers (some 200 bytes each) are half as much again as all that can
    /// hold them while the server reads no further: 1 MiB of its own buffer (the Behaviour and
    /// choices guide, "HTTP behaviour you can rely on"), the kernel's largest send buffer
    /// (`net.ipv4.tcp_wmem`'s third value, 4 MiB by default) and the client's 64 KiB receive
    /// buffer (doubled by the kernel).
    static let pipelined: Int = {
        let sendBufferMax = RawSocket.procFile("/proc/sys/net/ipv4/tcp_wmem").split(whereSeparator: \.isWhitespace).last.flatMap { Int($0) }
        return max(40_000, (1 << 20 + (sendBufferMax ?? 4 << 20) + 128 << 10) * 3 / 2 / 200)
    }()
    static let maxRSSKiB = 256 * 1024

    /// The checks every test ends with.
    static func settle(_ server: HostileServer, descriptorsAtStart: Int) {
        #expect(Waiting.until { server.descriptors <= descriptorsAtStart },
                "descriptor leak: \(server.descriptors) open at the end, \(descriptorsAtStart) at the start")
        let rss = server.residentKiB
        #expect(rss > 0 && rss <= maxRSSKiB, "VmRSS \(rss) KiB")
        #expect(normalClient(port: server.port, requests: 1) == ["200": 1])
        #expect(server.binary.terminate() == 0, "\(server.binary.stderr)")
    }

    @Test(.timeLimit(.minutes(Waiting.testMinutes)))
    func idleSlowGarbageHalfClosedAndANonReaderHeldTogetherLeaveTheNormalClientServed() throws {
        HostileServer.raiseOwnNofile(to: Self.idle + Self.slow + 500)
        let server = try HostileServer(maxBody: Self.maxBody)
        let port = server.port
        let descriptorsAtStart = server.descriptors
        #expect(normalClient(port: port, requests: Self.requests) == ["200": Self.requests], "before the attack")

        let idle = (0 ..< Self.idle).map { _ in RawSocket.connect(port: port) }
        #expect(idle.allSatisfy { $0 >= 0 }, "\(idle.filter { $0 < 0 }.count) idle connections could not connect")
        let slow = SlowHeaders(port: port, count: Self.slow, interval: .milliseconds(200))
        let nonReader = NonReader(port: port, pipelined: Self.pipelined)
        var noise = SeededGenerator(seed: 6)
        let garbage = (0 ..< 5).map { _ in
            let fd = RawSocket.connect(port: port)
            RawSocket.sendAll(fd, (0 ..< 512).map { _ in UInt8.random(in: 0 ... 255, using: &noise) })
            return fd
        }
        Self.halfClosed(port: port)
        let expected = descriptorsAtStart + Self.idle + Self.slow + 1
        #expect(Waiting.until { server.descriptors >= expected },
                "the server did not accept every connection: \(server.descriptors) descriptors, expected >= \(expected)")
        #expect(server.nofileLimit > HostileServer.softNofile, "the server kept RLIMIT_NOFILE \(server.nofileLimit)")

        // Under the attack.
        #expect(Waiting.until { nonReader.requestsSent > 0 }, "the non-reader sent nothing")
        #expect(normalClient(port: port, requests: Self.requests) == ["200": Self.requests], "under attack")
        // Still there after the normal client's last answer: the idle clients and the non-reader (the slow-header ones
        // may have had their 408 by now, on a busy machine).
        #expect(server.descriptors >= descriptorsAtStart + Self.idle + 1 && nonReader.error == nil,
                "the attackers were not all connected while the normal client ran: \(server.descriptors), \(nonReader.error ?? "")")
        // The server holds the non-reader back: the answers are more than can wait for it (``pipelined``), so the
        // server stops reading its requests. What it has not read sits in the kernel's queues: the client's unsent
        // bytes and the server's socket's unread ones (`/proc/net/tcp`: the same network namespace). A server that
        // read on would leave none there, once the client had sent them all.
        let unread = Waiting.value { () -> Int? in
            let client = RawSocket.queues(local: nonReader.localPort, remote: port)?.sent ?? 0
            let server = RawSocket.queues(local: port, remote: nonReader.localPort)?.unread ?? 0
            return client + server >= 64 * 1024 ? client + server : nil
        }
        #expect(unread != nil, "the server read every request of a client that read no answer (\(nonReader.requestsSent) sent)")

        // The non-reader reads at last: after its first read it waits for the normal client's first request, so that
        // the normal client's requests are made while the 40,000 answers stream; all of them are 200.
        let firstSent = Latch()
        nonReader.startReading(pausingAfterTheFirstRead: firstSent)
        #expect(Waiting.until { !nonReader.answers.statuses.isEmpty || nonReader.finished }, "the non-reader got no answer")
        let draining = nonReader.answers.statuses.count < Self.pipelined
        #expect(draining, "the non-reader had all its answers in one read")
        var first = true
        let whileDraining = normalClient(port: port, requests: Self.requests) {
            if !first { firstSent.open() }
            first = false
        }
        firstSent.open()
        #expect(whileDraining == ["200": Self.requests], "while the non-reader drains")
        #expect(Waiting.until { nonReader.finished }, "the non-reader got \(nonReader.answers.statuses.count) answers")
        let answers = nonReader.answers
        #expect(answers.statuses.count == Self.pipelined && answers.statuses.allSatisfy { $0 == 200 } && !answers.partial && !answers.garbage,
                "non-reader: \(answers.statuses.count) answers, \(Set(answers.statuses)), \(nonReader.error ?? "")")
        #expect(nonReader.error == nil, "\(nonReader.error ?? "")")
        nonReader.finish()

        // Slow headers: 408, no earlier than the header timeout after the first byte, before the head was whole; then closed.
        #expect(Waiting.until { slow.clients.allSatisfy(\.closed) }, "slow-header clients still open")
        let clients = slow.clients
        slow.finish()
        var statuses: [String: Int] = [:]
        for client in clients { statuses[client.data.firstStatus.map(String.init) ?? "none", default: 0] += 1 }
        #expect(statuses == ["408": Self.slow], "slow-header clients")
        for client in clients {
            let cut = client.answered.flatMap { answered in client.first.map { answered - $0 } }
            #expect(cut.map { $0 >= .milliseconds(9500) } == true && client.sent < SlowHeaders.head.count,
                    "a slow-header client answered \(String(describing: cut)) after its first byte, \(client.sent) bytes sent")
        }

        // Garbage: an error, or a close.
        for fd in garbage {
            let (data, closed, _) = RawSocket.readUntilClose(fd)
            close(fd)
            #expect(closed && (data.isEmpty || data.firstStatus.map { $0 >= 400 } != false), "garbage got \(data.prefix(60))")
        }
        for fd in idle where fd >= 0 { close(fd) }
        Self.settle(server, descriptorsAtStart: descriptorsAtStart)
    }

    /// Sockets whose sending side is shut after these bytes: closed by the server at once (well
    /// before any timeout could answer 408), after the answers to the whole requests only.
    static func halfClosed(port: Int) {
        let cases: [(String, [UInt8], Set<[String]>)] = [
            ("nothing", [], [[]]),
            ("partial head", Array("GET /sandbox/health HTTP/1.1\r\nHost: 127.".utf8), [[]]),
            ("partial body", Array("POST /v3/cashout HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"a\":".utf8), [[], ["400"]]),
            ("one request", healthRequest, [["200"]]),
            ("two pipelined", healthRequest + healthRequest, [["200", "200"]]),
        ]
        for (name, payload, expected) in cases {
            let fd = RawSocket.connect(port: port)
            RawSocket.sendAll(fd, payload)
            shutdown(fd, Int32(SHUT_WR))
            let (data, closed, _) = RawSocket.readUntilClose(fd)
            close(fd)
            let answers = ResponseStream(data).summary
            #expect(closed && expected.contains(answers), "half-closed after \(name): answers \(answers), closed \(closed)")
        }
    }

    @Test(.timeLimit(.minutes(Waiting.testMinutes)))
    func bodiesOverTheLimitAreRefusedWithoutBeingRead() throws {
        let server = try HostileServer(maxBody: Self.maxBody)
        let port = server.port
        let descriptorsAtStart = server.descriptors
        let post = "POST /v3/cashout HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"

        // A declared max-body + 1: 413 on the head alone.
        var fd = RawSocket.connect(port: port)
        RawSocket.sendAll(fd, Array((post + "Content-Length: \(Self.maxBody + 1)\r\n\r\n").utf8))
        var (data, closed, _) = RawSocket.readUntilClose(fd)
        close(fd)
        #expect(data.firstStatus == 413 && closed, "declared max-body + 1: \(data.prefix(40)), closed \(closed)")

        // Chunked: exactly max-body is within the limit (unfinished, so unanswered); one byte more, 413.
        fd = RawSocket.connect(port: port)
        RawSocket.sendAll(fd, Array((post + "Transfer-Encoding: chunked\r\n\r\n").utf8))
        for _ in 0 ..< Self.maxBody / (64 * 1024) { RawSocket.sendAll(fd, Self.chunk(64 * 1024)) }
        var reset = false
        let early = RawSocket.receive(fd, waiting: 300, reset: &reset)
        RawSocket.sendAll(fd, Self.chunk(1))
        (data, closed, _) = RawSocket.readUntilClose(fd)
        close(fd)
        #expect(early == nil, "answered at exactly max-body: \(early ?? [])")
        #expect(data.firstStatus == 413 && closed, "chunked max-body + 1: \(data.prefix(40)), closed \(closed)")

        // 100 MB, declared and chunked.
        for chunked in [false, true] {
            let result = Self.bigBody(port: port, chunked: chunked)
            let name = chunked ? "100 MB chunked" : "100 MB declared"
            #expect(result.status == 413, "\(name): \(result)")
            let bound = chunked ? Self.maxBody + 2 << 20 : 1 << 20
            #expect(result.sentAtAnswer.map { $0 <= bound } == true, "\(name): body bytes taken before the 413 (bound \(bound)): \(result)")
            #expect(["reset while sending", "reset while reading", "closed by the server"].contains(result.ended)
                && result.sent <= Self.maxBody + 4 << 20, "\(name): the server kept reading: \(result)")
        }
        Self.settle(server, descriptorsAtStart: descriptorsAtStart)
    }

    static func chunk(_ size: Int) -> [UInt8] {
        Array((String(size, radix: 16) + "\r\n").utf8) + [UInt8](repeating: 55, count: size) + [13, 10]
    }

    struct BigBody: CustomStringConvertible {
        var status: Int?
        var sentAtAnswer: Int?
        var sent = 0
        var ended = "hang"
        var description: String { "status \(status.map(String.init) ?? "none"), \(sentAtAnswer ?? -1) body bytes by then, \(sent) in all, \(ended)" }
    }

    /// Streams a 100 MB body as fast as the server takes it, through a 64 KiB send buffer (so
    /// "sent" means taken by the server's socket, not parked in this process's kernel buffer).
    static func bigBody(port: Int, chunked: Bool) -> BigBody {
        let total = 100 << 20
        let post = "POST /v3/cashout HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        let fd = RawSocket.connect(port: port, sendBuffer: 64 * 1024)
        defer { close(fd) }
        RawSocket.sendAll(fd, Array((post + (chunked ? "Transfer-Encoding: chunked\r\n\r\n" : "Content-Length: \(total)\r\n\r\n")).utf8))
        RawSocket.setNonBlocking(fd)
        let piece = chunked ? chunk(64 * 1024) : [UInt8](repeating: 55, count: 64 * 1024)
        var result = BigBody()
        var offset = 0
        var data: [UInt8] = []
        var events = Int16(POLLIN | POLLOUT)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let deadline = ContinuousClock.now + Waiting.limit
        loop: while ContinuousClock.now < deadline {
            var entry = pollfd(fd: fd, events: events, revents: 0)
            guard poll(&entry, 1, 500) > 0 else { continue }
            if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 && events & Int16(POLLIN) != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n < 0 && errno == ECONNRESET {
                    result.ended = "reset while reading"
                    break loop
                } else if n == 0 {
                    result.ended = "closed by the server"
                    events = Int16(POLLOUT)  // keep sending what a lingering server discards, until it resets
                } else if n > 0 {
                    data += buffer[0 ..< n]
                    if result.status == nil && data.count >= 12 {
                        result.status = data.firstStatus ?? -1
                        result.sentAtAnswer = result.sent
                    }
                }
            }
            if entry.revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0 {
                if !chunked && result.sent >= total {
                    result.ended = "sent it all"
                    break loop
                }
                let n = piece.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                if n > 0 {
                    result.sent += n
                    offset = (offset + n) % piece.count
                } else if n < 0 && (errno == EPIPE || errno == ECONNRESET) {
                    result.ended = result.status == nil ? "reset before any answer" : "reset while sending"
                    break loop
                }
            }
        }
        return result
    }

    @Test(.timeLimit(.minutes(Waiting.testMinutes)))
    func randomBytesGetAnErrorOrACloseAndNeverHang() throws {
        let server = try HostileServer(maxBody: Self.maxBody)
        let descriptorsAtStart = server.descriptors
        let prefixes: [(String, ([UInt8]) -> [UInt8])] = [
            ("noise", { $0 }),
            ("noise after a request line", { Array("GET /sandbox/health HTTP/1.1\r\n".utf8) + $0 }),
            ("noise in a header", { Array("GET /sandbox/health HTTP/1.1\r\nHost: x\r\nX-Noise: ".utf8) + $0 + [13, 10, 13, 10] }),
            ("noise after a request", { healthRequest + $0 }),
            ("noise then half-close", { $0 }),
        ]
        var random = SeededGenerator(seed: 6)
        var fds: [Int32] = []
        for index in 0 ..< 200 {
            let noise = (0 ..< Int.random(in: 1 ... 4096, using: &random)).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
            let fd = RawSocket.connect(port: server.port)
            RawSocket.sendAll(fd, prefixes[index % prefixes.count].1(noise))
            if index % prefixes.count == 4 { shutdown(fd, Int32(SHUT_WR)) }
            RawSocket.setNonBlocking(fd)
            fds.append(fd)
        }
        // Read all of them together until each is closed (or the bound only a hang reaches).
        var data = [[UInt8]](repeating: [], count: fds.count)
        var open = Set(fds.indices)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let deadline = ContinuousClock.now + Waiting.limit
        while !open.isEmpty && ContinuousClock.now < deadline {
            let watched = Array(open)
            var entries = watched.map { pollfd(fd: fds[$0], events: Int16(POLLIN), revents: 0) }
            guard poll(&entries, nfds_t(entries.count), 200) > 0 else { continue }
            for (entry, index) in zip(entries, watched) where entry.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(entry.fd, $0.baseAddress, $0.count, 0) }
                if n > 0 { data[index] += buffer[0 ..< n] } else if n == 0 || (errno != EAGAIN && errno != EINTR) { open.remove(index) }
            }
        }
        var bad: [String] = []
        for index in fds.indices {
            close(fds[index])
            let kind = prefixes[index % prefixes.count].0
            let answers = ResponseStream(data[index])
            // The request before the noise may get its 200; anything the noise itself got must be an error.
            let errors = kind == "noise after a request" && answers.statuses.first == 200 ? Array(answers.statuses.dropFirst()) : answers.statuses
            if open.contains(index) || errors.contains(where: { $0 < 400 }) || answers.garbage || answers.partial {
                bad.append("\(kind): \(open.contains(index) ? "hang" : "closed") after \(answers.summary)")
            }
        }
        #expect(bad.isEmpty, "\(bad.count) connections hung or got a success for noise: \(bad.prefix(5))")
        Self.settle(server, descriptorsAtStart: descriptorsAtStart)
    }

    /// An HTTP/2 attack: what the flood sends, and whether the server must close it with ENHANCE_YOUR_CALM.
    struct H2Attack: Sendable, CustomStringConvertible {
        let description: String
        var pairs: [(UInt16, UInt32)] = []
        var reads = true
        var opening: [UInt8] = []
        let calmed: Bool
        let batch: H2Flood.Batch
    }

    static let h2Attacks: [H2Attack] = {
        let health = H2.requestBlock("/sandbox/health")
        let openapi = H2.requestBlock("/openapi.json")
        @Sendable func streams(_ index: Int, _ count: Int) -> [UInt32] { (0 ..< count).map { UInt32(1 + 2 * (index * count + $0)) } }
        let nonReader: H2Flood.Batch = { _, index in
            usleep(5000)  // a few requests at a time, never reading: every answer waits for a window or the socket
            return streams(index, 8).flatMap { H2.frame(H2.headers, H2.endStream | H2.endHeaders, $0, openapi) }
        }
        return [
            H2Attack(description: "rapid reset", calmed: true) { _, index in
                streams(index, 500).flatMap {
                    H2.frame(H2.headers, H2.endStream | H2.endHeaders, $0, health) + H2.frame(H2.rstStream, 0, $0, H2.bigEndian(8))  // CANCEL
                }
            },
            // 16 KiB frames on even connections (the header-block bound), 16-byte ones on odd (the control-frame bucket).
            H2Attack(description: "CONTINUATION flood", opening: H2.frame(H2.headers, H2.endStream, 1, health), calmed: true) { connection, _ in
                let size = connection % 2 == 0 ? 16384 : 16
                return [[UInt8]](repeating: H2.frame(H2.continuation, 0, 1, [UInt8](repeating: 0, count: size)), count: max(1, 65536 / (size + 9)))
                    .flatMap { $0 }
            },
            H2Attack(description: "zero-window reader", pairs: [(H2.initialWindowSize, 0)], reads: false, calmed: false, batch: nonReader),
            H2Attack(description: "wide-window non-reader", pairs: [(H2.initialWindowSize, H2.maxWindow)], reads: false,
                     opening: H2.frame(H2.windowUpdate, 0, 0, H2.bigEndian(H2.maxWindow - 65535)), calmed: false, batch: nonReader),
            H2Attack(description: "PING/SETTINGS flood", calmed: true) { _, _ in
                [[UInt8]](repeating: H2.frame(H2.ping, 0, 0, Array("12345678".utf8)) + H2.settingsFrame(), count: 500).flatMap { $0 }
            },
        ]
    }()

    @Test(.timeLimit(.minutes(Waiting.testMinutes)))
    func http2FloodsAreCutOffAndTheNormalClientIsServedBesideEach() throws {
        let server = try HostileServer(maxBody: Self.maxBody)
        let port = server.port
        let descriptorsAtStart = server.descriptors
        #expect(normalH2Client(port: port, requests: Self.requests) == ["200": Self.requests], "HTTP/2 before the attacks")
        for attack in Self.h2Attacks {
            let rssBefore = server.residentKiB
            let flood = H2Flood(port: port, pairs: attack.pairs, reads: attack.reads, opening: attack.opening, batch: attack.batch)
            // Under way: a flood once the server closed one of its connections; a non-reader once it has sent.
            #expect(Waiting.until { attack.calmed ? !flood.endings.isEmpty : flood.sent > 0 }, "\(attack): never under way")
            // Each request of the normal client waits for the flood to have sent more (or, a non-reader, to be connected still).
            var sent = flood.sent
            let outcomes = normalH2Client(port: port, requests: Self.requests) {
                guard attack.calmed else { return }
                _ = Waiting.until { flood.sent > sent }
                sent = flood.sent
            }
            let rssDuring = server.residentKiB
            flood.finish()
            let endings = flood.endings
            #expect(outcomes == ["200": Self.requests], "HTTP/2 beside the \(attack): \(outcomes)")
            #expect(rssDuring - rssBefore <= 64 * 1024, "\(attack): VmRSS \(rssBefore) -> \(rssDuring) KiB")
            if attack.calmed {
                let others = endings.keys.filter { $0.hasPrefix("GOAWAY") && $0 != "GOAWAY ENHANCE_YOUR_CALM" }
                #expect(endings["GOAWAY ENHANCE_YOUR_CALM", default: 0] >= 1 && others.isEmpty,
                        "\(attack): not closed with ENHANCE_YOUR_CALM: \(endings)")
            } else {
                #expect(flood.connections >= 1 && !endings.keys.contains { $0.hasPrefix("connect error") }, "\(attack): \(endings)")
            }
        }
        Self.settle(server, descriptorsAtStart: descriptorsAtStart)
    }
}
