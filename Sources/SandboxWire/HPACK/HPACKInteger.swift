// Integer representation with an N-bit prefix, RFC 7541 §5.1.

/// Reads and writes HPACK's prefixed integers.
enum HPACKInteger {
    /// The largest integer accepted: anything above is a compression error (RFC 7541 §5.1 lets a
    /// decoder set such limits; no length or index a sane peer sends comes near it).
    static let limit = Int(Int32.max)

    /// Appends `value` with a `prefix`-bit prefix (1...8), the first octet's other bits `flags`.
    static func encode(_ value: Int, prefix: Int, flags: UInt8, into out: inout [UInt8]) {
        let maxPrefix = (1 << prefix) - 1
        if value < maxPrefix {
            out.append(flags | UInt8(truncatingIfNeeded: value))
            return
        }
        out.append(flags | UInt8(truncatingIfNeeded: maxPrefix))
        var rest = value - maxPrefix
        while rest >= 128 {
            out.append(UInt8(truncatingIfNeeded: rest & 0x7F) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(truncatingIfNeeded: rest))
    }

    /// Reads the integer at `position` (whose first octet's low `prefix` bits start it) and moves
    /// `position` past it. Throws for a truncated integer, one over `limit`, or more continuation
    /// octets than `limit` needs.
    static func decode(_ block: UnsafeRawBufferPointer, _ position: inout Int, prefix: Int) throws(HPACKError) -> Int {
        guard position < block.count else { throw .compression("truncated integer") }
        let maxPrefix = (1 << prefix) - 1
        var value = Int(block[position]) & maxPrefix
        position += 1
        if value < maxPrefix { return value }
        var shift = 0
        while true {
            guard position < block.count else { throw .compression("truncated integer") }
            let byte = block[position]
            position += 1
            value += Int(byte & 0x7F) << shift
            guard value <= limit else { throw .compression("integer larger than 2^31 - 1") }
            if byte & 0x80 == 0 { return value }
            shift += 7
            guard shift <= 28 else { throw .compression("integer with too many continuation octets") }
        }
    }
}
