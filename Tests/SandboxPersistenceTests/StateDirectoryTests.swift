@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxSupport
@testable import SandboxWire
@testable import SandboxPersistence
import TestHelpers
import Synchronization
import Testing

/// `--state-dir`: a sandbox started on the folder another one used carries on where it stopped:
/// the same cashouts, balances, ledger, webhooks, scheduled bank steps, merchants and clock.
@Suite struct StateDirectoryTests {
    /// What `count` clients at once, each on its own thread, say of what they got (`client`: its
    /// number), in the order the answers came. Real threads: Dispatch's pool could run fewer at once.
    static func fromClients(_ count: Int, _ client: @escaping @Sendable (_ client: Int) -> [String]) -> [String] {
        let answers = Mutex<[String]>([])
        let finished = DispatchGroup()
        for number in 0 ..< count {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                let said = client(number)
                answers.withLock { $0 += said }
            }
        }
        finished.wait()
        return answers.withLock { $0 }
    }

    /// Everything a user can read back, as the admin API shows it.
    static func state(_ sandbox: Sandbox, cashouts: Int = 4) throws -> [String] {
        try ["/sandbox/cashouts", "/sandbox/ledger", "/sandbox/webhooks", "/sandbox/merchants", "/sandbox/clock"].map {
            try ManualSandbox.send(sandbox, "GET", $0).bodyText
        } + (1_000_001 ..< 1_000_001 + cashouts).map { try ManualSandbox.send(sandbox, "GET", "/sandbox/cashouts/\($0)").bodyText }
    }

    @Test func aRestartedSandboxCarriesOnWhereTheLastOneStopped() throws {
        let directory = NSTemporaryDirectory() + "state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try ManualSandbox.launch(directory)
        #expect(try ManualSandbox.create(first, "o-1").bodyText == #"{"cashout_id":"1000001"}"#)
        #expect(try ManualSandbox.create(first, "o-2", name: "LATE REJECT 826").status == 200)
        #expect(try ManualSandbox.send(first, "POST", "/sandbox/clock/advance", #"{"by":"20s"}"#).status == 200)
        #expect(try ManualSandbox.create(first, "o-3").status == 200)
        #expect(try ManualSandbox.send(first, "POST", "/sandbox/cashouts/1000003/actions", #"{"action":"hold"}"#).status == 200)
        // The hold's notification is due now, sent by the clock driver on its own thread: an advance
        // of 0s returns once it is answered, before the sink's script changes and anyone looks.
        #expect(try ManualSandbox.send(first, "POST", "/sandbox/clock/advance", #"{"by":"0s"}"#).status == 200)
        #expect(try ManualSandbox.send(first, "PUT", "/sandbox/sink/shop", #"{"answers":[500]}"#).status == 204)
        #expect(try ManualSandbox.send(first, "POST", "/sandbox/scenario",
                              #"{"merchants":[{"login":"acme","pass":"p","secret":"s","balance":{"USD":"10.00"}}]}"#).status == 200)
        #expect(try ManualSandbox.create(first, "o-4").status == 200)
        let before = try Self.state(first)
        // Each group commit's fdatasync is timed.
        let metrics = try ManualSandbox.send(first, "GET", "/sandbox/metrics").bodyText.split(separator: "\n")
        let count = metrics.first { $0.hasPrefix("cashout_sandbox_journal_fsync_seconds_count ") }.flatMap { Int($0.split(separator: " ")[1]) }
        #expect((count ?? 0) >= 5)
        #expect(metrics.contains("cashout_sandbox_journal_fsync_seconds_bucket{le=\"+Inf\"} \(count ?? -1)"))
        first.stop()

        let second = try ManualSandbox.launch(directory)
        defer { second.stop() }
        #expect(second.journalRecovery?.problem == nil)
        #expect((second.journalRecovery?.records ?? 0) > 10)
        #expect(try Self.state(second) == before)
        // It goes on: the late return an hour after completion, the held cashout still held.
        #expect(try ManualSandbox.send(second, "POST", "/sandbox/clock/advance", #"{"by":"2h"}"#).status == 200)
        let late = try JSON.parse(ManualSandbox.send(second, "GET", "/sandbox/cashouts/1000002").body)
        #expect(late["status"] == "REJECTED")
        #expect(try JSON.parse(ManualSandbox.send(second, "GET", "/sandbox/cashouts/1000003").body)["status"] == "ON_HOLD")
        #expect(try ManualSandbox.create(second, "o-5").bodyText == #"{"cashout_id":"1000005"}"#)
    }

    /// A manual clock moves only when told, restarts included: started again later (here with the
    /// clock a day on, as `serve --clock manual` starts at now), it is where the journal left it,
    /// and no step falls due by itself. A journal with no time in it leaves the clock at its start.
    /// A journal of format 2 (written by 0.2.x, before accounts kept their API's settings:
    /// Fixtures/journal-format-2.log, two cashouts and a merchant `acme` made over HTTP) starts,
    /// shows what 0.2.x showed byte for byte (and, of what decided each cashout, that it was
    /// decided before the sandbox recorded it), is rewritten in the current format before anything
    /// is appended, and goes on; a newer format is refused, untouched. (Format 1, the report's
    /// journal, is started by EndToEndTests' CrashRecoveryTests.)
    @Test func aFormatTwoJournalIsReadAndRewrittenAndANewerOneIsRefused() throws {
        let directory = NSTemporaryDirectory() + "state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = "\(directory)/journal.log"
        try FileManager.default.copyItem(atPath: fixtures.appendingPathComponent("journal-format-2.log").path, toPath: path)
        // What 0.2.x showed, and the members the admin API has added since: the payout's API, and
        // what decided its fate (not known), and webhook chaos (none here).
        let added = [#""dialect":"d24","#, #""decided_by":{"kind":"unknown","summary":"decided before this sandbox recorded it"},"#,
                     #""chaos":null,"#, #","retry":false"#, #""chaos_plan":null,"#]
        let shown = { (sandbox: Sandbox) throws -> [String] in
            try ["/sandbox/cashouts/1000002", "/sandbox/merchants", "/sandbox/ledger"].map { path in
                var text = try ManualSandbox.send(sandbox, "GET", path).bodyText
                if path.hasPrefix("/sandbox/cashouts/") { #expect(added.allSatisfy(text.contains)) }
                for member in added { text = text.replacingOccurrences(of: member, with: "") }
                return text
            }
        }
        let before = try ["format-2-cashout-1000002.json", "format-2-merchants.json", "format-2-ledger.json"].map {
            try String(contentsOf: fixtures.appendingPathComponent($0), encoding: .utf8)
        }

        let second = try ManualSandbox.launch(directory)
        #expect(try shown(second) == before)
        #expect(second.bank.payouts().map(\.dialect) == ["d24", "d24"])
        second.stop()
        let rewritten = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(rewritten.prefix(8)) == JournalFormat.header)
        let third = try ManualSandbox.launch(directory)
        #expect(try shown(third) == before)
        #expect(try ManualSandbox.create(third, "o-3").bodyText == #"{"cashout_id":"1000003"}"#)  // its credentials still sign
        third.stop()

        var newer = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let unknown = JournalFormat.currentVersion + 1
        newer.replaceSubrange(0 ..< 8, with: JournalFormat.header(version: unknown))
        try Data(newer).write(to: URL(fileURLWithPath: path))
        #expect(throws: JournalError.unreadableVersion(path: path, version: unknown)) { try ManualSandbox.launch(directory) }
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == newer)
        #expect(JournalError.unreadableVersion(path: path, version: unknown).description == "\(path) is in journal format \(unknown), which a newer "
            + "CashoutSandbox wrote; this one reads formats 1-\(JournalFormat.currentVersion). Start that version on it, or start this one on an "
              + "empty --state-dir "
            + "(the folder is left as it is)")
    }

    @Test func aManualClockGoesOnFromTheLastTimeJournaledNotFromNow() throws {
        let directory = NSTemporaryDirectory() + "state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try ManualSandbox.launch(directory)
        #expect(try ManualSandbox.create(first, "o-1").status == 200)
        #expect(try ManualSandbox.send(first, "POST", "/sandbox/clock/advance", #"{"by":"3s"}"#).status == 200)
        first.stop()

        let dayLater = { (configuration: inout Sandbox.Configuration) in configuration.clockStart = VirtualTime(iso8601: "2026-01-06T09:00:00Z") }
        let second = try ManualSandbox.launch(directory, change: dayLater)
        #expect(try JSON.parse(ManualSandbox.send(second, "GET", "/sandbox/clock").body)["now"] == "2026-01-05T09:00:03Z")
        #expect(try JSON.parse(ManualSandbox.send(second, "GET", "/sandbox/cashouts/1000001").body)["status"] == "PENDING")
        second.stop()

        let empty = NSTemporaryDirectory() + "state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: empty) }
        try ManualSandbox.launch(empty).stop()
        let third = try ManualSandbox.launch(empty, change: dayLater)
        defer { third.stop() }
        #expect(try JSON.parse(ManualSandbox.send(third, "GET", "/sandbox/clock").body)["now"] == "2026-01-06T09:00:00Z")
    }

    @Test func aTornTailIsDroppedAndReportedAndTheRestIsKept() throws {
        let directory = NSTemporaryDirectory() + "state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try ManualSandbox.launch(directory)
        #expect(try ManualSandbox.create(first, "o-1").status == 200)
        let before = try Self.state(first)
        first.stop()
        // A crash in the middle of a write: half a record at the end.
        let journal = FileHandle(forWritingAtPath: "\(directory)/journal.log")!
        journal.seekToEndOfFile()
        journal.write(Data([40, 0, 0, 0, 1, 2, 3, 4, 0, 1, 2]))
        journal.closeFile()

        let second = try ManualSandbox.launch(directory)
        defer { second.stop() }
        let recovery = try #require(second.journalRecovery)
        #expect(recovery.droppedBytes == 11)
        #expect(recovery.problem?.hasPrefix("a record of 40 bytes cut short at byte ") == true)
        #expect(try Self.state(second) == before)
        #expect(try ManualSandbox.create(second, "o-2").bodyText == #"{"cashout_id":"1000002"}"#)
    }

    /// Creates from many clients at once, each on its own connection, share syncs: each is
    /// answered, with its own cashout, and a sandbox started on the folder afterwards has every one
    /// of them, as the first showed them.
    @Test func concurrentCreatesAreEachAnsweredOnceSaved() throws {
        let directory = NSTemporaryDirectory() + "state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try ManualSandbox.launch(directory)
        let (clients, each) = (16, 8)
        let answers = Self.fromClients(clients) { client in
            (0 ..< each).map { index in
                let response = try? ManualSandbox.create(first, "c\(client)-\(index)")
                return "\(response?.status ?? 0) \(response?.bodyText.hasPrefix(#"{"cashout_id":""#) == true)"
            }
        }
        #expect(answers == Array(repeating: "200 true", count: clients * each))
        let before = try Self.state(first, cashouts: clients * each)
        first.stop()

        let second = try ManualSandbox.launch(directory)
        defer { second.stop() }
        #expect(try Self.state(second, cashouts: clients * each) == before)
    }

    /// While the disk is full, a change is answered 503 with Retry-After, saying why, and so is
    /// every change waiting with it; reads go on, the health check says so, and once space returns
    /// the next change is saved, with no restart (Running it, "When the disk fails").
    @Test func changesThatCannotBeSavedAreRefusedUntilSpaceReturns() throws {
        let directory = NSTemporaryDirectory() + "state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let faults = DiskFaults()
        let sandbox = try ManualSandbox.launch(directory) { $0.journalFiles = faults.files }
        defer { sandbox.stop() }
        #expect(try ManualSandbox.create(sandbox, "saved").status == 200)
        faults.arm(at: 1, persistent: true, only: [.write])  // a full disk: cutting a file back still works
        let journalPath = "\(directory)/journal.log"
        let answers = Self.fromClients(4) { client in
            let response = try? ManualSandbox.create(sandbox, "lost-\(client)")
            return ["\(response?.status ?? 0) \(response?.headers["Retry-After"] ?? "-") \(response?.bodyText ?? "")"]
        }
        let refused = #"503 1 {"code":503,"message":"the change could not be saved: write \#(journalPath): No space left on device "#
            + #"(ENOSPC); nothing was changed, try again later"}"#
        #expect(Set(answers) == [refused], "\(answers)")
        #expect(try ManualSandbox.send(sandbox, "GET", "/sandbox/cashouts/1000001").status == 200)
        #expect(try ManualSandbox.send(sandbox, "GET", "/sandbox/cashouts/1000002").status == 404)
        let health = try ManualSandbox.send(sandbox, "GET", "/sandbox/health")
        #expect(health.status == 503)
        let journal = try JSON.parse(health.body)["journal"]
        #expect(journal?["state"] == "failing" && journal?["error"]?.stringValue == "write \(journalPath): No space left on device (ENOSPC)")
        #expect(journal?["since"]?.stringValue?.hasSuffix("Z") == true)
        let metrics = try ManualSandbox.send(sandbox, "GET", "/sandbox/metrics").bodyText
        #expect(metrics.contains("cashout_sandbox_journal_failing 1\n"))

        faults.lift()
        #expect(try ManualSandbox.create(sandbox, "lost-0").bodyText == #"{"cashout_id":"1000002"}"#)
        #expect(try ManualSandbox.send(sandbox, "GET", "/sandbox/health").status == 200)
        let after = try ManualSandbox.send(sandbox, "GET", "/sandbox/metrics").bodyText
        #expect(after.contains("cashout_sandbox_journal_failing 0\n") && !after.contains("cashout_sandbox_journal_failed_writes_total 0\n"))
    }

    /// A folder the sandbox cannot use stops the start, naming the folder and the cause, and
    /// leaves nothing it made: a new folder is removed, a journal already there is left as it was.
    @Test func aFolderThatCannotBeUsedStopsTheStartAndLeavesNothing() throws {
        let base = NSTemporaryDirectory() + "state-bad-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        func refusal(_ directory: String, _ files: JournalFiles) -> StateDirectoryError? {
            do {
                _ = try ManualSandbox.launch(directory) { $0.journalFiles = files }
                return nil
            } catch {
                return error as? StateDirectoryError
            }
        }
        let readOnly = JournalFiles { $0 == .open ? EROFS : nil }
        let full = JournalFiles { $0 == .write ? ENOSPC : nil }
        #expect(refusal("\(base)/new", readOnly)?.description == "state directory \(base)/new: cannot be made: Read-only file system (EROFS)")
        #expect(refusal("\(base)/new", full)?.description
            == "state directory \(base)/new: write \(base)/new/journal.log: No space left on device (ENOSPC)")
        #expect(!FileManager.default.fileExists(atPath: "\(base)/new"))
        // A journal of a sandbox that ran before, on a disk now full.
        let used = try ManualSandbox.launch("\(base)/used")
        #expect(try ManualSandbox.create(used, "o-1").status == 200)
        used.stop()
        let journal = try Data(contentsOf: URL(fileURLWithPath: "\(base)/used/journal.log"))
        #expect(refusal("\(base)/used", full)?.cause == "write \(base)/used/journal.log: No space left on device (ENOSPC)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(base)/used/journal.log")) == journal)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(base)/used") == ["journal.log"])
        #expect(FileManager.default.createFile(atPath: "\(base)/file", contents: Data("x".utf8)))
        #expect(refusal("\(base)/file", .system)?.cause == "it is a file, not a folder")
    }

    /// One sandbox a folder: a second one started on it is refused until the first stops.
    @Test func aFolderInUseIsRefusedUntilItsSandboxStops() throws {
        let directory = NSTemporaryDirectory() + "state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try ManualSandbox.launch(directory)
        #expect(throws: StateDirectoryError(directory: directory,
                                            cause: "another sandbox is using it (stop it, or start this one on another folder)")) {
            try ManualSandbox.launch(directory)
        }
        first.stop()
        let second = try ManualSandbox.launch(directory)
        second.stop()
    }
}
