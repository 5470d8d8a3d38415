import Dispatch
import Glibc
import Synchronization
import TestHelpers
import Testing
@testable import SandboxWire

/// A gate opened by hand: tickets up to `open(upTo:)` go; `fail(because:)` fails the rest, each held
/// response answered by its `refusedAs` instead.
/// It keeps what it was asked (ticket, answers), and the tickets handlers held on it.
private final class HandGate: ResponseGate {
    private struct State {
        var opened = 0
        var failure: GateFailure?
        var asked: [(ticket: Int, answers: Int)] = []
        var wakes: [(ticket: Int, wake: @Sendable () -> Void)] = []
        var held: [Int] = []
    }
    private let state = Mutex(State())

    var asked: [(ticket: Int, answers: Int)] { state.withLock { $0.asked } }
    var held: [Int] { state.withLock { $0.held } }

    /// Called by a handler as it holds its answer on this gate.
    func hold(_ ticket: Int) { state.withLock { $0.held.append(ticket) } }

    func state(of ticket: Int) -> ResponseGateState {
        state.withLock { state in
            if ticket <= state.opened { return .open }
            return state.failure.map { .failed($0) } ?? .held
        }
    }

    func whenLetGo(_ ticket: Int, answers: Int, _ wake: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            state.asked.append((ticket, answers))
            guard ticket > state.opened, state.failure == nil else { return true }
            state.wakes.append((ticket, wake))
            return false
        }
        if now { wake() }
    }

    func open(upTo ticket: Int) {
        let due = state.withLock { state in
            state.opened = ticket
            defer { state.wakes.removeAll { $0.ticket <= ticket } }
            return state.wakes.filter { $0.ticket <= ticket }
        }
        for waiting in due { waiting.wake() }
    }

    func fail(because reason: String) {
        let due = state.withLock { state in
            state.failure = GateFailure(reason: reason)
            defer { state.wakes = [] }
            return state.wakes
        }
        for waiting in due { waiting.wake() }
    }
}

/// What a `HandGate` fails with.
struct GateFailure: Error, Sendable {
    let reason: String
}

/// A failed gate's answer, as a server that holds responses makes it.
private let refused: @Sendable (any Error & Sendable) -> HTTPResponse = { failure in
    Router.error(500, (failure as? GateFailure)?.reason ?? "\(failure)")
}

/// Responses held by a gate (`HTTPResponse.held(by:until:)`, as a journal's sync holds the answers
/// that report a change): sent once the gate lets their ticket go, not before, each loop asking
/// the gate to wake it for the lowest ticket it holds.
@Suite struct ResponseGateTests {
    /// A server whose `POST /change/{ticket}` answers "saved {ticket}", held until that ticket.
    private static func start(_ gate: HandGate, threads: Int = 1) throws -> HTTPServer {
        var router = Router()
        router.add("POST /change/{ticket}") { request in
            let ticket = request.parameters["ticket"] ?? ""
            gate.hold(Int(ticket) ?? 0)
            return HTTPResponse.text("saved \(ticket)").held(by: gate, until: Int(ticket) ?? 0, refusedAs: refused)
        }
        router.add("POST /later/{ticket}") { request in  // produced off the loop, then held
            let ticket = request.parameters["ticket"] ?? ""
            return HTTPResponse.later(on: .global()) { .text("later \(ticket)") }.held(by: gate, until: Int(ticket) ?? 0, refusedAs: refused)
        }
        router.add("GET /hello") { _ in .text("hello") }
        return try HTTPServer.start(configuration: .init(host: "127.0.0.1", port: 0, threads: threads), handler: router.respond)
    }

