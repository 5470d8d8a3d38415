package import SandboxBank

/// The whole state `GET /sandbox/snapshot` exports and `PUT /sandbox/snapshot` imports, and a
/// compacted journal starts with: the scenarios loaded through the admin API since the start (or
/// the last reset), and the bank's state with its clock.
///
/// Its file is a journal (`JournalFormat`): the header, then the snapshot's bytes in records of at
/// most 1 MiB, each with its checksum. So a journal file can be restored as a snapshot, and a
/// snapshot's records can be journaled as they are.
///
/// ```text
/// record  = kind:u8 (3, StateJournal.Kind.snapshot) flags:u8 (1 first, 2 last) bytes
/// bytes   = version:uint scenarios:(count bytes*) bank:BankSnapshot
/// ```
package struct SandboxSnapshot {
    /// The scenario files' bytes, in the order they were loaded.
    package var scenarios: [[UInt8]]
    package var bank: BankSnapshot

    /// The bank's binary form's version (`BankFormat`, which says what each holds); snapshots of
    /// every version in `BankFormat.readable` are read.
    static let version = UInt64(BankFormat.currentVersion)
    package static let contentType = "application/vnd.cashout-sandbox.snapshot"
    static let partSize = 1 << 20

    /// Why bytes are not a snapshot this sandbox can restore.
    package struct Invalid: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// The snapshot's bytes cut into journal payloads (kind, flags, at most `partSize` bytes),
    /// each handed to `body` as soon as it is encoded: the whole snapshot's bytes are never in
    /// memory at once.
    func forEachPayload(_ body: ([UInt8]) -> Void) {
        var first = true
        // Whole parts, while more bytes follow them: only the last part is flagged so.
        func cut(_ bytes: inout [UInt8]) {
            var start = 0
            while bytes.count - start > Self.partSize {
                body([StateJournal.Kind.snapshot.rawValue, first ? 1 : 0] + bytes[start ..< start + Self.partSize])
                first = false
                start += Self.partSize
            }
            bytes.removeFirst(start)
        }
        var bytes: [UInt8] = []
        BinaryWriter.append(Self.version, to: &bytes)
        BinaryWriter.append(UInt64(scenarios.count), to: &bytes)
        for scenario in scenarios {
            BinaryWriter.append(bytes: scenario, to: &bytes)
            cut(&bytes)
        }
        bank.encode(into: &bytes, flushingAt: 2 * Self.partSize, cut)
        cut(&bytes)
        body([StateJournal.Kind.snapshot.rawValue, (first ? 1 : 0) | 2] + bytes)
    }

    /// The snapshot's records, framed and checksummed (without the file's header), handed to
    /// `write` about `partSize` bytes at a time: a compaction writes them as they come.
    func writeRecords(_ write: ([UInt8]) -> Void) {
        var records: [UInt8] = []
        forEachPayload { payload in
            JournalFormat.appendRecord(to: &records) { $0 += payload }
            guard records.count >= Self.partSize else { return }
            write(records)
            records.removeAll(keepingCapacity: true)
        }
        if !records.isEmpty { write(records) }
    }

    /// The snapshot as a file.
    package func file() -> [UInt8] {
        var file = JournalFormat.header
        writeRecords { file += $0 }
        return file
    }

    /// Reads a snapshot file (`file()`), whose bank reads as `formats` says for its version.
    package init(file: [UInt8], formats: @escaping BankFormat.Lookup) throws(Invalid) {
        do {
            self = try Self.read(header: Array(file.prefix(JournalFormat.header.count)), formats: formats) { record in
                try file.withUnsafeBytes { try JournalFormat.forEachRecord(in: $0, from: JournalFormat.header.count, record) }
            }
        } catch let error as Invalid {
            throw error
        } catch {
            throw Invalid(description: "\(error)")
        }
    }

    /// Reads a snapshot file from `fd` (with `pread`, a part at a time: a large one is never
    /// in memory whole), whose bank reads as `formats` says for its version. Throws `Invalid`,
    /// or the `JournalError` of a failed read.
    package init(reading fd: Int32, formats: @escaping BankFormat.Lookup) throws {
        let path = "the snapshot"
        let header = try JournalReader.header(of: fd, path: path)
        var records = JournalReader(fd: fd, path: path, from: header.count)
        self = try Self.read(header: header, formats: formats) { record in
            try records.forRecords { payload in
                try record(payload)
                return true
            }
        }
    }

    /// Reads a snapshot file from its `header` and its `records` (which call their argument with
    /// each whole record's payload, and return where the whole records end and what is wrong
    /// with what follows them).
    private static func read(header: [UInt8], formats: @escaping BankFormat.Lookup,
                             records: ((UnsafeRawBufferPointer) throws -> Void) throws -> (end: Int, problem: JournalFormat.RecordProblem?))
        throws -> SandboxSnapshot {
        guard header.starts(with: JournalFormat.magic) else {
            throw Invalid(description: "the body is not a snapshot (a snapshot starts with CSJ1; get one with GET /sandbox/snapshot)")
        }
        guard let version = JournalFormat.version(of: header), JournalFormat.readableVersions.contains(version) else {
            throw Invalid(description: "a snapshot of a format this sandbox does not know (a newer sandbox took it)")
        }
        var decoder = Decoder(formats: formats)
        var found: SandboxSnapshot?
        let (end, problem) = try records { payload in
            guard found == nil else { throw Invalid(description: "records after the snapshot's last") }
            guard payload.first == StateJournal.Kind.snapshot.rawValue else {
                throw Invalid(description: "a record that is not part of a snapshot")
            }
            found = try decoder.add(UnsafeRawBufferPointer(rebasing: payload.dropFirst()))
        }
        if let problem { throw Invalid(description: "\(problem) at byte \(end)") }
        guard let found else { throw Invalid(description: "the snapshot is cut short: its last record is missing") }
        return found
    }

    package init(scenarios: [[UInt8]], bank: BankSnapshot) {
        self.scenarios = scenarios
        self.bank = bank
    }
}
