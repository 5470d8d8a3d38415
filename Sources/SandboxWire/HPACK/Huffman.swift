// Huffman coding of string literals, RFC 7541 §5.2 (the code is Appendix B, in HuffmanCode).

/// HPACK's static Huffman code.
///
/// ```swift
/// var out: [UInt8] = []
/// Huffman.encode(Array("no-cache".utf8), into: &out)   // a8 eb 10 64 9c bf
/// Huffman.decode(bytes)                                // nil when invalid
/// ```
enum Huffman {
    /// Appends the encoding of `bytes`, padded to an octet with the most significant bits of EOS.
    static func encode(_ bytes: some Collection<UInt8>, into out: inout [UInt8]) {
        if bytes.withContiguousStorageIfAvailable({ encode(buffer: $0, into: &out) }) == nil {
            Array(bytes).withUnsafeBufferPointer { encode(buffer: $0, into: &out) }
        }
    }

    /// The number of octets `encode` appends for `bytes`.
    static func encodedCount(_ bytes: some Collection<UInt8>) -> Int {
        if let count = bytes.withContiguousStorageIfAvailable({ encodedCount(buffer: $0) }) { return count }
        return Array(bytes).withUnsafeBufferPointer { encodedCount(buffer: $0) }
    }

    /// The octets `bytes` encodes; nil when it is invalid: an EOS symbol, padding longer than
    /// 7 bits, or padding that is not all ones (RFC 7541 §5.2).
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 8 / 5)
        return decode(bytes, into: &out) ? out : nil
    }

    static func encode(buffer: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        HuffmanCode.lengths.withUnsafeBufferPointer { lengths in
            HuffmanCode.codes.withUnsafeBufferPointer { codes in
                var accumulator: UInt64 = 0
                var bits = 0
                for byte in buffer {
                    let length = Int(lengths[Int(byte)])
                    accumulator = accumulator << UInt64(length) | UInt64(codes[Int(byte)])
                    bits += length
                    while bits >= 8 {
                        bits -= 8
                        out.append(UInt8(truncatingIfNeeded: accumulator >> UInt64(bits)))
                    }
                }
                if bits > 0 {
                    out.append(UInt8(truncatingIfNeeded: accumulator << UInt64(8 - bits)) | UInt8(0xFF >> bits))
                }
            }
        }
    }

    static func encodedCount(buffer: UnsafeBufferPointer<UInt8>) -> Int {
        HuffmanCode.lengths.withUnsafeBufferPointer { lengths in
            var bits = 0
            for byte in buffer { bits += Int(lengths[Int(byte)]) }
            return (bits + 7) / 8
        }
    }

    /// Appends the octets `bytes` encodes to `out`; false when it is invalid (see `decode(_:)`),
    /// `out` then holding what came before the fault.
    static func decode(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        HuffmanCode.limit.withUnsafeBufferPointer { limit in
            HuffmanCode.sorted.withUnsafeBufferPointer { sorted in
                HuffmanCode.firstCode.withUnsafeBufferPointer { firstCode in
                    HuffmanCode.offset.withUnsafeBufferPointer { offset in
                        // The unread bits are the low `bits` of `accumulator` (higher ones are stale).
                        var accumulator: UInt64 = 0
                        var bits = 0
                        var next = 0
                        while true {
                            while bits <= 56, next < bytes.count {
                                accumulator = accumulator << 8 | UInt64(bytes[next])
                                next += 1
                                bits += 8
                            }
                            if bits == 0 { return true }
                            // The next 32 bits, past the end filled with ones (as padding is).
                            let window = bits >= 32
                                ? accumulator >> UInt64(bits - 32) & 0xFFFF_FFFF
                                : (accumulator << UInt64(32 - bits) | ((1 << UInt64(32 - bits)) - 1)) & 0xFFFF_FFFF
                            var length = 5
                            while length < 30, window >= limit[length] { length += 1 }
                            if length > bits {
                                // No whole code left: the rest is padding, at most 7 bits of ones.
                                let ones: UInt64 = (1 << UInt64(bits)) - 1
                                return bits <= 7 && accumulator & ones == ones
                            }
                            let symbol = sorted[offset[length] + Int(window >> UInt64(32 - length)) - firstCode[length]]
                            if Int(symbol) == HuffmanCode.eos { return false }
                            out.append(UInt8(truncatingIfNeeded: symbol))
                            bits -= length
                        }
                    }
                }
            }
        }
    }
}
