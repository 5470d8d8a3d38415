import Foundation
import Glibc
@testable import SandboxPersistence
import Synchronization
import Testing

/// A fresh folder under the system's temporary directory, removed by `remove()`.
private struct Folder {
    let path: String
    init() {
        var template = Array("\(NSTemporaryDirectory())/journal-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

private func open(_ path: String) throws -> (Journal, Journal.Recovery, [String]) {
    var payloads: [String] = []
    let (journal, recovery) = try Journal.open(path: path) { payload, _ in payloads.append(String(decoding: payload, as: UTF8.self)) }
    return (journal, recovery, payloads)
}

/// Appends `texts` and stops cleanly: the file ends with the last record.
private func write(_ texts: [String], to path: String) throws {
    let (journal, _, _) = try open(path)
    for text in texts { journal.append { $0 += Array(text.utf8) } }
    #expect(journal.waitUntilDurable() == nil)
    journal.trimReservedSpace()
}

private func fileSize(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
}

struct CRC32Tests {
    @Test func matchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }

    /// Python's zlib.crc32 on the same bytes, every length from 0 to 40 (both code paths and their seam).
    @Test func agreesWithPythonsZlib() throws {
        let inputs = (0 ... 40).map { length in (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length) } }
        let script = "import sys, zlib\nfor line in sys.stdin: print(zlib.crc32(bytes.fromhex(line.strip())))"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let (input, output) = (Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(inputs.map { $0.map { String(format: "%02x", $0) }.joined() + "\n" }.joined().utf8))
        input.fileHandleForWriting.closeFile()
        let python = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map { UInt32($0) }
        process.waitUntilExit()
        #expect(python == inputs.map { CRC32.checksum($0) })
        // Continuing a checksum equals checksumming the concatenation.
        #expect(CRC32.checksum(inputs[40][20...], continuing: CRC32.checksum(inputs[40][..<20])) == CRC32.checksum(inputs[40]))
    }
}

struct JournalTests {
    @Test func recordsComeBackInOrderAfterReopening() throws {
        let folder = Folder()
        defer { folder.remove() }
        let path = "\(folder.path)/journal.log"
        try write(["first", "", "third \u{1F4B8}"], to: path)
        try write(["fourth"], to: path)
        let (_, recovery, payloads) = try open(path)
        #expect(payloads == ["first", "", "third \u{1F4B8}", "fourth"])
        #expect(recovery.records == 4 && recovery.validBytes == 8 + 4 * 8 + 5 + 0 + 10 + 6)
        #expect(recovery.droppedBytes == 0 && recovery.problem == nil)
    }

    /// A crash can stop a write anywhere: cut the file at every byte of its last record and check
    /// that recovery keeps exactly the whole records, says what it dropped, and appends after them.
    @Test func aTornTailAtAnyByteIsDroppedAndReported() throws {
        let folder = Folder()
        defer { folder.remove() }
        let path = "\(folder.path)/journal.log"
        try write(["one", "two", "three"], to: path)
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let lastRecord = whole.count - (8 + 5)
        for cut in lastRecord + 1 ..< whole.count {
            try Data(whole[..<cut]).write(to: URL(fileURLWithPath: path))
            let (journal, recovery, payloads) = try open(path)
            #expect(payloads == ["one", "two"])
            #expect(recovery.records == 2 && recovery.validBytes == lastRecord && recovery.droppedBytes == cut - lastRecord)
            let header = cut - lastRecord < 8 ? "a record header cut short" : "a record of 5 bytes cut short"
            #expect(recovery.problem == "\(header) at byte \(lastRecord) after record 2; dropped the last \(cut - lastRecord) bytes (kept "
                                        + "in \(path).dropped-\(lastRecord))")
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(path).dropped-\(lastRecord)")) == Data(whole[lastRecord ..< cut]))
            journal.append { $0 += Array("four".utf8) }
            #expect(journal.waitUntilDurable() == nil)
            #expect(try open(path).2 == ["one", "two", "four"])
        }
    }

