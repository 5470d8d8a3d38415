import Foundation
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers

/// One keep-alive connection to a sandbox on 127.0.0.1 that sends JSON and connects again after
/// the server closed it or died: a client of a load that outlives the server it started on. Used
/// by one thread at a time.
final class SandboxConnection {
    /// A whole response.
    struct Answer {
        let status: Int
        let body: [UInt8]
        /// The body as JSON; `.null` when it is none.
        var json: JSON { (try? JSON.parse(body)) ?? .null }
        /// The body as text, cut short, for a message.
        var text: String { String(String(decoding: body, as: UTF8.self).prefix(200)) }
    }

    private let port: Int
    private var connection: KeepAliveConnection?

    init(port: Int) {
        self.port = port
    }

    /// Sends `method path` with `body` (JSON) or `raw` bytes, `headers` added to a JSON
    /// `Content-Type` (unless they give one); nil when no whole answer came (the connection was
    /// refused or cut: the server is gone).
    func call(_ method: String, _ path: String, _ body: JSON? = nil, raw: [UInt8]? = nil, headers: [(String, String)] = []) -> Answer? {
        let bytes = raw ?? body?.serialized() ?? []
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(bytes.count)\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "content-type" }) { head += "Content-Type: application/json\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if connection == nil { connection = KeepAliveConnection(port: port) }
        guard let open = connection else { return nil }
        switch open.exchange(Array((head + "\r\n").utf8) + bytes) {
        case .response(let status, let closes, let body):
            if closes { connection = nil }
            return Answer(status: status, body: body)
        case .closedBeforeResponse, .truncated:
            connection = nil
            return nil
        }
    }

    /// A D24 call: `fields` signed with the default merchant's secret in `Payload-Signature`.
    func signed(_ method: String, _ path: String, _ fields: JSON) -> Answer? {
        let body = fields.serialized()
        return call(method, path, raw: body, headers: [("Payload-Signature", D24Signing.payloadSignature(String(decoding: body, as: UTF8.self)))])
    }
}

/// A sandbox's JSON read over a connection of its own, for the checks after a restart.
struct SandboxReader {
    let url: String
    /// The port of `url` (`http://127.0.0.1:PORT`).
    var port: Int { url.split(separator: ":").last.flatMap { Int($0) } ?? 0 }

    /// `GET path`'s JSON; throws unless it is a 200.
    func get(_ path: String) throws -> JSON {
        try send("GET", path, expecting: 200)
    }

    /// `method path` with `body`; its JSON, throwing unless the status is `expecting`.
    @discardableResult
    func send(_ method: String, _ path: String, _ body: JSON? = nil, expecting: Int) throws -> JSON {
        var limits = HTTPLimits()
        limits.maxBodyBytes = 256 << 20
        let response = try TestHTTP.send(method: method, url: url + path, headers: ["Content-Type": "application/json"],
                                         body: body?.serialized() ?? [], limits: limits)
        guard response.status == expecting else {
            throw Unexpected("\(method) \(path): HTTP \(response.status) \(String(response.bodyText.prefix(300)))")
        }
        return response.body.isEmpty ? .null : try JSON.parse(response.body)
    }
}

/// An answer a check did not expect.
struct Unexpected: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension JSON {
    /// An integer given as a JSON number or a string of digits (ids are both, by API).
    var int: Int? { numberText.flatMap { Int($0) } ?? stringValue.flatMap { Int($0) } }
    /// An amount given as a string or a number, exactly (never a `Double`).
    var money: Money? { (stringValue ?? numberText).flatMap { Money($0) } }
    /// The elements of an array, or none.
    var elements: [JSON] { arrayValue ?? [] }
}

/// SplitMix64: a seeded generator, so that each load client's choices repeat from run to run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// One of `choices`, each as likely as its weight.
    mutating func pick<T>(_ choices: [(T, Int)]) -> T {
        var roll = Int.random(in: 0 ..< choices.reduce(0) { $0 + $1.1 }, using: &self)
        for (choice, weight) in choices {
            if roll < weight { return choice }
            roll -= weight
        }
        return choices[choices.count - 1].0
    }
}

/// Runs `body` on a thread of its own (a client that blocks on its socket for the whole load,
/// which Dispatch's pool of a core's threads would not grow for); `group` waits for it.
func startThread(in group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
    group.enter()
    Thread {
        body()
        group.leave()
    }.start()
}
