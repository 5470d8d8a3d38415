import Glibc

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

        /// Whether what follows the last whole record is reserved space only (no torn record).
        static func holds(_ tail: ArraySlice<UInt8>) -> Bool { tail.allSatisfy { $0 == 0 } }
    }

    /// Cuts the zeros reserved ahead of the records off the file, so that it ends with its last
    /// record (on a clean stop, after `waitUntilDurable`; appends after it reserve space again).
    public func trimReservedSpace() {
        writer.sync {  // between batches: every byte taken is written
            batch.withLock { batch in
                guard batch.reservedEnd > batch.fileBytes else { return }
                if ftruncate(fd.withLock { $0 }, off_t(batch.fileBytes)) == 0 { batch.reservedEnd = batch.fileBytes }
            }
        }
    }
}
