@testable import SandboxWire

/// A file with every scalar type, nesting, an enum inside a message, a oneof, optional fields
/// and repeated fields, packed and not.
enum Sample {
    static let everything = MessageSchema("sample.Everything", [
        FieldSchema(1, "a_double", .double), FieldSchema(2, "a_float", .float),
        FieldSchema(3, "an_int64", .int64), FieldSchema(4, "a_uint64", .uint64),
        FieldSchema(5, "an_int32", .int32), FieldSchema(6, "a_fixed64", .fixed64),
        FieldSchema(7, "a_fixed32", .fixed32), FieldSchema(8, "a_bool", .bool),
        FieldSchema(9, "a_string", .string), FieldSchema(10, "some_bytes", .bytes),
        FieldSchema(11, "a_uint32", .uint32), FieldSchema(12, "an_sfixed32", .sfixed32),
        FieldSchema(13, "an_sfixed64", .sfixed64), FieldSchema(14, "an_sint32", .sint32),
        FieldSchema(15, "an_sint64", .sint64),
        FieldSchema(16, "status", .enumeration("sample.Status")),
        FieldSchema(17, "inner", .message("sample.Everything.Inner")),
        FieldSchema(18, "nickname", .string, .optional),
        FieldSchema(19, "count", .int32, .optional),
        FieldSchema(20, "card", .message("sample.Everything.Inner"), oneof: "method"),
        FieldSchema(21, "iban", .string, oneof: "method"),
        FieldSchema(22, "tags", .string, .repeated),
        FieldSchema(23, "numbers", .int32, .repeated),
        FieldSchema(24, "inners", .message("sample.Everything.Inner"), .repeated),
        FieldSchema(25, "levels", .enumeration("sample.Everything.Level"), .repeated),
        FieldSchema(26, "child", .message("sample.Everything")),
    ], messages: [
        MessageSchema("sample.Everything.Inner", [FieldSchema(1, "value", .string), FieldSchema(2, "minor_units", .int64)]),
    ], enums: [
        EnumSchema("sample.Everything.Level", ["LEVEL_UNSPECIFIED": 0, "LOW": 1, "HIGH": 2]),
    ])

    static let status = EnumSchema("sample.Status", ["STATUS_UNSPECIFIED": 0, "PENDING": 1, "SUCCESS": 2, "NEGATIVE": -1])

    static let file = ProtoFile(name: "sample/everything.proto", package: "sample", messages: [everything], enums: [status],
                                services: [ServiceSchema("sample.Echo",
                                                         [MethodSchema("Echo", input: "sample.Everything", output: "sample.Everything")])])

    static let registry = ProtoRegistry([file, ProtoFile.descriptorSubset])

    /// A message with a value in every field.
    static var full: ProtoMessage {
        var message = registry.message("sample.Everything")
        message["a_double"] = .double(bits: (-2.5).bitPattern)
        message["a_float"] = .float(bits: Float(1.5).bitPattern)
        message["an_int64"] = .int(-9_000_000_000)
        message["a_uint64"] = .uint(UInt64.max)
        message["an_int32"] = -1
        message["a_fixed64"] = 42
        message["a_fixed32"] = .uint(UInt64(UInt32.max))
        message["a_bool"] = true
        message["a_string"] = "héllo"
        message["some_bytes"] = .bytes([0, 1, 0xFF])
        message["a_uint32"] = 7
        message["an_sfixed32"] = -5
        message["an_sfixed64"] = .int(Int64.min)
        message["an_sint32"] = -64
        message["an_sint64"] = .int(Int64.max)
        message["status"] = "SUCCESS"
        var inner = registry.message("sample.Everything.Inner")
        inner["value"] = "x"
        inner["minor_units"] = 1050
        message["inner"] = .message(inner)
        message["nickname"] = ""
        message["count"] = 0
        message["iban"] = "DE00"
        message["tags"] = ["a", "b"]
        message["numbers"] = [3, 270, 86942, -1]
        message["inners"] = [.message(inner), .message(inner)]
        message["levels"] = ["HIGH", .enumeration(7)]
        return message
    }
}

/// Hex text of bytes, spaced: "08 96 01".
func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
}

/// Bytes from spaced hex text.
func bytes(_ hex: String) -> [UInt8] {
    hex.split(separator: " ").map { UInt8($0, radix: 16)! }
}
