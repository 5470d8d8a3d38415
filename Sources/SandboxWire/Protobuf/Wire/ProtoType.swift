/// A field's type: one of the 15 scalar types, or a message or enum named by its full name
/// (`"types.Money"`, nested ones as `"types.PayoutEnums.PayoutPriority"`).
package enum ProtoType: Sendable, Hashable {
    /// The 15 scalar types, as `.proto` files name them.
    case double, float, int64, uint64, int32, fixed64, fixed32, bool, string, bytes, uint32, sfixed32, sfixed64, sint32, sint64
    /// An embedded message, by full name.
    case message(String)
    /// An enum, by full name.
    case enumeration(String)

    /// `FieldDescriptorProto.Type`'s number (TYPE_DOUBLE = 1 … TYPE_SINT64 = 18).
    var descriptorNumber: Int {
        switch self {
        case .double: 1
        case .float: 2
        case .int64: 3
        case .uint64: 4
        case .int32: 5
        case .fixed64: 6
        case .fixed32: 7
        case .bool: 8
        case .string: 9
        case .message: 11
        case .bytes: 12
        case .uint32: 13
        case .enumeration: 14
        case .sfixed32: 15
        case .sfixed64: 16
        case .sint32: 17
        case .sint64: 18
        }
    }

    /// The wire type of one value of this type.
    var wireType: WireType {
        switch self {
        case .double, .fixed64, .sfixed64: .fixed64
        case .float, .fixed32, .sfixed32: .fixed32
        case .string, .bytes, .message: .lengthDelimited
        default: .varint
        }
    }

    /// Whether repeated values may be packed (every scalar but string and bytes, and enums).
    var isPackable: Bool { wireType != .lengthDelimited }

    /// The referenced message or enum's full name.
    package var typeName: String? {
        switch self {
        case .message(let name), .enumeration(let name): name
        default: nil
        }
    }

    /// Whether proto3 JSON writes values of this type as strings (the 64-bit integers).
    var isJSON64: Bool { self == .int64 || self == .uint64 || self == .sint64 || self == .fixed64 || self == .sfixed64 }

    /// Whether values are stored as ``ProtoValue/int(_:)``, and their range.
    var signedRange: ClosedRange<Int64>? {
        switch self {
        case .int32, .sint32, .sfixed32: Int64(Int32.min) ... Int64(Int32.max)
        case .int64, .sint64, .sfixed64: Int64.min ... Int64.max
        default: nil
        }
    }

    /// Whether values are stored as ``ProtoValue/uint(_:)``, and their largest value.
    var unsignedMax: UInt64? {
        switch self {
        case .uint32, .fixed32: UInt64(UInt32.max)
        case .uint64, .fixed64: UInt64.max
        default: nil
        }
    }

    /// The name `.proto` files use (`int32`, `string`, or the type's full name).
    var protoName: String {
        switch self {
        case .message(let name), .enumeration(let name): name
        default: "\(self)"
        }
    }
}
