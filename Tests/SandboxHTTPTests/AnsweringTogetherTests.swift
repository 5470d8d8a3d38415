import Dispatch
import Glibc
import Synchronization
import TestHelpers
import Testing
@testable import SandboxWire

/// Answers given inside `HTTPResponse.answeringTogether` (a journal's sync letting many waiting
/// requests go) leave when it returns, all of them, and not before.
@Suite struct AnsweringTogetherTests {
    @Test func answersGivenTogetherLeaveWhenTheScopeEnds() throws {
        let parked = Mutex<[@Sendable (HTTPResponse) -> Void]>([])
        var router = Router()
        router.add("GET /parked/{name}") { request in
            let name = request.parameters["name"] ?? ""
            return .deferred { answer in parked.withLock { $0.append { _ in answer(.text(name)) } } }
        }
        let server = try HTTPServer.start(configuration: .init(host: "127.0.0.1", port: 0, threads: 1), handler: router.respond)
        defer { server.stop() }
        let clients = try ["a", "b", "c"].map { name in
            let client = try RawConnection(port: server.port)
            client.send("GET /parked/\(name) HTTP/1.1\r\nHost: t\r\n\r\n")
            return client
        }
        Waiting.until { parked.withLock { $0.count } == 3 }
        let answers = parked.withLock { $0 }
        try #require(answers.count == 3)

        HTTPResponse.answeringTogether {
            for answer in answers { answer(.text("")) }
            #expect(clients[0].isQuiet(for: 0.3), "not sent before the scope ends")
        }
        #expect(try clients.map { try $0.readResponse().bodyText } == ["a", "b", "c"])
    }

    /// Outside the scope each answer leaves at once, as before.
    @Test func anAnswerGivenAloneLeavesAtOnce() throws {
        let parked = Mutex<(@Sendable (HTTPResponse) -> Void)?>(nil)
        var router = Router()
        router.add("GET /parked") { _ in .deferred { answer in parked.withLock { $0 = answer } } }
        let server = try HTTPServer.start(configuration: .init(host: "127.0.0.1", port: 0, threads: 1), handler: router.respond)
        defer { server.stop() }
        let client = try RawConnection(port: server.port)
        client.send("GET /parked HTTP/1.1\r\nHost: t\r\n\r\n")
        Waiting.until { parked.withLock { $0 != nil } }
        let answer = try #require(parked.withLock { $0 })
        answer(.text("now"))
        #expect(try client.readResponse().bodyText == "now")
    }
}
