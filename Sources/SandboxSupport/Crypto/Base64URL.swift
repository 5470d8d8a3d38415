// Base64 with the URL- and filename-safe alphabet, without padding (RFC 4648 §5), as JSON Web
// Tokens use it (RFC 7515 §2, "Base64url Encoding").

/// Base64url without padding.
///
/// ```swift
/// Base64URL.encode(Array("hi?".utf8))   // "aGk_"
/// Base64URL.decode("aGk_")              // [104, 105, 63]
/// ```
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The value of each byte of the alphabet; 0xFF for any other byte.
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { values[Int(byte)] = UInt8(value) }
        return values
    }()

    /// The encoding of `bytes`, without `=` padding.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next(), third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            let count = third != nil ? 4 : second != nil ? 3 : 2
            for index in 0 ..< count { out.append(alphabet[Int(group >> (18 - 6 * index) & 0x3F)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` encodes; nil for a byte outside the alphabet, padding, a length that no
    /// encoding has (one more than a multiple of four), or stray bits in the last character
    /// (so that each byte string has exactly one encoding).
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(input.count * 3 / 4)
        var group: UInt32 = 0
        for (index, byte) in input.enumerated() {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            group = group << 6 | UInt32(value)
            if index % 4 == 3 {
                out += [UInt8(group >> 16), UInt8(group >> 8 & 0xFF), UInt8(group & 0xFF)]
                group = 0
            }
        }
        switch input.count % 4 {
        case 2:
            guard group & 0xF == 0 else { return nil }
            out.append(UInt8(group >> 4))
        case 3:
            guard group & 0x3 == 0 else { return nil }
            out += [UInt8(group >> 10), UInt8(group >> 2 & 0xFF)]
        default: break
        }
        return out
    }
}
