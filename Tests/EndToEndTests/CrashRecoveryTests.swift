import Dispatch
import Foundation
import Glibc
@testable import SandboxSupport
import TestHelpers
import Testing
import Synchronization

/// The Running it guide, "State directory": a state directory survives a crash. A journal that
/// version 0.1 could not start on starts; and the server killed with SIGKILL again and again while
/// every kind of journaled change is on its way starts again each time, without `--recover`, with
/// every change it answered and every ledger balanced.
@Suite struct CrashRecoveryTests {
    /// The journal of the report (16 clients creating cashouts on a manual clock advanced 5 s twice
    /// a second, killed four times), which version 0.1 refused to start on.
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/journal-cannot-start.log.gz").path

    @Test func theJournalVersion01CouldNotStartOnStartsWithEveryCashoutAndABalancedLedger() throws {
        let directory = NSTemporaryDirectory() + "crash-fixture-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Self.gunzip(Self.fixture, to: directory + "/journal.log")

        let binary = try RunningBinary(["serve", "--host", "127.0.0.1", "--port", "0", "--clock", "manual", "--log-format", "off",
                                        "--state-dir", directory])
        let url = try #require(binary.url, "the fixture journal did not start: \(binary.stderr)")
        #expect(binary.line(startingWith: "state:")?.hasPrefix("state: 228748 changes replayed") == true, "\(binary.stdout)")
        let sandbox = SandboxReader(url: url)
        try CrashChecks.settle(sandbox)
        var problems: [String] = []
        let (cashouts, merchants) = try CrashChecks.ledger(sandbox, &problems)
        // The journal did not record what decided a cashout: every one says unknown.
        CrashChecks.decidedBy(cashouts, journaledBeforeIt: true, &problems)
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        var statuses: [String: Int] = [:]
        for cashout in cashouts.values { statuses[cashout["status"]?.stringValue ?? "", default: 0] += 1 }
        #expect(cashouts.count == 34847)
        #expect(statuses == ["COMPLETED": 31144, "DELIVERED": 2338, "PENDING": 1365])
        #expect(merchants.first { $0["login"] == "sandbox_login" }?["balance"] == "940760.10")
        // The clock is at the last time journaled.
        #expect(try sandbox.get("/sandbox/clock")["now"] == "2026-11-22T07:59:26Z")
        #expect(binary.terminate() == 0)
    }

    /// Rounds of load are this many: each is killed, restarted and checked.
    static let rounds = 7
    /// Load clients beside the clock client and the admin client.
    static let clients = 4

    /// `serve --clock manual --state-dir DIR --compact-after 256KiB --scenario FILE` (the scenario
    /// scripts the built-in sink `flaky` and webhook chaos of every kind), killed with SIGKILL in
    /// each of ``rounds`` rounds of load (``CrashLoad``): D24 creates (magic names for every fate,
    /// a rule loaded this round; notifications to `flaky`, to a closed port where every attempt
    /// fails and is retried, to a receiver that answers in 10-80 ms), cancels, holds, releases,
    /// forced actions, redeliveries; Mannco cashouts and Payoneer relinked through its link page;
    /// PayoutService Creates, repeats, Stages and Transfers, links and their pages, recipients and
    /// accounts, Voids; clock advances by 5 s, to a time and to the next event; scenario loads,
    /// sink scripts, merchant updates; every third round a snapshot GET and PUT back; compactions.
    /// Each round is killed at a random moment once its load has made enough of every client's
    /// changes (never after a fixed time: a slow machine makes the rounds longer, never emptier),
    /// and the last once every kind of change was answered, the journal compacted, a notification
    /// retried and a chaos delivery made. Every restart must start (no `--recover`) and show
    /// everything answered so far (``CrashChecks/restart(_:_:lastClock:round:_:)``).
    @Test func everyRestartAfterASigkillUnderLoadKeepsEveryAnsweredChangeWithLedgersBalanced() throws {
        let folder = NSTemporaryDirectory() + "crash-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let (directory, scenario) = (folder + "/state", folder + "/scenario.json")
        try CrashLoad.scenario.serializedString().write(toFile: scenario, atomically: true, encoding: .utf8)
        let arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--clock", "manual", "--log-format", "off", "--state-dir", directory,
                         "--compact-after", "262144", "--scenario", scenario]
        let receiver = try SlowReceiver()
        defer { receiver.stop() }
        var rng = SeededGenerator(seed: 1)
        let run = CrashRun()

