// Base64 (RFC 4648 §4 and §5), for proto3 JSON's bytes fields and gRPC's `-bin` metadata.

/// Base64 encoding, and a lenient decoder: standard or URL-safe alphabet, padded or not.
///
/// ```swift
/// Base64.encode(Array("hi".utf8))                 // "aGk="
/// Base64.encode(Array("hi".utf8), padded: false)  // "aGk"
/// Base64.decode("aGk")                            // [0x68, 0x69]
/// ```
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The standard-alphabet encoding, with `=` padding unless `padded` is false.
    package static func encode(_ bytes: [UInt8], padded: Bool = true) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index ..< min(index + 3, bytes.count)]
            var group: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { group |= UInt32(byte) << UInt32(16 - 8 * offset) }
            for position in 0 ... chunk.count { out.append(alphabet[Int(group >> UInt32(18 - 6 * position)) & 0x3F]) }
            if padded { out += Array(repeating: UInt8(ascii: "="), count: 3 - chunk.count) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` encodes (either alphabet, padding optional), or nil when it is not base64.
    package static func decode(_ text: String) -> [UInt8]? {
        var digits = Array(text.utf8)
        if digits.count % 4 == 0, digits.last == UInt8(ascii: "=") {
            digits.removeLast()
            if digits.last == UInt8(ascii: "=") { digits.removeLast() }
        }
        guard digits.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count * 3 / 4)
        var group: UInt32 = 0
        var bits = 0
        for digit in digits {
            guard let value = Self.value(of: digit) else { return nil }
            group = group << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: group >> UInt32(bits)))
            }
        }
        guard group & ((1 << UInt32(bits)) - 1) == 0 else { return nil }  // leftover bits must be zero
        return out
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "A") ... UInt8(ascii: "Z"): digit - UInt8(ascii: "A")
        case UInt8(ascii: "a") ... UInt8(ascii: "z"): digit - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