    /// The writer fills the file with zeros ahead of its records (so that a sync need not write its
    /// size): a crash leaves them, and opening cuts them off without a word; a clean stop leaves none.
    @Test func zerosReservedAheadOfTheRecordsAreCutOffSilently() throws {
        let folder = Folder()
        defer { folder.remove() }
        let path = "\(folder.path)/journal.log"
        let (journal, _, _) = try open(path)
        for text in ["one", "two"] { journal.append { $0 += Array(text.utf8) } }
        #expect(journal.waitUntilDurable() == nil)
        let records = 8 + 2 * (8 + 3)
        #expect(journal.size == records)
        // Zeros from the end of the batch that reserved them (the first record, or both) on, 64 KiB of them.
        #expect(try [8 + 11 + 64 * 1024, records + 64 * 1024].contains(fileSize(path)))
        let crashed = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))  // as a crash would leave it
        #expect(crashed[records...].allSatisfy { $0 == 0 })

        let (reopened, recovery, payloads) = try open(path)
        #expect(payloads == ["one", "two"])
        #expect(recovery.records == 2 && recovery.validBytes == records && recovery.droppedBytes == 0 && recovery.problem == nil)
        #expect(try fileSize(path) == records)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["journal.log"], "nothing kept aside")
        reopened.append { $0 += Array("three".utf8) }
        #expect(reopened.waitUntilDurable() == nil)
        reopened.trimReservedSpace()
        #expect(try fileSize(path) == records + 8 + 5, "a clean stop ends the file with its last record")
        #expect(try open(path).2 == ["one", "two", "three"])
    }

    /// A record torn by a crash before the zeros reserved after it is dropped and reported as any
    /// torn record is (the zeros with it).
    @Test func aTornRecordBeforeReservedZerosIsStillDroppedAndReported() throws {
        let folder = Folder()
        defer { folder.remove() }
        let path = "\(folder.path)/journal.log"
        try write(["one"], to: path)
        let torn: [UInt8] = [9, 0, 0, 0, 1, 2, 3, 4, 0x61, 0x62]  // a record of 9 bytes, 2 of them written
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        file.seekToEndOfFile()
        file.write(Data(torn + [UInt8](repeating: 0, count: 100)))
        file.closeFile()
        let (_, recovery, payloads) = try open(path)
        #expect(payloads == ["one"])
        #expect(recovery.validBytes == 8 + 8 + 3 && recovery.droppedBytes == torn.count + 100)
        #expect(recovery.problem?.hasPrefix("a record whose checksum does not match at byte 19 after record 1") == true, "\(recovery.problem ?? "")")
    }

    /// A flipped bit anywhere in a record (its length, checksum or payload) stops recovery there:
    /// nothing after a bad record is applied.
    @Test func aCorruptRecordAndEverythingAfterItAreDropped() throws {
        let folder = Folder()
        defer { folder.remove() }
        let path = "\(folder.path)/journal.log"
        try write(["alpha", "bravo", "charlie"], to: path)
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let second = 8 + 8 + 5
        for index in second ..< second + 8 + 5 {
            var damaged = whole
            damaged[index] ^= 0x10
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            let (_, recovery, payloads) = try open(path)
            #expect(payloads == ["alpha"], "byte \(index)")
            #expect(recovery.droppedBytes == whole.count - second)
            #expect(recovery.problem?.hasSuffix("at byte \(second) after record 1; dropped the last \(whole.count - second) bytes (kept "
                                                + "in \(path).dropped-\(second))") == true)
        }
    }

    @Test func aFileThatIsNotAJournalIsRefusedUntouched() throws {
        let folder = Folder()
        defer { folder.remove() }
        let path = "\(folder.path)/notes.txt"
        try Data("hello, world".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: JournalError.notAJournal(path)) { try open(path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "hello, world")
    }

    @Test func aRecordThatCannotBeAppliedStopsTheOpening() throws {
        struct Refused: Error {}
        let folder = Folder()
        defer { folder.remove() }
        let path = "\(folder.path)/journal.log"
        try write(["ok", "bad", "ok"], to: path)
        var seen: [String] = []
        // Where: the second record, after the 8-byte header and the first record (8 + 2 bytes).
        #expect(throws: JournalError.unreplayable(path: path, record: 2, offset: 18, reason: "Refused()")) {
            _ = try Journal.open(path: path) { payload, _ in
                seen.append(String(decoding: payload, as: UTF8.self))
                if seen.last == "bad" { throw Refused() }
            }
        }
        #expect(seen == ["ok", "bad"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 8 + 10 + 11 + 10, "the file is left as it was")
    }

    @Test func recoveringStartsFromTheRecordsBeforeOneThatCannotBeAppliedAndKeepsTheRest() throws {
        struct Refused: Error, CustomStringConvertible { var description: String { "no such payout" } }
        let folder = Folder()
        defer { folder.remove() }
        let path = "\(folder.path)/journal.log"
        try write(["ok", "bad", "ok"], to: path)
        var seen: [String] = []
        let (journal, recovery) = try Journal.open(path: path, recover: true) { payload, _ in
            seen.append(String(decoding: payload, as: UTF8.self))
            if seen.last == "bad" { throw Refused() }
        }
        #expect(seen == ["ok", "bad"])
        #expect(recovery.records == 1 && recovery.validBytes == 18 && recovery.droppedBytes == 21)
        #expect(recovery.problem == "record 2 cannot be replayed (no such payout) at byte 18 after record 1; "
            + "dropped the last 21 bytes (kept in \(path).unreplayed-18)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(path).unreplayed-18")).suffix(2) == Data("ok".utf8))
        // Appends go on after the record kept, and the next opening replays them.
        journal.append { $0 += Array("next".utf8) }
        journal.waitUntilDurable()
        var reopened: [String] = []
        _ = try Journal.open(path: path) { payload, _ in reopened.append(String(decoding: payload, as: UTF8.self)) }
        #expect(reopened == ["ok", "next"])
    }

    /// Group commit: 64 threads append at once; every callback comes once, after its record is on
    /// disk, and the file holds every record, each thread's in its own order.
    @Test func concurrentAppendsShareSyncsAndAllArrive() throws {
        let folder = Folder()
        defer { folder.remove() }
        let path = "\(folder.path)/journal.log"
        let (journal, _, _) = try open(path)
        let (threads, perThread) = (64, 50)
        let calls = Mutex([Int](repeating: 0, count: threads * perThread))
        // Real threads, all waiting at once (concurrentPerform would run one per core, and two
        // writers on two cores may never overlap).
        let finished = DispatchGroup()
        for thread in 0 ..< threads {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                appendAll(thread)
            }
        }
        @Sendable func appendAll(_ thread: Int) {
            for index in 0 ..< perThread {
                let record = thread * perThread + index
                let done = DispatchSemaphore(value: 0)
                journal.append({ $0 += Array("\(thread) \(index)".utf8) }, whenDurable: { error in
                    #expect(error == nil)
                    calls.withLock { $0[record] += 1 }
                    done.signal()
                })
                done.wait()
            }
        }
        finished.wait()
        #expect(calls.withLock { $0 } == [Int](repeating: 1, count: threads * perThread))
        #expect(journal.counts == (appended: threads * perThread, durable: threads * perThread))
        let syncs = Int(journal.syncHistogram.count)
        #expect(syncs >= 1 && syncs < threads * perThread, "\(syncs) syncs for \(threads * perThread) records")
        let payloads = try open(path).2
        #expect(payloads.count == threads * perThread)
        for thread in 0 ..< threads {
            #expect(payloads.filter { $0.hasPrefix("\(thread) ") } == (0 ..< perThread).map { "\(thread) \($0)" })
        }
    }
}

