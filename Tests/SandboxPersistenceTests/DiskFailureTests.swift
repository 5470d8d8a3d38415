@testable import CashoutSandbox
import Foundation
import Glibc
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxPersistence
import TestHelpers
import Synchronization
import Testing

/// Fails a journal's file operations as a test says: the Nth of them from `arm` on (all kinds
/// counted together, or only those `arm` names), once, or as a full disk from then on until
/// `lift` ("space returns"): then every write and every file made fails too, while syncs and
/// cuts work. A write fails with ENOSPC, any other operation with EIO.
final class DiskFaults: Sendable {
    private struct Plan {
        var calls = 0
        var failAt: Int?
        var persistent = false
        var only: Set<JournalFiles.Operation>?
        var failed = 0
    }

    private let plan = Mutex(Plan())

    /// What the journal is handed (`Sandbox.Configuration.journalFiles`).
    var files: JournalFiles {
        JournalFiles { [self] operation in
            plan.withLock { plan -> Int32? in
                guard plan.only?.contains(operation) ?? true else { return nil }
                plan.calls += 1
                let full = plan.persistent && [.write, .open].contains(operation)
                guard let at = plan.failAt, plan.calls == at || (full && plan.calls > at) else { return nil }
                plan.failed += 1
                return operation == .write ? ENOSPC : EIO
            }
        }
    }

    /// Counts from zero again, and fails the `call`th operation from now (every one from it on
    /// when `persistent`), of those in `only` when given.
    func arm(at call: Int?, persistent: Bool = false, only: Set<JournalFiles.Operation>? = nil) {
        plan.withLock { $0 = Plan(failAt: call, persistent: persistent, only: only) }
    }

    func lift() { plan.withLock { $0.failAt = nil } }

    /// Operations since `arm`, and how many were failed.
    var counts: (calls: Int, failed: Int) { plan.withLock { ($0.calls, $0.failed) } }
}

/// The journal under failing writes, as SQLite's I/O-error tests do it (Running it, "When the disk
/// fails"): a short workload (creates, clock moves with notifications, an admin action, a snapshot
/// restored, compactions) is run once for each of its file operations, that one made to fail once,
/// then from it on until the fault is lifted. Each time: every request is answered; a change
/// answered 2xx is kept and one answered 503 is not, in memory and after a restart from the bytes
/// on disk; and once the fault is lifted, the next change succeeds with no restart.
@Suite struct DiskFailureTests {
    typealias Fixture = ManualSandbox

    /// One step of the workload: what it sends, and the external_id it creates, if it creates.
    struct Step: Sendable {
        let name: String
        let creates: String?
        let send: @Sendable (Sandbox) throws -> HTTPResponse
    }

