/// Percent-encoding (RFC 3986 §2.1) and `application/x-www-form-urlencoded` bodies and queries
/// (WHATWG URL standard §5: `&`-separated pairs, `+` is a space).
package enum FormURLEncoding {
    /// Decodes `a=1&b=x+y` into ordered pairs; `nil` on a malformed `%` escape or invalid UTF-8.
    ///
    /// ```swift
    /// FormURLEncoding.decode("amount=10.50&name=Jo%C3%A3o+S".utf8)  // [("amount","10.50"),("name","João S")]
    /// ```
    package static func decode(_ bytes: some Collection<UInt8>) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for part in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = part.firstIndex(of: UInt8(ascii: "="))
            let rawName = equals.map { part[..<$0] } ?? part[...]
            let rawValue = equals.map { part[part.index(after: $0)...] } ?? part[part.endIndex...]
            guard let name = percentDecode(rawName, plusAsSpace: true),
                  let value = percentDecode(rawValue, plusAsSpace: true) else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    /// Encodes pairs as a form body, escaping everything but `A-Z a-z 0-9 * - . _`; spaces become
    /// `+` as browsers send them, or `%20` (as D24's notifications have them) when `spaceAsPlus`
    /// is false.
    package static func encode(_ pairs: [(name: String, value: String)], spaceAsPlus: Bool = true) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(pairs.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count * 3 + 2 })
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "&")) }
            escape(pair.name, spaceAsPlus, into: &out)
            out.append(UInt8(ascii: "="))
            escape(pair.value, spaceAsPlus, into: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes (and `+` when `plusAsSpace`); `nil` when an escape is malformed or
    /// the result is not UTF-8.
    static func percentDecode(_ bytes: some Collection<UInt8>, plusAsSpace: Bool = false) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%") {
                let h = bytes.index(after: i)
                guard h != bytes.endIndex, bytes.index(after: h) != bytes.endIndex,
                      let high = bytes[h].hexValue, let low = bytes[bytes.index(after: h)].hexValue
                else { return nil }
                out.append(high << 4 | low)
                i = bytes.index(h, offsetBy: 2)
                continue
            }
            out.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            i = bytes.index(after: i)
        }
        return String(validating: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func escape(_ text: String, _ spaceAsPlus: Bool, into out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"),
                 UInt8(ascii: "."), UInt8(ascii: "_"):
                out.append(byte)
            case UInt8(ascii: " ") where spaceAsPlus:
                out.append(UInt8(ascii: "+"))
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            }
        }
    }
}
