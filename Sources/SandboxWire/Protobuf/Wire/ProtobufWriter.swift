/// Appends protobuf wire-format fields to a byte buffer.
///
/// ```swift
/// var writer = ProtobufWriter()
/// writer.writeVarintField(1, 150)           // 08 96 01
/// writer.writeStringField(2, "testing")     // 12 07 74 65 73 74 69 6e 67
/// writer.writeMessageField(3) { $0.writeVarintField(1, 1) }
/// writer.bytes
/// ```
package struct ProtobufWriter: Sendable {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    init() {}

    /// Appends raw bytes (already-encoded fields, such as kept unknown ones).
    mutating func writeRaw(_ raw: some Sequence<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// Appends a base-128 varint: 1 to 10 bytes, low groups first.
    mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Appends a field's tag.
    mutating func writeTag(_ field: Int, _ wireType: WireType) {
        writeVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    /// Appends four little-endian bytes.
    mutating func writeFixed32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Appends eight little-endian bytes.
    mutating func writeFixed64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Appends a length varint and then `payload`.
    mutating func writeLengthDelimited(_ payload: some Collection<UInt8>) {
        writeVarint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    /// ZigZag for sint32: 0, -1, 1, -2 become 0, 1, 2, 3.
    static func zigZag(_ value: Int32) -> UInt32 {
        UInt32(bitPattern: (value << 1) ^ (value >> 31))
    }

    /// ZigZag for sint64.
    static func zigZag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// A varint field (uint32, uint64, bool, and int32/int64/enum through their bit patterns:
    /// a negative int32 is sign-extended, so it takes 10 bytes).
    mutating func writeVarintField(_ field: Int, _ value: UInt64) {
        writeTag(field, .varint)
        writeVarint(value)
    }

    /// An int32, int64 or enum field: negative values as 10-byte varints.
    mutating func writeIntField(_ field: Int, _ value: Int64) {
        writeVarintField(field, UInt64(bitPattern: value))
    }

    /// A sint64 (or, in range, sint32) field, ZigZag-encoded.
    mutating func writeSIntField(_ field: Int, _ value: Int64) {
        writeVarintField(field, Self.zigZag(value))
    }

    /// A fixed32, sfixed32 or float (its bit pattern) field.
    mutating func writeFixed32Field(_ field: Int, _ value: UInt32) {
        writeTag(field, .fixed32)
        writeFixed32(value)
    }

    /// A fixed64, sfixed64 or double (its bit pattern) field.
    mutating func writeFixed64Field(_ field: Int, _ value: UInt64) {
        writeTag(field, .fixed64)
        writeFixed64(value)
    }

    /// A bytes field (or any length-delimited payload).
    mutating func writeBytesField(_ field: Int, _ value: some Collection<UInt8>) {
        writeTag(field, .lengthDelimited)
        writeLengthDelimited(value)
    }

    /// A string field, as UTF-8.
    mutating func writeStringField(_ field: Int, _ value: String) {
        writeBytesField(field, Array(value.utf8))
    }

    /// An embedded message field whose content `body` writes.
    mutating func writeMessageField(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        body(&nested)
        writeBytesField(field, nested.bytes)
    }
}
