/// CRC-32 (IEEE 802.3, the polynomial of zlib, gzip and PNG), table-driven, eight bytes at a time.
/// It guards each journal record against torn writes and bit rot; `zlib.crc32` computes the same.
///
/// ```swift
/// CRC32.checksum(Array("123456789".utf8))   // 0xCBF43926
/// ```
enum CRC32 {
    /// The checksum of `bytes`, continuing from `crc` (0 to start).
    static func checksum(_ bytes: some Collection<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withContiguousStorageIfAvailable { checksum(UnsafeRawBufferPointer($0), continuing: crc) }
            ?? checksum(Array(bytes), continuing: crc)
    }

    /// The checksum of the bytes in `buffer`, continuing from `crc` (0 to start).
    static func checksum(_ buffer: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var crc = ~crc
        var index = 0
        let count = buffer.count
        tables.withUnsafeBufferPointer { table in
            // Slicing by 8: one lookup per byte, eight independent ones per step.
            while index + 8 <= count {
                let low = crc ^ buffer.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian
                let high = buffer.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self).littleEndian
                crc = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[1 * 256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = table[Int((crc ^ UInt32(buffer[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        return ~crc
    }

    /// Table k gives the CRC of a byte followed by k zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0 ..< 256 {
            var crc = UInt32(byte)
            for _ in 0 ..< 8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            tables[byte] = crc
        }
        for k in 1 ..< 8 {
            for byte in 0 ..< 256 {
                let previous = tables[(k - 1) * 256 + byte]
                tables[k * 256 + byte] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()
}
