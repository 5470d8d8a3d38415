// Deterministic JSON writer (RFC 8259): compact output with object keys sorted by their
// UTF-8 bytes, minimal string escaping, raw UTF-8 for non-ASCII, numbers as their text.

extension JSON {
    /// The compact UTF-8 encoding of this value: no whitespace, object keys sorted by their
    /// UTF-8 bytes, `"`, `\` and control characters escaped, `/` and non-ASCII left as is.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(estimatedSize)
        write(into: &out)
        return out
    }

    /// The compact encoding of ``serialized()`` as a `String`.
    public func serializedString() -> String {
        String(decoding: serialized(), as: UTF8.self)
    }

    /// Appends the compact encoding of this value (see ``serialized()``) to `out`.
    public func write(into out: inout [UInt8]) {
        switch self {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let value):
            out.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .number(let text):
            out.append(contentsOf: text.utf8)
        case .string(let value):
            JSON.writeString(value, into: &out)
        case .array(let elements):
            out.append(.openBracket)
            var first = true
            for element in elements {
                if !first { out.append(.comma) }
                first = false
                element.write(into: &out)
            }
            out.append(.closeBracket)
        case .object(let members):
            out.append(.openBrace)
            JSON.forEachSorted(members) { key, value, first in
                if !first { out.append(.comma) }
                JSON.writeString(key, into: &out)
                out.append(.colon)
                value.write(into: &out)
            }
            out.append(.closeBrace)
        }
    }

    /// Visits members in key order. Sorts dictionary indices in a stack buffer by insertion sort:
    /// responses are small objects, and this keeps their encoding free of heap allocations.
    private static func forEachSorted(_ members: [String: JSON], _ body: (String, JSON, Bool) -> Void) {
        guard members.count > 16 else {
            withUnsafeTemporaryAllocation(of: Dictionary<String, JSON>.Index.self, capacity: members.count) { order in
                var count = 0
                for index in members.indices {
                    var slot = count
                    while slot > 0, utf8Precedes(members[index].key, members[order[slot - 1]].key) {
                        order[slot] = order[slot - 1]
                        slot -= 1
                    }
                    order[slot] = index
                    count += 1
                }
                for i in 0 ..< count { body(members[order[i]].key, members[order[i]].value, i == 0) }
            }
            return
        }
        for (i, member) in sortedMembers(members).enumerated() { body(member.key, member.value, i == 0) }
    }

    /// A human-readable encoding with two-space indentation, `": "` after keys, sorted keys
    /// and the same string escaping as ``serialized()``; empty containers print as `[]`/`{}`.
    public func serializedPretty() -> String {
        var out: [UInt8] = []
        out.reserveCapacity(estimatedSize * 2)
        writePretty(into: &out, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    private func writePretty(into out: inout [UInt8], indent: Int) {
        switch self {
        case .array(let elements) where !elements.isEmpty:
            out.append(.openBracket)
            var first = true
            for element in elements {
                if !first { out.append(.comma) }
                first = false
                JSON.newline(into: &out, indent: indent + 1)
                element.writePretty(into: &out, indent: indent + 1)
            }
            JSON.newline(into: &out, indent: indent)
            out.append(.closeBracket)
        case .object(let members) where !members.isEmpty:
            out.append(.openBrace)
            var first = true
            for (key, value) in JSON.sortedMembers(members) {
                if !first { out.append(.comma) }
                first = false
                JSON.newline(into: &out, indent: indent + 1)
                JSON.writeString(key, into: &out)
                out.append(.colon)
                out.append(.space)
                value.writePretty(into: &out, indent: indent + 1)
            }
            JSON.newline(into: &out, indent: indent)
            out.append(.closeBrace)
        default:
            write(into: &out)
        }
    }

    private static func newline(into out: inout [UInt8], indent: Int) {
        out.append(.lineFeed)
        out.append(contentsOf: repeatElement(UInt8.space, count: indent * 2))
    }

    /// Members ordered by the UTF-8 bytes of their keys (equivalently, by code point), which
    /// is deterministic and independent of Swift's Unicode-aware `String` ordering.
    private static func sortedMembers(_ members: [String: JSON]) -> [(key: String, value: JSON)] {
        members.sorted { utf8Precedes($0.key, $1.key) }
    }

    /// Byte-wise UTF-8 order over contiguous storage (the generic `lexicographicallyPrecedes`
    /// showed up in profiles of small responses).
    private static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                for i in 0 ..< min(x.count, y.count) where x[i] != y[i] { return x[i] < y[i] }
                return x.count < y.count
            }
        }
    }

    /// A cheap, shallow guess at the encoded size, used only to reserve capacity.
    private var estimatedSize: Int {
        switch self {
        case .null, .bool: return 5
        case .number(let text): return text.utf8.count
        case .string(let value): return value.utf8.count + 2
        case .array(let elements): return 2 + elements.count * 16
        case .object(let members): return 2 + members.count * 32
        }
    }

    private static func writeString(_ value: String, into out: inout [UInt8]) {
        out.append(.quote)
        var value = value
        value.withUTF8 { utf8 in
            writeEscaped(utf8, into: &out)
        }
        out.append(.quote)
    }

    /// Copies runs that need no escaping in bulk and escapes the rest.
    private static func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var runStart = 0
        for position in 0 ..< utf8.count {
            let byte = utf8[position]
            guard byte < 0x20 || byte == .quote || byte == .backslash else { continue }
            if runStart < position {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart ..< position]))
            }
            runStart = position + 1
            out.append(.backslash)
            switch byte {
            case .quote, .backslash: out.append(byte)
            case 0x08: out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(UInt8(ascii: "f"))
            case .lineFeed: out.append(UInt8(ascii: "n"))
            case .carriageReturn: out.append(UInt8(ascii: "r"))
            case .tab: out.append(UInt8(ascii: "t"))
            default:
                // \u00XX with lowercase hex; byte < 0x20 here.
                out.append(contentsOf: "u00".utf8)
                out.append(.digitZero + (byte >> 4))
                let low = byte & 0x0F
                out.append(low < 10 ? .digitZero + low : UInt8(ascii: "a") + low - 10)
            }
        }
        if runStart < utf8.count {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart ..< utf8.count]))
        }
    }
}