    static let workload: [Step] = [
        create("w-1"), create("w-2"),
        Step(name: "advance 20s", creates: nil) { try Fixture.send($0, "POST", "/sandbox/clock/advance", #"{"by":"20s"}"#) },
        create("w-3"),
        Step(name: "hold 1000003", creates: nil) { try Fixture.send($0, "POST", "/sandbox/cashouts/1000003/actions", #"{"action":"hold"}"#) },
        Step(name: "restore a snapshot", creates: nil) { sandbox in
            let saved = try Fixture.send(sandbox, "GET", "/sandbox/snapshot")
            // A read racing a change refused meanwhile may be answered 503 (Running it, "When the disk fails").
            guard saved.status == 200 else { return saved }
            return try TestHTTP.send(method: "PUT", url: "\(sandbox.baseURL)/sandbox/snapshot", body: saved.body)
        },
        create("w-4"),
        Step(name: "advance 1h", creates: nil) { try Fixture.send($0, "POST", "/sandbox/clock/advance", #"{"by":"1h"}"#) },
    ]

    static func create(_ externalID: String) -> Step {
        Step(name: "create \(externalID)", creates: externalID) { try Fixture.create($0, externalID) }
    }

    /// A sandbox on `directory` whose journal compacts often (so the walk fails compactions too).
    static func launch(_ directory: String, files: JournalFiles = .system) throws -> Sandbox {
        try Fixture.launch(directory) { configuration in
            configuration.journalFiles = files
            configuration.journalCompactionBytes = 4096
        }
    }

    /// The cashouts, the ledger and the merchants, once nothing is due on the clock and two reads
    /// in a row agree (the clock driver may still be sending a notification a step made due). Not
    /// the webhooks: an attempt on its way when a sandbox stops is sent again after a restart.
    /// (`clock` false: whatever is due, as while the journal fails and the clock's events wait.)
    static func settledState(_ sandbox: Sandbox, clock waits: Bool = true) throws -> [String] {
        var last: [String] = []
        for _ in 0 ..< 3000 {
            let clock = try JSON.parse(Fixture.send(sandbox, "GET", "/sandbox/clock").body)
            let due = clock["next_event_at"]?.stringValue.map { $0 <= (clock["now"]?.stringValue ?? "") } ?? false
            let now = try state(sandbox)
            if !(due && waits) && now == last { return now }
            last = now
            usleep(20_000)
        }
        return last
    }

    static func state(_ sandbox: Sandbox) throws -> [String] {
        try ["/sandbox/cashouts", "/sandbox/ledger", "/sandbox/merchants"].map { try Fixture.send(sandbox, "GET", $0).bodyText }
    }

    /// Whether the sandbox has a cashout of `externalID`.
    static func has(_ sandbox: Sandbox, _ externalID: String) throws -> Bool {
        try Fixture.send(sandbox, "GET", "/sandbox/cashouts").bodyText.contains(#""external_id":"\#(externalID)""#)
    }

    /// Runs the workload with the `call`th file operation failing; returns how many operations ran
    /// and how many failed.
    @discardableResult
    static func run(failing call: Int?, persistent: Bool) throws -> (calls: Int, failed: Int) {
        let directory = NSTemporaryDirectory() + "disk-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let faults = DiskFaults()
        let sandbox = try launch(directory, files: faults.files)
        faults.arm(at: call, persistent: persistent)
        var saved: [String] = [], refused: [String] = []
        let context = "failing operation \(call ?? 0)\(persistent ? " and every one after it" : " once")"
        for step in workload {
            let answer = try step.send(sandbox)
            // A hold finds no cashout 1000003 when a create before it was refused.
            let expected = step.name.hasPrefix("hold") ? [200, 404, 503] : [200, 503]
            #expect(expected.contains(answer.status), "\(context): \(step.name) answered \(answer.status) \(answer.bodyText)")
            if answer.status == 503 {
                #expect(answer.headers["Retry-After"] == "1" && answer.bodyText.contains("could not be saved"), "\(context): \(step.name)")
            }
            if let created = step.creates { answer.status == 200 ? saved.append(created) : refused.append(created) }
        }
        let counts = faults.counts
        _ = try settledState(sandbox, clock: false)  // what the clock driver sent on its own is undone, if refused
        faults.lift()
        // Space returns: the next change succeeds, with no restart.
        let after = try Fixture.create(sandbox, "w-after")
        #expect(after.status == 200, "\(context): the first create once the fault is lifted: \(after.status) \(after.bodyText)")
        saved.append("w-after")
        for externalID in saved { #expect(try has(sandbox, externalID), "\(context): \(externalID), answered 200, is gone") }
        for externalID in refused { #expect(try !has(sandbox, externalID), "\(context): \(externalID), answered 503, is there") }
        let live = try settledState(sandbox)
        sandbox.stop()
        // A restart from the bytes on disk holds what memory held.
        let restarted = try launch(directory)
        defer { restarted.stop() }
        #expect(try Self.state(restarted) == live, "\(context): the state after a restart differs")
        return counts
    }

    /// A failed write whose cut cannot be made either (EIO on every operation): the change is
    /// undone in memory at once, and its answer, held while the cut is tried again, is a 503 after
    /// a few tries (a restart may then find the record: Running it, "When the disk fails").
    @Test func aChangeWhoseCutFailsIsAnsweredAfterAFewTries() throws {
        let directory = NSTemporaryDirectory() + "disk-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let broken = Atomic<Bool>(false)
        let sandbox = try Self.launch(directory, files: JournalFiles { _ in broken.load(ordering: .relaxed) ? EIO : nil })
        defer { sandbox.stop() }
        #expect(try Fixture.create(sandbox, "w-1").status == 200)
        broken.store(true, ordering: .relaxed)
        let refused = try Fixture.create(sandbox, "w-2")
        #expect(refused.status == 503 && refused.bodyText.contains("Input/output error (EIO)"), "\(refused.bodyText)")
        #expect(try !Self.has(sandbox, "w-2"))
        broken.store(false, ordering: .relaxed)
        // Once the disk is back, a change is taken. One that comes while the failed cut is still
        // being tried again is a 503 with Retry-After, which a client retries: so does this test
        // (a busy machine's thread may still be healing when it comes).
        var answer = try Fixture.create(sandbox, "w-3")
        #expect(try Waiting.until {
            guard answer.status == 503, answer.headers["Retry-After"] != nil else { return true }
            answer = try Fixture.create(sandbox, "w-3")
            return false
        })
        #expect(answer.status == 200, "\(answer.bodyText)")
    }

    @Test func everyFileOperationOfTheWorkloadFailedOnceThenUntilSpaceReturns() throws {
        let operations = try Self.run(failing: nil, persistent: false).calls
        #expect(operations > 20)  // creates, advances, a hold, a restore and compactions write and sync
        var injected = 0
        for call in 1 ... operations {
            injected += try Self.run(failing: call, persistent: false).failed
            injected += try Self.run(failing: call, persistent: true).failed
        }
        #expect(injected >= 2 * operations)
        print("DiskFailureTests: \(operations) file operations in the workload, \(injected) faults injected over \(2 * operations) runs")
    }
}
