/// One field value of a ``ProtoMessage``.
///
/// Integers are kept in 64 bits whatever their declared width (a setter checks the range);
/// `float` and `double` are kept as their IEEE 754 bit patterns, so no value passes through
/// floating-point arithmetic (the sandbox never uses them for money).
///
/// ```swift
/// message["connector_payout_id"] = "po_1"     // .string
/// message["minor_amount"] = 1050              // .int, or .uint for unsigned fields
/// message["status"] = "SUCCESS"               // an enum by name, stored as .enumeration(number)
/// message["tags"] = ["a", "b"]                // .list
/// ```
package enum ProtoValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral {
    /// int32, int64, sint32, sint64, sfixed32, sfixed64.
    case int(Int64)
    /// uint32, uint64, fixed32, fixed64.
    case uint(UInt64)
    /// bool.
    case bool(Bool)
    /// string.
    case string(String)
    /// bytes.
    case bytes([UInt8])
    /// float, as its bit pattern.
    case float(bits: UInt32)
    /// double, as its bit pattern.
    case double(bits: UInt64)
    /// An enum value's number (open enums: unknown numbers are kept).
    case enumeration(Int32)
    /// An embedded message.
    case message(ProtoMessage)
    /// A repeated field's values.
    case list([ProtoValue])

    /// A string value.
    package init(stringLiteral value: String) { self = .string(value) }
    /// An integer value (converted to the field's kind when set).
    package init(integerLiteral value: Int64) { self = .int(value) }
    /// A bool value.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A list value.
    package init(arrayLiteral elements: ProtoValue...) { self = .list(elements) }

    /// Whether this is the proto3 zero value a field without presence leaves off the wire.
    var isZero: Bool {
        switch self {
        case .int(let value): value == 0
        case .uint(let value): value == 0
        case .bool(let value): !value
        case .string(let value): value.isEmpty
        case .bytes(let value): value.isEmpty
        case .float(let bits): bits == 0
        case .double(let bits): bits == 0
        case .enumeration(let value): value == 0
        case .message: false
        case .list(let values): values.isEmpty
        }
    }
}
