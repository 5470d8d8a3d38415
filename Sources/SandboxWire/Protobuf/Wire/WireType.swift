// The protobuf wire format: https://protobuf.dev/programming-guides/encoding/
// A tag is a varint `(field_number << 3) | wire_type`; the wire type says how to find the value's
// end without knowing the schema, which is what lets a reader skip (and keep) unknown fields.

/// How a field's value is laid out on the wire.
enum WireType: UInt8, Sendable {
    /// int32, int64, uint32, uint64, sint32, sint64, bool, enum.
    case varint = 0
    /// fixed64, sfixed64, double.
    case fixed64 = 1
    /// string, bytes, embedded messages, packed repeated fields.
    case lengthDelimited = 2
    /// Group start (proto2, deprecated): skipped as an unknown field.
    case startGroup = 3
    /// Group end (proto2, deprecated).
    case endGroup = 4
    /// fixed32, sfixed32, float.
    case fixed32 = 5
}
