import Glibc
import Dispatch
import Synchronization

// Space reserved ahead of the records. An fdatasync of a file whose size changed writes its inode
// too (on ext4 a second device write, waited for before the cache flush); one within the size the
// file already has writes only the data, then flushes. So the writer fills the file with zeros a
// little past its records, once in a while (that sync writes the inode, once), and the batches
// after it overwrite them: on this project's 2-core machine a write and fdatasync of 8 KB took a
// median 90 µs within zeros, 130-190 µs at the end of the file, with half the context switches.
// (`fallocate` would not do: its extents are marked unwritten, and the first write into them
// changes the inode.)
//
// A crash leaves the records followed by zeros, or by a torn record and zeros. Zeros are no
// record (a header of zeros is never whole: its checksum covers the length, and the CRC-32 of four
// zero bytes is not zero), so opening cuts them off without a word, and a clean stop
// (`trimReservedSpace`) leaves none: a file at rest ends with its last record, as before.
extension Journal {
    enum Reservation {
        /// How many bytes of zeros to write past `end`: an eighth of the file, between 64 KiB and 4 MiB.
        static func bytes(past end: Int) -> Int { min(max(end / 8, 64 << 10), 4 << 20) }

        /// Whether the file `fd` (the journal at `path`) holds only zeros from `offset` to its end:
        /// reserved space, no torn record.
        static func holds(_ fd: Int32, from offset: Int, path: String) throws(JournalError) -> Bool {
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            var position = offset
            while true {
                let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(position)) }
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { throw .system("read \(path)", errno) }
                if count == 0 { return true }
                if chunk[..<count].contains(where: { $0 != 0 }) { return false }
                position += count
            }
        }
    }

    /// Cuts the zeros reserved ahead of the records off the file, so that it ends with its last
    /// record (on a clean stop, after `waitUntilDurable`; appends after it reserve space again).
    package func trimReservedSpace() {
        writer.sync {  // between batches: every byte taken is written
            batch.withLock { batch in
                guard batch.reservedEnd > batch.fileBytes else { return }
                if ftruncate(fd.withLock { $0 }, off_t(batch.fileBytes)) == 0 { batch.reservedEnd = batch.fileBytes }
            }
        }
    }
}
