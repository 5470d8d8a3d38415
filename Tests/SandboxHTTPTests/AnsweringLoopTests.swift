import Dispatch
import Glibc
import Synchronization
import Testing
@testable import SandboxHTTP

/// Work another thread finishes for a request, handed back with `AnsweringLoop`, runs on the
/// event loop that read the request (as a journal's sync hands back the answers it lets go), and
/// at once on the calling thread once the server has stopped.
@Suite struct AnsweringLoopTests {
    /// The calling thread's name, as the kernel has it (`/proc/thread-self/comm`).
    private static func threadName() -> String {
        let fd = open("/proc/thread-self/comm", O_RDONLY)
        defer { close(fd) }
        var name = [UInt8](repeating: 0, count: 32)
        let count = name.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return String(decoding: name.prefix(max(0, count)).filter { $0 != 10 }, as: UTF8.self)
    }

    @Test func workHandedBackRunsOnTheLoopThatReadTheRequest() throws {
        var router = Router()
        router.add("GET /handed-back") { _ in
            let reader = Self.threadName()
            let loop = AnsweringLoop.current
            return .deferred { answer in
                DispatchQueue.global().async {
                    let offLoop = AnsweringLoop.current == nil
                    loop?.run { answer(.text("\(reader) \(Self.threadName()) \(offLoop)")) }
                }
            }
        }
        let server = try HTTPServer.start(configuration: .init(host: "127.0.0.1", port: 0, threads: 2), handler: router.respond)
        defer { server.stop() }
        for _ in 0 ..< 4 {
            let client = try RawConnection(port: server.port)
            client.send("GET /handed-back HTTP/1.1\r\nHost: t\r\n\r\n")
            let words = try client.readResponse().bodyText.split(separator: " ")
            try #require(words.count == 3)
            #expect(words[0].hasPrefix("http-loop-"))
            #expect(words[1] == words[0], "run on the loop that read the request")
            #expect(words[2] == "true", "no loop on a queue's thread")
        }
    }

    @Test func workHandedBackToAStoppedLoopRunsAtOnce() throws {
        let kept = Mutex<AnsweringLoop?>(nil)
        var router = Router()
        router.add("GET /keep") { _ in
            kept.withLock { $0 = AnsweringLoop.current }
            return .text("kept")
        }
        let server = try HTTPServer.start(configuration: .init(host: "127.0.0.1", port: 0, threads: 1), handler: router.respond)
        let client = try RawConnection(port: server.port)
        client.send("GET /keep HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try client.readResponse().bodyText == "kept")
        server.stop()
        let loop = try #require(kept.withLock { $0 })
        let ran = Mutex(false)
        loop.run { ran.withLock { $0 = true } }
        #expect(ran.withLock { $0 })
    }
}
