@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxPersistence
import TestHelpers
import Testing

/// `GET /sandbox/snapshot` and `PUT /sandbox/snapshot` move the whole state between sandboxes;
/// with `--state-dir`, a restore is journaled and the journal is compacted into a snapshot.
@Suite struct SnapshotTests {
    typealias Fixture = ManualSandbox

    private static func temporaryDirectory() -> String {
        NSTemporaryDirectory() + "snapshot-\(UUID().uuidString)"
    }

    /// The journal's compactions since the start (its metric; -1 without it).
    private static func compactions(_ sandbox: Sandbox) throws -> Int {
        let metrics = try Fixture.send(sandbox, "GET", "/sandbox/metrics").bodyText
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("cashout_sandbox_journal_compactions_total ") }
        return line.flatMap { Int($0.split(separator: " ")[1]) } ?? -1
    }

    /// A world worth saving: cashouts in four states, a late return to come, a held cashout,
    /// webhooks failing with retries pending (to a port nobody listens on, which refuses any
    /// sandbox alike), a merchant and a rule added by a scenario loaded at run time.
    private static func prepare(_ sandbox: Sandbox) throws {
        let refused = "http://127.0.0.1:9/hook"
        #expect(try Fixture.create(sandbox, "o-1", url: refused).status == 200)
        #expect(try Fixture.create(sandbox, "o-2", name: "LATE REJECT 826", url: refused).status == 200)
        #expect(try Fixture.send(sandbox, "POST", "/sandbox/clock/advance", #"{"by":"20s"}"#).status == 200)
        #expect(try Fixture.create(sandbox, "o-3", url: refused).status == 200)
        #expect(try Fixture.send(sandbox, "POST", "/sandbox/cashouts/1000003/actions", #"{"action":"hold"}"#).status == 200)
        #expect(try Fixture.send(sandbox, "POST", "/sandbox/scenario",
                                 #"{"name":"acme","merchants":[{"login":"acme","pass":"p","secret":"s","balance":{"USD":"10.00"}}],"#
                                 + #""bank":{"rules":[{"when":{"beneficiary_name":"SLOW"},"then":[{"after":"1d","#
                                 + #""status":"DELIVERED"}]}]}}"#).status == 200)
        #expect(try Fixture.create(sandbox, "o-4", name: "SLOW", url: refused).status == 200)
        // The hold's notification, due now, is sent by the clock driver on its own thread: an
        // advance of 0s returns once what is due has run, so the world is whole before anyone looks.
        #expect(try Fixture.send(sandbox, "POST", "/sandbox/clock/advance", #"{"by":"0s"}"#).status == 200)
    }

    @Test func aSnapshotPutIntoAnotherSandboxGivesTheSameWorldThatGoesOnTheSameWay() throws {
        let first = try Fixture.launch(nil)
        defer { first.stop() }
        try Self.prepare(first)
        let saved = try Fixture.send(first, "GET", "/sandbox/snapshot")
        #expect(saved.status == 200)
        #expect(saved.headers["Content-Type"] == "application/vnd.cashout-sandbox.snapshot")
        #expect(saved.headers["Content-Disposition"] == #"attachment; filename="cashout-sandbox-2026-01-05T09-00-20Z.snapshot""#)
        #expect(saved.body.starts(with: Array("CSJ1".utf8)))

        // Into a sandbox with a past of its own and a later clock: all of it is replaced.
        let second = try Fixture.launch(nil)
        defer { second.stop() }
        #expect(try Fixture.create(second, "other").status == 200)
        #expect(try Fixture.send(second, "POST", "/sandbox/clock/advance", #"{"by":"30d"}"#).status == 200)
        let restored = try TestHTTP.send(method: "PUT", url: "\(second.baseURL)/sandbox/snapshot", body: saved.body)
        #expect(restored.status == 200)
        #expect(restored.bodyText == #"{"cashouts":4,"clock":"2026-01-05T09:00:20Z","merchants":["sandbox_login","76561198000000001","#
                                     + #""DefaultMerchantId","acme"],"scenarios":1,"status":"restored"}"#)
        #expect(try StateDirectoryTests.state(second) == StateDirectoryTests.state(first))
        #expect(try Fixture.send(second, "GET", "/sandbox/snapshot").body == saved.body)

        // The same future: the late return, the held cashout, the scenario's slow rule, the retries.
        for sandbox in [first, second] {
            #expect(try Fixture.create(sandbox, "o-5", name: "SLOW", url: "http://127.0.0.1:9/hook").bodyText == #"{"cashout_id":"1000005"}"#)
            #expect(try Fixture.send(sandbox, "POST", "/sandbox/clock/advance", #"{"by":"2d"}"#).status == 200)
        }
        #expect(try StateDirectoryTests.state(second, cashouts: 5) == StateDirectoryTests.state(first, cashouts: 5))
        let webhooks = try Fixture.send(second, "GET", "/sandbox/webhooks").bodyText
        #expect(webhooks.contains("127.0.0.1:9: Connection refused") && webhooks.contains(#""state":"pending""#))
        let late = try JSON.parse(Fixture.send(second, "GET", "/sandbox/cashouts/1000002").body)
        #expect(late["status"] == "REJECTED")
        #expect(try JSON.parse(Fixture.send(second, "GET", "/sandbox/cashouts/1000005").body)["status"] == "DELIVERED")
    }

    @Test func aRestoreIsJournaledAndSurvivesARestart() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = try Fixture.launch(nil)
        defer { source.stop() }
        try Self.prepare(source)
        let saved = try Fixture.send(source, "GET", "/sandbox/snapshot").body

        let first = try Fixture.launch(directory)
        #expect(try Fixture.create(first, "before").status == 200)
        #expect(try TestHTTP.send(method: "PUT", url: "\(first.baseURL)/sandbox/snapshot", body: saved).status == 200)
        #expect(try Fixture.create(first, "after").bodyText == #"{"cashout_id":"1000005"}"#)
        first.bank.runDueEvents()  // the restored webhooks that were on their way go out again at once: their answers first
        let before = try StateDirectoryTests.state(first, cashouts: 5)
        first.stop()

        let second = try Fixture.launch(directory)
        defer { second.stop() }
        #expect(second.journalRecovery?.problem == nil)
        #expect(try StateDirectoryTests.state(second, cashouts: 5) == before)
    }

    /// With a small compaction size, the journal is rewritten as a snapshot again and again while
    /// cashouts are made; a restart from it gives the same state.
    @Test func aCompactedJournalStartsWithASnapshotAndReplaysToTheSameState() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let small = { (configuration: inout Sandbox.Configuration) in configuration.journalCompactionBytes = 8 * 1024 }
        let first = try Fixture.launch(directory, change: small)
        try Self.prepare(first)
        for index in 0 ..< 60 {
            #expect(try Fixture.create(first, "bulk-\(index)").status == 200)
            if index % 10 == 0 { #expect(try Fixture.send(first, "POST", "/sandbox/clock/advance", #"{"by":"7s"}"#).status == 200) }
        }
        #expect(try Self.compactions(first) >= 2)
        let before = try StateDirectoryTests.state(first, cashouts: 64)
        first.stop()

        let file = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/journal.log"))
        #expect(file.count < 3 * 8 * 1024 + 64 * 1024, "\(file.count) bytes")
        #expect(Array(file.prefix(8)) == JournalFormat.header)
        #expect(file.count > 17 && file[16] == 3, "the first record is a snapshot's")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/journal.log.compacting"))

        let second = try Fixture.launch(directory, change: small)
        defer { second.stop() }
        #expect(second.journalRecovery?.problem == nil)
        #expect(try StateDirectoryTests.state(second, cashouts: 64) == before)
        #expect(try Fixture.create(second, "next").bodyText == #"{"cashout_id":"1000065"}"#)
    }

    /// A compaction whose snapshot is larger than a journal record (1 MiB) writes it a part at a
    /// time; a restart from it gives every cashout back.
    @Test func aCompactionLargerThanARecordIsWrittenInParts() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let compacting = { (configuration: inout Sandbox.Configuration) in configuration.journalCompactionBytes = 256 * 1024 }
        let first = try Fixture.launch(directory, change: compacting)
        try Self.prepare(first)
        func snapshotBytes() throws -> Int {
            var limits = HTTPLimits()
            limits.maxBodyBytes = 64 << 20
            return try TestHTTP.send(method: "GET", url: "\(first.baseURL)/sandbox/snapshot", limits: limits).body.count
        }
        // Cashouts until a compaction ran with more than 1 MiB of state to write.
        var (made, largeSince) = (0, Int?.none)
        while made < 40_000 {
            if let largeSince, try Self.compactions(first) > largeSince { break }
            for _ in 0 ..< 500 {
                #expect(try Fixture.create(first, "big-\(made)").status == 200)
                made += 1
            }
            if largeSince == nil, try snapshotBytes() > 1 << 20 { largeSince = try Self.compactions(first) }
        }
        #expect(largeSince != nil && made < 40_000, "a compaction of more than 1 MiB ran (\(made) cashouts)")
        // What a restart must give back (the lists of every cashout are too large to compare whole).
        func state(_ sandbox: Sandbox) throws -> [String] {
            let counts = try Fixture.send(sandbox, "GET", "/sandbox/metrics").bodyText.split(separator: "\n")
                .filter { $0.hasPrefix("cashout_sandbox_cashouts{") }.joined(separator: "\n")
            return try ["/sandbox/merchants", "/sandbox/clock"].map { try Fixture.send(sandbox, "GET", $0).bodyText }
                + [1_000_001, 1_000_002, 1_000_003, 1_000_004, 1_000_005, 1_000_004 + made].map {
                    try Fixture.send(sandbox, "GET", "/sandbox/cashouts/\($0)").bodyText
                } + [counts]
        }
        let before = try state(first)
        #expect(before[7].contains("big-\(made - 1)"), "the last cashout made")
        first.stop()

        let second = try Fixture.launch(directory, change: compacting)
        defer { second.stop() }
        #expect(second.journalRecovery?.problem == nil)
        #expect(try state(second) == before)
    }

    @Test func aSnapshotLargerThanTheBodyLimitIsTakenWhileOtherBodiesAreNot() throws {
        let tight = { (configuration: inout Sandbox.Configuration) in configuration.server.limits.maxBodyBytes = 2048 }
        let first = try Fixture.launch(nil, change: tight)
        defer { first.stop() }
        for index in 0 ..< 20 { #expect(try Fixture.create(first, "o-\(index)").status == 200) }
        let saved = try Fixture.send(first, "GET", "/sandbox/snapshot").body
        #expect(saved.count > 2048)
        #expect(try TestHTTP.send(method: "PUT", url: "\(first.baseURL)/sandbox/snapshot", body: saved).status == 200)
        let scenario = #"{"name":"\#(String(repeating: "x", count: 3000))"}"#
        #expect(try Fixture.send(first, "POST", "/sandbox/scenario", scenario).status == 413)
        // Only PUT takes the larger body.
        #expect(try TestHTTP.send(method: "POST", url: "\(first.baseURL)/sandbox/snapshot", body: saved).status == 413)
    }

    /// What is not a whole snapshot is refused with why, and nothing changes.
    @Test(arguments: [
        ("", "the body is not a snapshot (a snapshot starts with CSJ1; get one with GET /sandbox/snapshot)"),
        (#"{"cashouts":[]}"#, "the body is not a snapshot (a snapshot starts with CSJ1; get one with GET /sandbox/snapshot)"),
        ("CSJ1\u{9}\0\0\0", "a snapshot of a format this sandbox does not know (a newer sandbox took it)"),
        ("CSJ1\u{1}\0\0\0", "the snapshot is cut short: its last record is missing"),
    ])
    func whatIsNotASnapshotIsRefused(body: String, message: String) throws {
        let sandbox = try Fixture.launch(nil)
        defer { sandbox.stop() }
        #expect(try Fixture.create(sandbox, "kept").status == 200)
        let before = try StateDirectoryTests.state(sandbox, cashouts: 1)
        let response = try TestHTTP.send(method: "PUT", url: "\(sandbox.baseURL)/sandbox/snapshot", body: Array(body.utf8))
        #expect(response.status == 400)
        #expect(try JSON.parse(response.body) == ["code": 400, "message": .string(message)])
        #expect(try StateDirectoryTests.state(sandbox, cashouts: 1) == before)
    }

    @Test func aDamagedSnapshotIsRefusedWithWhereItIsDamaged() throws {
        let sandbox = try Fixture.launch(nil)
        defer { sandbox.stop() }
        try Self.prepare(sandbox)
        let saved = try Fixture.send(sandbox, "GET", "/sandbox/snapshot").body
        let put = { (body: [UInt8]) throws -> String in
            let response = try TestHTTP.send(method: "PUT", url: "\(sandbox.baseURL)/sandbox/snapshot", body: body)
            #expect(response.status == 400)
            return try JSON.parse(response.body)["message"]?.stringValue ?? ""
        }
        #expect(try put(Array(saved.dropLast(5))) == "a record of \(saved.count - 16) bytes cut short at byte 8")
        var flipped = saved
        flipped[saved.count / 2] ^= 0x20
        #expect(try put(flipped) == "a record whose checksum does not match at byte 8")
        // Well framed, but its scenario does not load here.
        var payload: [UInt8] = []
        saved.withUnsafeBytes { file in
            _ = JournalFormat.forEachRecord(in: file, from: JournalFormat.header.count) { payload = Array($0) }
        }
        let key = Array(#""balance""#.utf8)
        let at = try #require((0 ... payload.count - key.count).first { Array(payload[$0 ..< $0 + key.count]) == key })
        payload.replaceSubrange(at ..< at + key.count, with: Array(#""balancX""#.utf8))
        var edited = JournalFormat.header
        JournalFormat.appendRecord(to: &edited) { $0 += payload }
        #expect(try put(edited).hasPrefix("scenario 1 of the snapshot does not load here: "))
    }

    /// A snapshot over 1 MiB goes in several records; without its last one it is refused.
    @Test func aLargeSnapshotTravelsInPartsAndACutOneIsRefused() throws {
        let first = try Fixture.launch(nil)
        defer { first.stop() }
        let note = String(repeating: "n", count: 400)
        for index in 0 ..< 2500 {
            var request = PayoutRequest(dialect: "d24", account: "sandbox_login", reference: "bulk-\(index)", country: "BR", currency: "USD",
                                        amount: Money("1.00")!)
            request.fields["comments"] = note
            _ = try first.bank.createPayout(request)
        }
        var large = HTTPLimits()
        large.maxBodyBytes = 64 << 20
        let get = { (sandbox: Sandbox, path: String) throws -> [UInt8] in
            try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)\(path)", limits: large).body
        }
        let saved = try get(first, "/sandbox/snapshot")
        #expect(saved.count > 1 << 20)
        let firstRecord = 8 + 8 + Int(UInt32(saved[8]) | UInt32(saved[9]) << 8 | UInt32(saved[10]) << 16 | UInt32(saved[11]) << 24)
        #expect(firstRecord < saved.count, "more than one record")

        let second = try Fixture.launch(nil)
        defer { second.stop() }
        let cut = try TestHTTP.send(method: "PUT", url: "\(second.baseURL)/sandbox/snapshot", body: Array(saved.prefix(firstRecord)))
        #expect(cut.status == 400)
        #expect(try JSON.parse(cut.body)["message"] == "the snapshot is cut short: its last record is missing")
        #expect(try TestHTTP.send(method: "PUT", url: "\(second.baseURL)/sandbox/snapshot", body: saved).status == 200)
        #expect(try get(second, "/sandbox/cashouts") == get(first, "/sandbox/cashouts"))
        #expect(try get(second, "/sandbox/snapshot") == saved)
    }

    /// A snapshot is decoded as its parts arrive; one that turns out broken in a later part is
    /// refused whole, and what the first parts held is not put in force.
    @Test func aSnapshotBrokenInALaterPartChangesNothing() throws {
        let first = try Fixture.launch(nil)
        defer { first.stop() }
        try Self.prepare(first)
        let bytes = try Self.onlyPart(of: Fixture.send(first, "GET", "/sandbox/snapshot").body)
        // Its bytes in two parts, the second cut in its middle and said to be the last.
        let half = bytes.count / 2
        var broken = JournalFormat.header
        JournalFormat.appendRecord(to: &broken) { $0 += [3, 1] + bytes[..<half] }
        JournalFormat.appendRecord(to: &broken) { $0 += [3, 2] + bytes[half ..< half + (bytes.count - half) / 2] }

        let second = try Fixture.launch(nil)
        defer { second.stop() }
        #expect(try Fixture.create(second, "kept").status == 200)
        let before = try StateDirectoryTests.state(second, cashouts: 1)
        let response = try TestHTTP.send(method: "PUT", url: "\(second.baseURL)/sandbox/snapshot", body: broken)
        #expect(response.status == 400)
        let message = try JSON.parse(response.body)["message"]?.stringValue ?? ""
        let offset = message.hasPrefix("snapshot byte ") ? Int(message.dropFirst(14).prefix { $0 != ":" }) : nil
        #expect(offset.map { $0 >= half } == true, "found in the second part: \(message)")
        #expect(try StateDirectoryTests.state(second, cashouts: 1) == before)
        #expect(second.bank.payouts().count == 1)
    }

    /// The bytes of a snapshot file of one part (after its kind and flags).
    private static func onlyPart(of file: [UInt8]) throws -> [UInt8] {
        var payloads: [[UInt8]] = []
        file.withUnsafeBytes { file in
            _ = JournalFormat.forEachRecord(in: file, from: JournalFormat.header.count) { payloads.append(Array($0)) }
        }
        #expect(payloads.count == 1 && payloads[0].prefix(2) == [3, 3], "one part, the first and the last")
        return Array(try #require(payloads.first).dropFirst(2))
    }

    /// The parts a snapshot is cut into are its writer's business: one whose bytes end before its
    /// last (empty) part restores, and a part with bytes after its end is refused.
    @Test func aSnapshotEndsWhereItsBytesEndWhateverItsParts() throws {
        let sandbox = try Fixture.launch(nil)
        defer { sandbox.stop() }
        #expect(try Fixture.create(sandbox, "o-1").status == 200)
        let bytes = try Self.onlyPart(of: Fixture.send(sandbox, "GET", "/sandbox/snapshot").body)
        let file = { (last: [UInt8]) -> [UInt8] in
            var file = JournalFormat.header
            JournalFormat.appendRecord(to: &file) { $0 += [3, 1] + bytes }
            JournalFormat.appendRecord(to: &file) { $0 += [3, 2] + last }
            return file
        }
        let put = { (body: [UInt8]) throws -> HTTPResponse in
            try TestHTTP.send(method: "PUT", url: "\(sandbox.baseURL)/sandbox/snapshot", body: body)
        }
        #expect(try put(file([])).status == 200)
        let refused = try put(file([0]))
        #expect(refused.status == 400)
        #expect(try JSON.parse(refused.body)["message"] == .string("snapshot byte \(bytes.count): bytes after the snapshot"))
    }

    /// On a real-time clock a restart goes on from now, as it does without compaction: the
    /// snapshot a compacted journal starts with does not take the clock back to when it was taken.
    @Test func aRealClockRestartedFromACompactedJournalGoesOnFromNow() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let realAndSmall = { (configuration: inout Sandbox.Configuration) in
            configuration.clockMode = .real
            configuration.clockStart = nil
            configuration.journalCompactionBytes = 4096
        }
        let first = try Fixture.launch(directory, change: realAndSmall)
        for index in 0 ..< 40 { #expect(try Fixture.create(first, "o-\(index)", url: "http://127.0.0.1:9/hook").status == 200) }
        let metrics = try Fixture.send(first, "GET", "/sandbox/metrics").bodyText
        #expect(!metrics.contains("cashout_sandbox_journal_compactions_total 0\n"))
        first.stop()
        usleep(2_000_000)
        let second = try Fixture.launch(directory, change: realAndSmall)
        defer { second.stop() }
        let wall = VirtualTime(milliseconds: Int64(Date().timeIntervalSince1970 * 1000))
        #expect(second.clock.now.milliseconds >= wall.milliseconds - 1000, "\(second.clock.now) against the wall clock's \(wall)")
    }
}