        var server = try RunningBinary(arguments)
        var url = try #require(server.url, "the first start failed: \(server.stderr)")
        try SandboxReader(url: url).send("PUT", "/sandbox/merchants/\(CrashLoad.updated)", ["pass": "p", "secret": "s"], expecting: 201)
        var (lastClock, compacted, last) = ("", 0, CrashChecks.Restart())
        for round in 1 ... Self.rounds {
            let port = SandboxReader(url: url).port
            let (stop, tried, group) = (Latch(), Latch(), DispatchGroup())
            let load = CrashLoad(port: port, run: run, stop: stop, round: round, slowURL: receiver.url)
            let answeredBefore = run.answered(Change.clientKinds), ticksBefore = run.answered([.advanceBy])
            for client in 0 ..< Self.clients {
                let (seed, prefix) = (rng.next(), "r\(round)c\(client)")
                startThread(in: group) { load.client(seed: seed, prefix: prefix) }
            }
            let (tickerSeed, adminSeed, snapshot) = (rng.next(), rng.next(), round % 3 == 0)
            startThread(in: group) { load.ticker(seed: tickerSeed) }
            startThread(in: group) { load.admin(seed: adminSeed, snapshot: snapshot, tried: tried) }

            // Killed at a random moment past the round's least load: 40 client changes answered,
            // an advance, the admin's first steps (the snapshot's, in a snapshot round).
            let earliest = ContinuousClock.now + .milliseconds(Int.random(in: 300 ... 1200, using: &rng))
            var coverage = Coverage(directory: directory, sandbox: SandboxReader(url: url))
            let ready = Waiting.until {
                guard ContinuousClock.now >= earliest, tried.isOpen, run.answered(Change.clientKinds) >= answeredBefore + 40,
                      run.answered([.advanceBy]) > ticksBefore else { return false }
                return round < Self.rounds || coverage.complete(run)
            }
            server.kill(SIGKILL)
            stop.open()
            #expect(group.wait(timeout: .now() + .seconds(Waiting.seconds)) == .success, "round \(round): a client never stopped")
            #expect(server.exitStatus() != nil, "round \(round): the server outlived SIGKILL")
            guard ready else {
                Issue.record("round \(round): the load never reached the kill: \(coverage.missing(run))")
                return
            }

            server = try RunningBinary(arguments)
            url = try #require(server.url, "round \(round): the restart failed: \(server.stderr)")
            let log = run.log.withLock { $0 }
            last = try CrashChecks.restart(SandboxReader(url: url), log, lastClock: lastClock, round: round, &rng)
            lastClock = last.clock
            // An update on its way at the kill is there or not: from now on the value shown is the one to keep.
            run.log.withLock { $0.update = (last.updatedLimit, nil) }
            compacted += Coverage.startsWithSnapshot(directory) ? 1 : 0
            for problem in last.problems.prefix(10) { Issue.record("round \(round): \(problem)") }
        }
        #expect(server.terminate() == 0)
        let log = run.log.withLock { $0 }
        #expect(log.unexpected.isEmpty, "unexpected answers: \(log.unexpected.prefix(10))")
        #expect(Change.allCases.filter { log.answered[$0, default: 0] == 0 }.isEmpty, "never answered, so not tested: \(log.answered)")
        #expect(compacted > 0, "no restart started from a compacted journal")
        #expect(last.retried > 0, "no notification was retried")
        #expect(last.chaos > 0, "no webhook chaos delivery was made")
    }

    /// What the last round waits for before its kill, so that every run tests all of it.
    private struct Coverage {
        let directory: String
        let sandbox: SandboxReader
        private var seenWebhooks = (retried: false, chaos: false)
        private var lastLook = ContinuousClock.now - .seconds(1)

        init(directory: String, sandbox: SandboxReader) {
            (self.directory, self.sandbox) = (directory, sandbox)
        }

        /// Whether the journal was compacted: its first record (after the 8-byte header) is a snapshot's (kind 3).
        static func startsWithSnapshot(_ directory: String) -> Bool {
            guard let file = FileHandle(forReadingAtPath: directory + "/journal.log") else { return false }
            defer { try? file.close() }
            let head = (try? file.read(upToCount: 17)) ?? Data()
            return head.count == 17 && head[16] == 3
        }

        /// Every kind of change answered, the journal compacted, a notification retried and a
        /// webhook chaos delivery made (the webhooks read at most twice a second).
        mutating func complete(_ run: CrashRun) -> Bool {
            guard Change.allCases.allSatisfy({ run.answered([$0]) > 0 }), Self.startsWithSnapshot(directory) else { return false }
            if !(seenWebhooks.retried && seenWebhooks.chaos) && ContinuousClock.now - lastLook >= .milliseconds(500) {
                lastLook = ContinuousClock.now
                let attempts = ((try? sandbox.get("/sandbox/webhooks"))?["webhooks"]?.elements ?? []).flatMap { $0["attempts"]?.elements ?? [] }
                seenWebhooks.retried = seenWebhooks.retried || attempts.contains { $0["retry"] == true }
                seenWebhooks.chaos = seenWebhooks.chaos || attempts.contains { !($0["chaos"]?.isNull ?? true) }
            }
            return seenWebhooks.retried && seenWebhooks.chaos
        }

        func missing(_ run: CrashRun) -> String {
            let kinds = Change.allCases.filter { run.answered([$0]) == 0 }.map(\.rawValue)
            return "never answered: \(kinds); compacted: \(Self.startsWithSnapshot(directory)); "
                + "a retried notification seen: \(seenWebhooks.retried), a chaos delivery: \(seenWebhooks.chaos)"
        }
    }

    /// Decompresses the gzip file `source` into `target` with `gzip -dc`.
    static func gunzip(_ source: String, to target: String) throws {
        #expect(FileManager.default.createFile(atPath: target, contents: nil))
        let output = try #require(FileHandle(forWritingAtPath: target))
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc", source]
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "gzip -dc \(source) failed")
    }
}