    private static func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        let held = Waiting.until(condition)
        #expect(held, sourceLocation: sourceLocation)
    }

    @Test func aHeldResponseLeavesOnceItsGateLetsItGoAndNotBefore() throws {
        let gate = HandGate()
        let server = try Self.start(gate)
        defer { server.stop() }
        let client = try RawConnection(port: server.port)
        client.send("POST /change/1 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
        Self.waitUntil { !gate.asked.isEmpty }
        #expect(gate.asked.map(\.ticket) == [1])
        #expect(client.isQuiet(for: 0.3), "held")
        gate.open(upTo: 1)
        let response = try client.readResponse(method: "POST")
        #expect(response.status == 200 && response.bodyText == "saved 1")
    }

    /// Three clients on one loop: the loop asks the gate once, for the first ticket; one opening
    /// lets all three go.
    @Test func aLoopAsksOnceForEverythingItHolds() throws {
        let gate = HandGate()
        let server = try Self.start(gate)
        defer { server.stop() }
        let clients = try (1 ... 3).map { ticket in
            let client = try RawConnection(port: server.port)
            client.send("POST /change/\(ticket) HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
            Self.waitUntil { gate.held.count == ticket }  // in that order
            return client
        }
        Self.waitUntil { !gate.asked.isEmpty }
        usleep(50_000)  // time for a loop that would ask again to do so
        #expect(gate.asked.map(\.ticket) == [1])
        gate.open(upTo: 3)
        #expect(try clients.map { try $0.readResponse(method: "POST").bodyText } == ["saved 1", "saved 2", "saved 3"])
        #expect(gate.asked.count == 1, "nothing left to ask for")
    }

    /// A gate that lets the first ticket go but not the second: the first answer leaves, and the
    /// loop asks again for the second, which leaves once that opens.
    @Test func whatIsStillHeldIsAskedForAgain() throws {
        let gate = HandGate()
        let server = try Self.start(gate)
        defer { server.stop() }
        let first = try RawConnection(port: server.port)
        first.send("POST /change/1 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
        Self.waitUntil { !gate.asked.isEmpty }
        let second = try RawConnection(port: server.port)
        second.send("POST /change/2 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
        Self.waitUntil { gate.held == [1, 2] }
        gate.open(upTo: 1)
        #expect(try first.readResponse(method: "POST").bodyText == "saved 1")
        Self.waitUntil { gate.asked.count == 2 }
        #expect(gate.asked.map(\.ticket) == [1, 2])
        #expect(second.isQuiet(for: 0.3), "still held")
        gate.open(upTo: 2)
        #expect(try second.readResponse(method: "POST").bodyText == "saved 2")
    }

    @Test func aFailedGateSendsTheHoldsAnswerInstead() throws {
        let gate = HandGate()
        let server = try Self.start(gate)
        defer { server.stop() }
        let client = try RawConnection(port: server.port)
        client.send("POST /change/1 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
        Self.waitUntil { !gate.asked.isEmpty }
        gate.fail(because: "not saved")
        let response = try client.readResponse(method: "POST")
        #expect(response.status == 500 && response.bodyText == Router.error(500, "not saved").bodyText)
        // Later changes are answered the failure at once; reads go on.
        client.send("POST /change/2 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try client.readResponse(method: "POST").status == 500)
        #expect(try client.readResponse().bodyText == "hello")
    }

    /// Pipelined HTTP/1.1: an answer after a held one waits behind it, in order.
    @Test func aPipelinedAnswerWaitsBehindAHeldOne() throws {
        let gate = HandGate()
        let server = try Self.start(gate)
        defer { server.stop() }
        let client = try RawConnection(port: server.port)
        client.send("POST /change/1 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        Self.waitUntil { !gate.asked.isEmpty }
        #expect(client.isQuiet(for: 0.3), "the first is held, and the second behind it")
        gate.open(upTo: 1)
        #expect(try client.readResponse(method: "POST").bodyText == "saved 1")
        #expect(try client.readResponse().bodyText == "hello")
    }

    /// A response produced off the loop is held once it is produced.
    @Test func aResponseProducedLaterIsHeldToo() throws {
        let gate = HandGate()
        let server = try Self.start(gate)
        defer { server.stop() }
        let client = try RawConnection(port: server.port)
        client.send("POST /later/1 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
        Self.waitUntil { !gate.asked.isEmpty }
        #expect(client.isQuiet(for: 0.3), "held")
        gate.open(upTo: 1)
        #expect(try client.readResponse(method: "POST").bodyText == "later 1")
    }

    /// HTTP/2: a held stream does not hold the connection's other streams.
    @Test func overHTTP2OnlyTheHeldStreamWaits() throws {
        let gate = HandGate()
        let server = try Self.start(gate)
        defer { server.stop() }
        let h2 = try H2Connection(port: server.port)
        h2.writer.request(1, "POST", "/change/1")
        h2.writer.request(3, "GET", "/hello")
        h2.flush()
        #expect(h2.answer(3)?.text == "hello")
        Self.waitUntil { !gate.asked.isEmpty }
        #expect(h2.reader.answers[1] == nil)
        gate.open(upTo: 1)
        let answer = try #require(h2.answer(1))
        #expect(answer.status == 200 && answer.text == "saved 1")
    }

    /// A client that leaves while its answer is held: the opening finds no one, and the loop goes on.
    @Test func aClientGoneWhileHeldIsForgotten() throws {
        let gate = HandGate()
        let server = try Self.start(gate)
        defer { server.stop() }
        do {
            let leaving = try RawConnection(port: server.port)
            leaving.send("POST /change/1 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
            Self.waitUntil { !gate.asked.isEmpty }
        }
        usleep(50_000)
        gate.open(upTo: 1)
        let next = try RawConnection(port: server.port)
        next.send("POST /change/1 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
        #expect(try next.readResponse(method: "POST").bodyText == "saved 1")
    }

    /// Outside a server (a test calling the handler), `resolved` waits for the gate.
    @Test func resolvedWaitsForTheGate() {
        let gate = HandGate()
        let held = HTTPResponse.text("saved").held(by: gate, until: 1, refusedAs: refused)
        #expect(held.isHeld && held.bodyText == "saved")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { gate.open(upTo: 1) }
        let resolved = held.resolved
        #expect(!resolved.isHeld && resolved.bodyText == "saved")
        gate.fail(because: "lost")
        #expect(HTTPResponse.text("saved").held(by: gate, until: 2, refusedAs: refused).resolved.bodyText == Router.error(500, "lost").bodyText)
    }
}
