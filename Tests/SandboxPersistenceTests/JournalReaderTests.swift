import Foundation
import Glibc
@testable import SandboxPersistence
import Testing

/// `JournalReader` reads a file a chunk at a time: whatever the chunk size, and wherever a chunk
/// ends (in a record's header, its payload, or between records), it finds the records, the end
/// and the problem that `JournalFormat.forRecords` finds in the whole file's bytes.
struct JournalReaderTests {
    /// Records of 0 to 40 bytes, then a torn one (`torn` bytes of it) or a damaged one.
    private static func file(torn: Int? = nil, damaged: Bool = false) -> [UInt8] {
        var bytes = JournalFormat.header
        for length in [0, 1, 7, 8, 9, 40, 3] {
            JournalFormat.appendRecord(to: &bytes) { $0 += (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ length) } }
        }
        var last: [UInt8] = []
        JournalFormat.appendRecord(to: &last) { $0 += Array("the last one".utf8) }
        if damaged { last[last.count - 2] ^= 1 }
        return bytes + last.prefix(torn ?? last.count)
    }

    private static func wholeFileRecords(_ file: [UInt8]) -> ([[UInt8]], Int, String?) {
        var payloads: [[UInt8]] = []
        let (end, problem) = file.withUnsafeBytes { bytes in
            JournalFormat.forEachRecord(in: bytes, from: JournalFormat.header.count) { payloads.append(Array($0)) }
        }
        return (payloads, end, problem.map { "\($0)" })
    }

    private static func chunkedRecords(_ file: [UInt8], chunkSize: Int, stopAt: Int = .max) throws -> ([[UInt8]], Int, String?) {
        let path = NSTemporaryDirectory() + "journal-reader-\(UUID().uuidString)"
        defer { unlink(path) }
        try Data(file).write(to: URL(fileURLWithPath: path))
        let fd = Glibc.open(path, O_RDONLY)
        defer { Glibc.close(fd) }
        var reader = JournalReader(fd: fd, path: path, from: JournalFormat.header.count, chunkSize: chunkSize)
        var payloads: [[UInt8]] = []
        let (end, problem) = try reader.forRecords { payload in
            guard payloads.count < stopAt else { return false }
            payloads.append(Array(payload))
            return true
        }
        return (payloads, end, problem.map { "\($0)" })
    }

    @Test func everyChunkSizeFindsWhatTheWholeFileHolds() throws {
        let lastRecord = Self.file().count - (8 + 12)
        let files = [Self.file(), Self.file(damaged: true)] + (0 ..< 20).map { Self.file(torn: $0) }
        for file in files {
            let whole = Self.wholeFileRecords(file)
            #expect(whole.0.count >= 7)
            for chunkSize in 1 ... file.count + 1 {
                let chunked = try Self.chunkedRecords(file, chunkSize: chunkSize)
                #expect(chunked.0 == whole.0 && chunked.1 == whole.1 && chunked.2 == whole.2,
                        "\(file.count) bytes in chunks of \(chunkSize): \(chunked.1) \(chunked.2 ?? "-")")
            }
        }
        #expect(Self.wholeFileRecords(Self.file(torn: 5)).2 == "a record header cut short")
        #expect(Self.wholeFileRecords(Self.file(torn: 9)).2 == "a record of 12 bytes cut short")
        #expect(Self.wholeFileRecords(Self.file(damaged: true)).1 == lastRecord)
    }

    @Test func aRecordRefusedEndsTheRecordsWhereItStarts() throws {
        let file = Self.file()
        for chunkSize in [1, 9, 16, 4096] {
            let (payloads, end, problem) = try Self.chunkedRecords(file, chunkSize: chunkSize, stopAt: 2)
            #expect(payloads.count == 2 && problem == nil)
            #expect(end == JournalFormat.header.count + 8 + 0 + 8 + 1)
        }
    }

    /// A journal over one chunk (4 MiB): records cross the chunk boundary, and a torn tail after
    /// them is cut off and kept, byte for byte, from the file.
    @Test func aJournalLargerThanAChunkOpensWithItsTornTailKept() throws {
        let path = NSTemporaryDirectory() + "journal-large-\(UUID().uuidString).log"
        defer { for file in [path, "\(path).dropped-\(JournalFormat.header.count + 5 * (8 + 999_983))"] { unlink(file) } }
        var bytes = JournalFormat.header
        let records = (0 ..< 5).map { index in [UInt8](repeating: UInt8(index), count: 999_983) }  // 5 × ~1 MB: chunk ends fall mid-record
        for record in records { JournalFormat.appendRecord(to: &bytes) { $0 += record } }
        let valid = bytes.count
        var torn: [UInt8] = []
        JournalFormat.appendRecord(to: &torn) { $0 += [UInt8](repeating: 9, count: 3_000_000) }
        bytes += torn.prefix(2_500_000)
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        var replayed: [[UInt8]] = []
        let (_, recovery) = try Journal.open(path: path) { payload, _ in replayed.append(Array(payload)) }
        #expect(replayed == records)
        #expect(recovery.records == 5 && recovery.validBytes == valid && recovery.droppedBytes == 2_500_000)
        #expect(recovery.problem == "a record of 3000000 bytes cut short at byte \(valid) after record 5; dropped the last 2500000 bytes (kept "
                                    + "in \(path).dropped-\(valid))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(path).dropped-\(valid)")) == Data(torn.prefix(2_500_000)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == valid)
    }
}
