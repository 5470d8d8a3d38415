/// The journal file's layout:
///
/// ```text
/// file   = header record*
/// header = "CSJ1" version:u32le          (8 bytes; the version of what the payloads hold)
/// record = length:u32le crc:u32le payload (crc: CRC-32 of the length's 4 bytes, then the payload)
/// ```
///
/// A record is whole or it is not there: a crash mid-write leaves a tail whose length runs past
/// the end of the file or whose checksum fails, and recovery stops at the last whole record.
enum JournalFormat {
    /// The version new files are written in: what their payloads hold is the user's business
    /// (CashoutSandbox: `BankFormat` says what each version holds).
    static let currentVersion: UInt32 = 6
    /// The versions a file may have and still be opened.
    static let readableVersions: ClosedRange<UInt32> = 1 ... currentVersion
    /// The 8 bytes every journal file written now starts with.
    static let header = header(version: currentVersion)
    /// The 4 bytes every journal file starts with, whatever its version.
    static let magic: [UInt8] = Array("CSJ1".utf8)

    /// The header of a file of `version`.
    static func header(version: UInt32) -> [UInt8] {
        magic + withUnsafeBytes(of: version.littleEndian) { Array($0) }
    }

    /// The version in `file`'s header; nil when it does not start with one.
    package static func version(of file: [UInt8]) -> UInt32? {
        guard file.count >= header.count, file.starts(with: magic) else { return nil }
        return file.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: magic.count, as: UInt32.self)) }
    }
    /// The bytes before each payload.
    static let recordHeaderSize = 8
    /// The largest payload: a length above it is corruption, not a record.
    static let maximumPayload = 64 << 20

    /// Appends one record holding the bytes `write` appends to `buffer`.
    @inline(__always)
    static func appendRecord(to buffer: inout [UInt8], _ write: (inout [UInt8]) -> Void) {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: recordHeaderSize))
        write(&buffer)
        let length = UInt32(buffer.count - start - recordHeaderSize)
        precondition(Int(length) <= maximumPayload, "journal record of \(length) bytes")
        withUnsafeBytes(of: length.littleEndian) { lengthBytes in
            let crc = buffer.withUnsafeBytes { bytes in
                CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[(start + recordHeaderSize)...]),
                               continuing: CRC32.checksum(lengthBytes))
            }
            for index in 0 ..< 4 { buffer[start + index] = lengthBytes[index] }
            withUnsafeBytes(of: crc.littleEndian) { for index in 0 ..< 4 { buffer[start + 4 + index] = $0[index] } }
        }
    }

    /// Calls `body` with the payload of each whole record of `file` from `offset` on, in order.
    /// Returns where the whole records end and, when bytes follow that are not a whole record,
    /// what is wrong with them.
    static func forEachRecord(in file: UnsafeRawBufferPointer, from offset: Int,
                                     _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows -> (end: Int, problem: RecordProblem?) {
        try forRecords(in: file, from: offset) { payload -> Bool in
            try body(payload)
            return true
        }
    }

    /// `forEachRecord`, stopping before a record once `body` returned false: `end` is then where it starts.
    static func forRecords(in file: UnsafeRawBufferPointer, from offset: Int,
                                  while body: (UnsafeRawBufferPointer) throws -> Bool) rethrows -> (end: Int, problem: RecordProblem?) {
        var offset = offset
        while offset < file.count {
            switch record(in: file, at: offset) {
            case .success(let payload):
                guard try body(UnsafeRawBufferPointer(rebasing: file[payload])) else { return (offset, nil) }
                offset = payload.upperBound
            case .failure(let problem):
                return (offset, problem)
            }
        }
        return (offset, nil)
    }

    /// What is wrong with the record at `offset` of `file`, or nil and the payload's range when it is whole.
    static func record(in file: UnsafeRawBufferPointer, at offset: Int) -> Result<Range<Int>, RecordProblem> {
        guard offset + recordHeaderSize <= file.count else { return .failure(.truncatedHeader) }
        let length = Int(UInt32(littleEndian: file.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        let stored = UInt32(littleEndian: file.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
        guard length <= maximumPayload else { return .failure(.impossibleLength(length)) }
        let payload = offset + recordHeaderSize ..< offset + recordHeaderSize + length
        guard payload.upperBound <= file.count else { return .failure(.truncatedPayload(length)) }
        let crc = CRC32.checksum(UnsafeRawBufferPointer(rebasing: file[payload]),
                                 continuing: CRC32.checksum(UnsafeRawBufferPointer(rebasing: file[offset ..< offset + 4])))
        return crc == stored ? .success(payload) : .failure(.checksumMismatch)
    }

    /// Why the bytes at some place are not a whole record.
    enum RecordProblem: Error, Sendable, CustomStringConvertible {
        case truncatedHeader
        case impossibleLength(Int)
        case truncatedPayload(Int)
        case checksumMismatch

        package var description: String {
            switch self {
            case .truncatedHeader: "a record header cut short"
            case .impossibleLength(let length): "a record length of \(length) bytes (at most \(JournalFormat.maximumPayload))"
            case .truncatedPayload(let length): "a record of \(length) bytes cut short"
            case .checksumMismatch: "a record whose checksum does not match"
            }
        }
    }
}
