import Glibc

/// Reads a journal file's records (`JournalFormat`) from a file descriptor a chunk at a time, so
/// that opening a journal of a million records, or restoring a snapshot file of hundreds of
/// megabytes, holds one chunk (and at most one record larger than it) in memory, not the file.
///
/// ```swift
/// var reader = JournalReader(fd: fd, path: path, from: JournalFormat.header.count)
/// let (end, problem) = try reader.forRecords { payload in apply(payload); return true }
/// ```
struct JournalReader {
    /// How much is read at a time (a record larger than this is read whole all the same).
    static let defaultChunkSize = 4 << 20

    private let fd: Int32
    private let path: String
    private let chunkSize: Int
    /// The file's bytes from `start` on, as far as they have been read.
    private var window: [UInt8] = []
    private var start: Int
    /// Where the next record begins, within `window`.
    private var position = 0
    private var atEnd = false
    /// Where reading stops, as if the file ended there.
    private let end: Int

    /// A reader of the records of the file open at `fd` (read with `pread`: the file position
    /// is left alone) from byte `offset` on, up to byte `end` (the file's end unless given);
    /// `path` names the file in errors.
    init(fd: Int32, path: String, from offset: Int, to end: Int = .max, chunkSize: Int = defaultChunkSize) {
        self.fd = fd
        self.path = path
        self.start = offset
        self.end = end
        self.chunkSize = max(chunkSize, JournalFormat.recordHeaderSize)
    }

    /// Calls `body` with the payload of each whole record, in order, until it returns false (the
    /// record it was given is then not counted as read) or the file's records end. Returns where
    /// the whole records end (where the refused record starts) and, when the bytes after them
    /// are not a whole record, what is wrong with them: as `JournalFormat.forRecords` does on
    /// the file's bytes.
    mutating func forRecords(while body: (UnsafeRawBufferPointer) throws -> Bool)
        throws -> (end: Int, problem: JournalFormat.RecordProblem?) {
        while true {
            let found = window.withUnsafeBytes { JournalFormat.record(in: $0, at: position) }
            switch found {
            case .success(let payload):
                let more = try window.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[payload])) }
                guard more else { return (start + position, nil) }
                position = payload.upperBound
            case .failure(.truncatedHeader) where !atEnd:
                try read(atLeast: JournalFormat.recordHeaderSize)
            case .failure(.truncatedPayload(let length)) where !atEnd:
                try read(atLeast: JournalFormat.recordHeaderSize + length)
            case .failure(let problem):
                return (start + position, position == window.count ? nil : problem)
            }
        }
    }

    /// Drops the records already read and reads on until `count` bytes from `position` are in
    /// the window, or the file ends.
    private mutating func read(atLeast count: Int) throws(JournalError) {
        window.removeSubrange(0 ..< position)
        start += position
        position = 0
        let target = min(max(count, chunkSize), max(end - start, 0))
        while window.count < count, !atEnd {
            let filled = window.count
            window.append(contentsOf: [UInt8](repeating: 0, count: max(target - filled, 0)))  // not repeatElement: slow unoptimized
            let got = try Self.read(fd, into: &window, at: filled, fileOffset: start + filled, path: path)
            window.removeSubrange(filled + got ..< window.count)
            atEnd = got == 0
        }
    }

    /// The first bytes of the file open at `fd`: its header (`JournalFormat.header`), or fewer
    /// when the file is shorter.
    static func header(of fd: Int32, path: String) throws(JournalError) -> [UInt8] {
        var header = JournalFormat.header
        header.removeSubrange(try read(fd, into: &header, at: 0, fileOffset: 0, path: path)...)
        return header
    }

    /// Reads what `pread` gives (up to the array's end) into `bytes` from `index` on; 0 at the
    /// file's end.
    static func read(_ fd: Int32, into bytes: inout [UInt8], at index: Int, fileOffset: Int, path: String) throws(JournalError) -> Int {
        var done = 0
        while index + done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + index + done, buffer.count - index - done, off_t(fileOffset + done))
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .system("read \(path)", errno) }
            if count == 0 { break }
            done += count
        }
        return done
    }
}