extension JournalTests {
    /// Many writers waiting at once: syncs are at least `syncInterval` apart (but the first, and
    /// the last, after which a single writer may be left), each carrying many records.
    @Test func syncsUnderConcurrentWaitersAreSpacedByTheInterval() throws {
        let folder = Folder()
        defer { folder.remove() }
        let (journal, _, _) = try open("\(folder.path)/journal.log")
        let started = DispatchTime.now().uptimeNanoseconds
        let finished = DispatchGroup()
        for _ in 0 ..< 32 {  // real threads, waiting at once whatever the number of cores
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                for _ in 0 ..< 40 {
                    let done = DispatchSemaphore(value: 0)
                    journal.append({ $0 += Array("record".utf8) }, whenDurable: { _ in done.signal() })
                    done.wait()
                }
            }
        }
        finished.wait()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let syncs = Int(journal.syncHistogram.count)
        #expect(syncs <= Int(elapsed / Journal.syncInterval) + 3, "\(syncs) syncs in \(elapsed) s")
        #expect(journal.counts == (appended: 32 * 40, durable: 32 * 40))
    }
}

/// `whenDurable(count:answers:)`: a wait for the first `count` records appended, as a server's
/// event loop makes for the answers it holds.
extension JournalTests {
    @Test func aWaitForRecordsAlreadyOnDiskIsCalledAtOnce() throws {
        let folder = Folder()
        defer { folder.remove() }
        let (journal, _, _) = try open("\(folder.path)/journal.log")
        journal.append { $0 += Array("a".utf8) }
        journal.append { $0 += Array("b".utf8) }
        #expect(journal.waitUntilDurable() == nil)
        let called = Mutex<[JournalError?]>([])
        journal.whenDurable(count: 2, answers: 1) { error in called.withLock { $0.append(error) } }
        #expect(called.withLock { $0 } == [nil], "on the calling thread, before returning")
    }

