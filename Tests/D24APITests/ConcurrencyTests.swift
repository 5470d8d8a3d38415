@testable import CashoutSandbox
import Dispatch
import Foundation
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// Answers collected from many threads.
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int: Result<HTTPResponse, HTTPClientError>] = [:]

    func set(_ index: Int, _ result: Result<HTTPResponse, HTTPClientError>) {
        lock.lock()
        items[index] = result
        lock.unlock()
    }

    var all: [Int: Result<HTTPResponse, HTTPClientError>] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// Runs `work(i)` for i in 0..<count, each on its own thread, all released at once; waits for all.
func onSeparateThreads(_ count: Int, _ work: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    let gate = DispatchSemaphore(value: 0)
    for index in 0 ..< count {
        group.enter()
        let thread = Thread {
            gate.wait()
            work(index)
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    for _ in 0 ..< count { gate.signal() }
    group.wait()
}

/// Sends the same kind of signed request from `count` threads at once.
func concurrently(_ count: Int, _ sandbox: Sandbox, method: String, path: String,
                  body: @escaping @Sendable (Int) -> String) -> [HTTPResponse] {
    let collected = Collected()
    let base = sandbox.base
    onSeparateThreads(count) { index in
        let text = body(index)
        let headers: HTTPHeaders = ["Content-Type": "application/json", "Payload-Signature": sign(text)]
        let result = Result { () throws(HTTPClientError) -> HTTPResponse in
            try TestHTTP.send(method: method, url: base + path, headers: headers, body: Array(text.utf8))
        }
        collected.set(index, result)
    }
    var responses: [HTTPResponse] = []
    for (index, result) in collected.all.sorted(by: { $0.key < $1.key }) {
        switch result {
        case .success(let response): responses.append(response)
        case .failure(let error): Issue.record("request \(index) failed: \(error)")
        }
    }
    return responses
}

@Suite struct ConcurrencyTests {
    @Test func concurrentCreatesNeverOverdrawTheBalance() throws {
        let n = 25
        let sandbox = try startSandbox(merchants: [merchant(balance: "\(n * 10).00")])
        defer { sandbox.stop() }
        let responses = concurrently(4 * n, sandbox, method: "POST", path: "/v3/cashout") { index in
            createBody(externalID: "cc-\(index)", amount: "10.00", currency: "USD")
        }
        #expect(responses.count == 4 * n)
        let accepted = responses.filter { $0.status == 200 }
        let refused = responses.filter { $0.status != 200 }
        #expect(accepted.count == n)
        #expect(refused.count == 3 * n)
        for response in refused {
            #expect(response.status == 412)
            #expect(response.bodyText == #"{"code":514,"message":"Insufficient funds"}"#)
        }
        let ids = Set(accepted.compactMap { try? JSON.parse($0.body)["cashout_id"]?.stringValue })
        #expect(ids == Set((1 ... n).map { String(1_000_000 + $0) }))
        #expect(try sandbox.balance() == "0.00")
        #expect(try sandbox.admin("GET", "/sandbox/cashouts")["cashouts"]?.arrayValue?.count == n)
    }

    @Test func concurrentCreatesWithOneExternalIDCreateOneCashout() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let responses = concurrently(20, sandbox, method: "POST", path: "/v3/cashout") { _ in
            createBody(externalID: "same", amount: "10.00", currency: "USD")
        }
        #expect(responses.count == 20)
        #expect(responses.filter { $0.status == 200 }.map(\.bodyText) == [#"{"cashout_id":"1000001"}"#])
        for response in responses where response.status != 200 {
            #expect(response.status == 412)
            #expect(response.bodyText == #"{"code":511,"message":"External ID already used"}"#)
        }
        #expect(try sandbox.balance() == "999990.00")
    }

    @Test func concurrentCancelsRefundOnce() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "c-1", amount: "10.00", currency: "USD")
        let responses = concurrently(20, sandbox, method: "DELETE", path: "/v3/cashout/cancel") { _ in
            cancelBody(id: id, externalID: "c-1")
        }
        #expect(responses.count == 20)
        #expect(responses.filter { $0.status == 200 }.map(\.bodyText) == [canceledJSON])
        for response in responses where response.status != 200 {
            #expect(response.status == 412)
            #expect(response.bodyText == #"{"code":510,"message":"Invalid status transition"}"#)
        }
        #expect(try sandbox.balance() == "1000000.00")
    }
}
