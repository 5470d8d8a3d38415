/// A compact binary encoding for journal payloads: unsigned LEB128 varints, zigzag for signed
/// numbers, length-prefixed UTF-8 strings, and a presence byte before optionals.
///
/// ```swift
/// var bytes: [UInt8] = []
/// BinaryWriter.append(1_000_001, to: &bytes)
/// BinaryWriter.append("BR", to: &bytes)
/// var reader = BinaryReader(bytes)
/// try reader.int()      // 1000001
/// try reader.string()   // "BR"
/// ```
@usableFromInline enum BinaryWriter {
    @inline(__always)
    @usableFromInline
    package static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    @inline(__always)
    package static func append(_ value: Int, to bytes: inout [UInt8]) {
        append(Int64(value), to: &bytes)
    }

    @inline(__always)
    package static func append(_ value: Int64, to bytes: inout [UInt8]) {
        append(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)  // zigzag: small magnitudes stay small
    }

    @inline(__always)
    package static func append(_ value: Bool, to bytes: inout [UInt8]) {
        bytes.append(value ? 1 : 0)
    }

    @inline(__always)
    package static func append(_ value: String, to bytes: inout [UInt8]) {
        var value = value
        value.withUTF8 { utf8 in
            append(UInt64(utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }

    package static func append(_ value: String?, to bytes: inout [UInt8]) {
        append(value != nil, to: &bytes)
        if let value { append(value, to: &bytes) }
    }

    package static func append(_ value: Int?, to bytes: inout [UInt8]) {
        append(value != nil, to: &bytes)
        if let value { append(value, to: &bytes) }
    }

    /// Length-prefixed bytes (a file's contents, which need not be UTF-8).
    @inlinable
    package static func append(bytes value: some Collection<UInt8>, to bytes: inout [UInt8]) {
        append(UInt64(value.count), to: &bytes)
        bytes.append(contentsOf: value)
    }
}

/// Reads what `BinaryWriter` wrote, in the same order; throws on anything short or malformed.
struct BinaryReader {
    package struct Malformed: Error, Equatable, CustomStringConvertible {
        let offset: Int
        package let reason: String

        package init(offset: Int, reason: String) {
            self.offset = offset
            self.reason = reason
        }

        package var description: String { "malformed journal payload at byte \(offset): \(reason)" }
    }

    private let buffer: UnsafeRawBufferPointer
    private(set) var offset = 0
    /// Whether more bytes may follow `buffer`'s (see `init(_:more:)`).
    let more: Bool
    /// The last value could not be read for want of bytes that may follow: read it again, from
    /// where it starts, once they are there. Only with `more`: else the error stands.
    private(set) var ranShort = false

    /// A reader over `bytes`, which must stay valid while it is used. With `more`, the bytes are
    /// a part of a longer whole whose next part may follow (a snapshot read as it arrives): a
    /// value running past their end throws, as always, and sets `ranShort`.
    package init(_ bytes: UnsafeRawBufferPointer, more: Bool = false) {
        buffer = bytes
        self.more = more
    }

    var isAtEnd: Bool { offset == buffer.count }

    /// Bytes not read yet.
    var remaining: Int { buffer.count - offset }

    mutating func uint() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < buffer.count else { throw short(Malformed(offset: offset, reason: "a number cut short")) }
            let byte = buffer[offset]
            offset += 1
            guard shift < 64, shift < 63 || byte <= 1 else { throw Malformed(offset: offset - 1, reason: "a number over 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func int64() throws(Malformed) -> Int64 {
        let raw = try uint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    mutating func int() throws(Malformed) -> Int {
        Int(try int64())
    }

    mutating func bool() throws(Malformed) -> Bool {
        guard offset < buffer.count, buffer[offset] <= 1 else {
            throw short(Malformed(offset: offset, reason: "expected a flag (0 or 1)"), if: offset == buffer.count)
        }
        offset += 1
        return buffer[offset - 1] == 1
    }

    package mutating func string() throws(Malformed) -> String {
        let start = offset
        let utf8 = try bytesOfString()
        // ASCII (nearly every string) is UTF-8 as it is: `String(validating:)` costs a third of
        // a journal's replay, most of it looking its generic types up.
        if utf8.allSatisfy({ $0 < 0x80 }) { return String(decoding: utf8, as: UTF8.self) }
        guard let text = String(validating: utf8, as: UTF8.self) else { throw Malformed(offset: start, reason: "a string that is not UTF-8") }
        return text
    }

    /// A string's bytes, checked to be UTF-8, where they lie in the payload (valid while it is):
    /// for a reader that keeps them as bytes, with no string made on the way.
    mutating func utf8() throws(Malformed) -> UnsafeBufferPointer<UInt8> {
        let start = offset
        let utf8 = try bytesOfString()
        guard utf8.allSatisfy({ $0 < 0x80 }) || String(validating: utf8, as: UTF8.self) != nil else {
            throw Malformed(offset: start, reason: "a string that is not UTF-8")
        }
        return utf8
    }

    /// A length-prefixed string's bytes, unchecked, where they lie in the payload.
    private mutating func bytesOfString() throws(Malformed) -> UnsafeBufferPointer<UInt8> {
        let start = offset
        let count = try uint()
        guard count <= UInt64(buffer.count - offset) else { throw short(Malformed(offset: start, reason: "a string cut short")) }
        defer { offset += Int(count) }
        return UnsafeRawBufferPointer(rebasing: buffer[offset ..< offset + Int(count)]).assumingMemoryBound(to: UInt8.self)
    }

    /// What `BinaryWriter.append(bytes:to:)` wrote.
    package mutating func bytes() throws(Malformed) -> [UInt8] {
        let count = try count()
        defer { offset += count }
        return Array(UnsafeRawBufferPointer(rebasing: buffer[offset ..< offset + count]))
    }

    /// A count of things to read next, at most what is left of the payload (each takes one byte
    /// at least), so a corrupt count cannot make a reader reserve or loop for more.
    package mutating func count() throws(Malformed) -> Int {
        let start = offset
        let count = try uint()
        guard count <= UInt64(remaining) else { throw short(Malformed(offset: start, reason: "a count larger than the payload")) }
        return Int(count)
    }

    /// A count of things that need not all be in this part of the bytes: `count()`, but while
    /// `more` may follow, one that the bytes to come may hold (read the things one at a time,
    /// each of which takes a byte at least, and a corrupt count runs out of them).
    mutating func countAcrossParts() throws(Malformed) -> Int {
        guard more else { return try count() }
        let start = offset
        let count = try uint()
        guard count <= 1 << 48 else { throw Malformed(offset: start, reason: "a count larger than the payload") }
        return Int(count)
    }

    mutating func optionalString() throws(Malformed) -> String? {
        try bool() ? try string() : nil
    }

    mutating func optionalInt() throws(Malformed) -> Int? {
        try bool() ? try int() : nil
    }

    /// A byte that names a case: `cases` is how many there are.
    mutating func tag(below cases: UInt8) throws(Malformed) -> UInt8 {
        guard offset < buffer.count, buffer[offset] < cases else {
            throw short(Malformed(offset: offset, reason: "an unknown record kind"), if: offset == buffer.count)
        }
        offset += 1
        return buffer[offset - 1]
    }

    /// What `read` reads, or nil when it runs past the end of bytes that `more` may follow: the
    /// reader is then back where it was, to read the value again once they are there.
    package mutating func whole<Value>(_ read: (inout BinaryReader) throws(Malformed) -> Value) throws(Malformed) -> Value? {
        let before = self
        do {
            return try read(&self)
        } catch {
            guard ranShort else { throw error }
            self = before
            return nil
        }
    }

    /// `error`, noting (with `more`) that it may be for want of the bytes to come.
    private mutating func short(_ error: Malformed, if atTheEnd: Bool = true) -> Malformed {
        ranShort = more && atTheEnd
        return error
    }
}