    /// Threads appending and each waiting for the count it read: every wait is called once, and
    /// never before its records are on disk.
    @Test func eachWaitIsCalledOnceItsRecordsAreOnDisk() throws {
        let folder = Folder()
        defer { folder.remove() }
        let (journal, _, _) = try open("\(folder.path)/journal.log")
        let (threads, perThread) = (8, 50)
        let early = Atomic<Int>(0)
        let calls = Atomic<Int>(0)
        let finished = DispatchGroup()
        for thread in 0 ..< threads {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                for index in 0 ..< perThread {
                    journal.append { $0 += Array("\(thread) \(index)".utf8) }
                    let ticket = journal.counts.appended
                    let done = DispatchSemaphore(value: 0)
                    journal.whenDurable(count: ticket, answers: 1) { error in
                        #expect(error == nil)
                        if journal.counts.durable < ticket { early.add(1, ordering: .relaxed) }
                        calls.add(1, ordering: .relaxed)
                        done.signal()
                    }
                    done.wait()
                }
            }
        }
        finished.wait()
        #expect(calls.load(ordering: .relaxed) == threads * perThread && early.load(ordering: .relaxed) == 0)
        #expect(try open("\(folder.path)/journal.log").2.count == threads * perThread)
    }
}

struct JournalCompactionTests {
    private static func framed(_ texts: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for text in texts { JournalFormat.appendRecord(to: &bytes) { $0 += Array(text.utf8) } }
        return bytes
    }

    @Test func theFirstRecordsReplaceWhatCameBeforeAndWhatFollowedIsKept() throws {
        let folder = Folder()
        defer { folder.remove() }
        let path = "\(folder.path)/journal.log"
        let (journal, _, _) = try open(path)
        for text in ["a1", "a2", "a3"] { journal.append { $0 += Array(text.utf8) } }
        #expect(journal.waitUntilDurable() == nil)
        #expect(journal.beginCompaction())
        #expect(!journal.beginCompaction(), "one at a time")
        journal.append { $0 += Array("b1".utf8) }
        #expect(journal.waitUntilDurable() == nil)  // b1 is in the old file already
        journal.append { $0 += Array("b2".utf8) }    // b2 maybe not yet
        let size = try journal.finishCompaction { $0(Self.framed(["snapshot of a1-a3"])) }
        journal.append { $0 += Array("c1".utf8) }
        #expect(journal.waitUntilDurable() == nil)
        #expect(size == JournalFormat.header.count + Self.framed(["snapshot of a1-a3", "b1", "b2"]).count)
        #expect(journal.size == size + Self.framed(["c1"]).count)
        #expect(try open(path).2 == ["snapshot of a1-a3", "b1", "b2", "c1"])
        #expect(!FileManager.default.fileExists(atPath: "\(path).compacting"))
        #expect(journal.beginCompaction(), "the next one may start")
    }

    /// Many records appended while the first records are written (more than one part of the
    /// copy made before the switch) follow them, in order, and so do the later ones.
    @Test func manyRecordsAppendedDuringACompactionFollowTheFirstRecords() throws {
        let folder = Folder()
        defer { folder.remove() }
        let path = "\(folder.path)/journal.log"
        let (journal, _, _) = try open(path)
        journal.append { $0 += Array("a1".utf8) }
        #expect(journal.beginCompaction())
        let kept = (0 ..< 3000).map { "b\($0) " + String(repeating: "x", count: 200) }  // about 600 KB
        for text in kept[..<1000] { journal.append { $0 += Array(text.utf8) } }
        #expect(journal.waitUntilDurable() == nil)
        try journal.finishCompaction { write in
            for text in kept[1000...] { journal.append { $0 += Array(text.utf8) } }
            write(Self.framed(["snapshot of a1"]))
        }
        journal.append { $0 += Array("c1".utf8) }
        #expect(journal.waitUntilDurable() == nil)
        #expect(try open(path).2 == ["snapshot of a1"] + kept + ["c1"])
    }

