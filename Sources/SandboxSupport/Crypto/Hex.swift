// Base16 ("hex") encoding of byte strings, as used for digests and signatures
// (RFC 4648 §8 alphabet, either case). Pure Swift, no Foundation.

/// Hexadecimal encoding and decoding of bytes.
///
/// ```swift
/// Hex.lowercase([0xde, 0xad, 0xbe, 0xef])   // "deadbeef"
/// Hex.uppercase([0xde, 0xad, 0xbe, 0xef])   // "DEADBEEF"
/// Hex.decode("DeadBeef")                    // [0xde, 0xad, 0xbe, 0xef]
/// Hex.decode("abc")                         // nil (odd length)
/// ```
@usableFromInline package enum Hex {
    /// Encodes `bytes` as lowercase hexadecimal, two characters per byte.
    ///
    /// ```swift
    /// Hex.lowercase(SHA256.hash(Array("abc".utf8)))   // "ba7816bf…"
    /// ```
    @inlinable
    package static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        encode(bytes, alphabetOffset: 0x61 &- 10)
    }

    /// Encodes `bytes` as uppercase hexadecimal, two characters per byte.
    ///
    /// ```swift
    /// Hex.uppercase([0x0a, 0xff])   // "0AFF"
    /// ```
    @inlinable
    package static func uppercase(_ bytes: some Sequence<UInt8>) -> String {
        encode(bytes, alphabetOffset: 0x41 &- 10)
    }

    /// Decodes a hexadecimal string (either case, no separators or prefix).
    ///
    /// Returns `nil` if the string has an odd number of characters or contains
    /// anything other than `0-9`, `a-f`, `A-F`. The empty string decodes to `[]`.
    ///
    /// ```swift
    /// Hex.decode("00ff") // [0x00, 0xff]
    /// Hex.decode("0g")   // nil
    /// ```
    package static func decode(_ string: some StringProtocol) -> [UInt8]? {
        let utf8 = string.utf8
        let characterCount = utf8.count
        guard characterCount % 2 == 0 else { return nil }
        var result = [UInt8]()
        result.reserveCapacity(characterCount / 2)
        var iterator = utf8.makeIterator()
        while let high = iterator.next() {
            guard let low = iterator.next(),
                  let highValue = nibble(high),
                  let lowValue = nibble(low)
            else { return nil }
            result.append(highValue &<< 4 | lowValue)
        }
        return result
    }

    // MARK: - Implementation

    @inline(__always)
    @usableFromInline
    static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case 0x30...0x39: character &- 0x30          // 0-9
        case 0x61...0x66: character &- 0x61 &+ 10    // a-f
        case 0x41...0x46: character &- 0x41 &+ 10    // A-F
        default: nil
        }
    }

    /// Encodes with digits for 0-9 and `alphabetOffset + value` for 10-15.
    @usableFromInline
    static func encode(_ bytes: some Sequence<UInt8>, alphabetOffset: UInt8) -> String {
        if let string = bytes.withContiguousStorageIfAvailable({ encode($0, alphabetOffset: alphabetOffset) }) {
            return string
        }
        return Array(bytes).withUnsafeBufferPointer { encode($0, alphabetOffset: alphabetOffset) }
    }

    @usableFromInline
    static func encode(_ bytes: UnsafeBufferPointer<UInt8>, alphabetOffset: UInt8) -> String {
        guard !bytes.isEmpty else { return "" }
        @inline(__always) func digit(_ value: UInt8) -> UInt8 {
            value < 10 ? 0x30 &+ value : alphabetOffset &+ value
        }
        return String(unsafeUninitializedCapacity: bytes.count &* 2) { out in
            var index = 0
            for byte in bytes {
                out[index] = digit(byte &>> 4)
                out[index &+ 1] = digit(byte & 0x0f)
                index &+= 2
            }
            return index
        }
    }
}