    /// The first records may come in parts, each written as it comes: the file holds them in order.
    @Test func theFirstRecordsMayComeInParts() throws {
        let folder = Folder()
        defer { folder.remove() }
        let path = "\(folder.path)/journal.log"
        let (journal, _, _) = try open(path)
        journal.append { $0 += Array("a1".utf8) }
        #expect(journal.waitUntilDurable() == nil)
        #expect(journal.beginCompaction())
        let size = try journal.finishCompaction { write in
            write(Self.framed(["part 1"]))
            write([])
            write(Self.framed(["part 2", "part 3"]))
        }
        #expect(size == JournalFormat.header.count + Self.framed(["part 1", "part 2", "part 3"]).count)
        #expect(try open(path).2 == ["part 1", "part 2", "part 3"])
    }

    /// Writers append numbered records under a lock (as the bank does) while compactions run: each
    /// compaction's first record names the last number before it, and after reopening, the numbers
    /// that follow it are exactly the later ones, in order, once each.
    @Test func compactionsDuringConcurrentAppendsLoseAndRepeatNothing() throws {
        let folder = Folder()
        defer { folder.remove() }
        let path = "\(folder.path)/journal.log"
        let (journal, _, _) = try open(path)
        let counter = Mutex(0)
        let durable = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 9) { worker in
            if worker == 0 {
                for _ in 0 ..< 5 {
                    usleep(2000)
                    let mark = counter.withLock { last -> Int in
                        #expect(journal.beginCompaction())
                        return last
                    }
                    do { try journal.finishCompaction { $0(Self.framed(["up to \(mark)"])) } } catch { Issue.record("\(error)") }
                }
                return
            }
            for _ in 0 ..< 1000 {
                let done = DispatchSemaphore(value: 0)
                counter.withLock { last in
                    last += 1
                    journal.append({ [last] in $0 += Array("\(last)".utf8) }, whenDurable: { error in
                        #expect(error == nil)
                        durable.withLock { $0 += 1 }
                        done.signal()
                    })
                }
                done.wait()
            }
        }
        #expect(durable.withLock { $0 } == 8000)
        let payloads = try open(path).2
        let mark = try #require(payloads.first.flatMap { $0.hasPrefix("up to ") ? Int($0.dropFirst(6)) : nil }, "\(payloads.prefix(3))")
        #expect(payloads.dropFirst().map { Int($0) } == Array(mark + 1 ... 8000).map { Optional($0) })
    }

    @Test func aFailedCompactionLeavesTheJournalAsItWas() throws {
        let folder = Folder()
        defer { folder.remove() }
        let path = "\(folder.path)/journal.log"
        let (journal, _, _) = try open(path)
        journal.append { $0 += Array("a1".utf8) }
        #expect(mkdir("\(path).compacting", 0o755) == 0)  // where the new file would go
        #expect(journal.beginCompaction())
        journal.append { $0 += Array("a2".utf8) }
        #expect(throws: JournalError.self) { try journal.finishCompaction { $0(Self.framed(["snapshot"])) } }
        journal.append { $0 += Array("a3".utf8) }
        #expect(journal.waitUntilDurable() == nil)
        #expect(try open(path).2 == ["a1", "a2", "a3"])
        #expect(journal.beginCompaction(), "it can be tried again")
    }

    @Test func anUnfinishedCompactionIsRemovedOnOpening() throws {
        let folder = Folder()
        defer { folder.remove() }
        let path = "\(folder.path)/journal.log"
        try write(["a1"], to: path)
        #expect(FileManager.default.createFile(atPath: "\(path).compacting", contents: Data(repeating: 7, count: 1000)))
        #expect(try open(path).2 == ["a1"])
        #expect(!FileManager.default.fileExists(atPath: "\(path).compacting"))
    }

    @Test func growthIsReportedOncePastTheLimit() throws {
        let folder = Folder()
        defer { folder.remove() }
        let (journal, _, _) = try open("\(folder.path)/journal.log")
        let calls = Mutex(0)
        journal.whenLarger(than: 100) { calls.withLock { $0 += 1 } }
        journal.append { $0 += [UInt8](repeating: 1, count: 50) }
        #expect(journal.waitUntilDurable() == nil)
        #expect(calls.withLock { $0 } == 0)
        for _ in 0 ..< 3 { journal.append { $0 += [UInt8](repeating: 1, count: 50) } }
        #expect(journal.waitUntilDurable() == nil)
        #expect(calls.withLock { $0 } == 1)
        #expect(journal.size == JournalFormat.header.count + 4 * (JournalFormat.recordHeaderSize + 50))
    }
}
