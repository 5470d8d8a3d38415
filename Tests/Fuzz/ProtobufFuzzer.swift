// libFuzzer harness for SandboxWire: the decoder every gRPC request message goes through, the
// encoder every response comes out of, and the proto3 JSON mapping. Built and run by .ci/fuzz;
// seeds in Tests/Fuzz/corpus/protobuf, dictionary Tests/Fuzz/protobuf.dict.
//
// The input is a message's wire bytes, decoded against a schema with every scalar type, nested
// and recursive messages, enums, a oneof, optional and repeated (packed and not) fields. A
// `ProtobufError` is a normal outcome. The properties, any break of which traps:
//   * what decodes re-encodes to bytes that decode to the same message (unknown fields kept),
//     and encoding is a fixed point (the re-decoded message encodes to the same bytes);
//   * the message as proto3 JSON text parses back, against the schema, to a message with the
//     same JSON (JSON drops unknown fields, and NaN payloads, so the JSON is what is compared).

@testable import SandboxSupport
@testable import SandboxWire

private let schema = MessageSchema("fuzz.Sample", [
    FieldSchema(1, "a_double", .double), FieldSchema(2, "a_float", .float),
    FieldSchema(3, "an_int64", .int64), FieldSchema(4, "a_uint64", .uint64),
    FieldSchema(5, "an_int32", .int32), FieldSchema(6, "a_fixed64", .fixed64),
    FieldSchema(7, "a_fixed32", .fixed32), FieldSchema(8, "a_bool", .bool),
    FieldSchema(9, "a_string", .string), FieldSchema(10, "some_bytes", .bytes),
    FieldSchema(11, "a_uint32", .uint32), FieldSchema(12, "an_sfixed32", .sfixed32),
    FieldSchema(13, "an_sfixed64", .sfixed64), FieldSchema(14, "an_sint32", .sint32),
    FieldSchema(15, "an_sint64", .sint64),
    FieldSchema(16, "status", .enumeration("fuzz.Status")),
    FieldSchema(17, "inner", .message("fuzz.Sample.Inner")),
    FieldSchema(18, "nickname", .string, .optional),
    FieldSchema(19, "count", .sint64, .optional),
    FieldSchema(20, "card", .message("fuzz.Sample.Inner"), oneof: "method"),
    FieldSchema(21, "iban", .string, oneof: "method"),
    FieldSchema(22, "tags", .string, .repeated),
    FieldSchema(23, "numbers", .int32, .repeated),
    FieldSchema(24, "inners", .message("fuzz.Sample.Inner"), .repeated),
    FieldSchema(25, "levels", .enumeration("fuzz.Sample.Level"), .repeated),
    FieldSchema(26, "child", .message("fuzz.Sample")),
    FieldSchema(27, "doubles", .double, .repeated),
    FieldSchema(28, "fixeds", .fixed32, .repeated),
    FieldSchema(29, "flags", .bool, .repeated),
    FieldSchema(30, "blobs", .bytes, .repeated),
], messages: [
    MessageSchema("fuzz.Sample.Inner", [FieldSchema(1, "value", .string), FieldSchema(2, "minor_units", .int64),
                                        FieldSchema(3, "rate", .float, .optional)]),
], enums: [
    EnumSchema("fuzz.Sample.Level", ["LEVEL_UNSPECIFIED": 0, "LOW": 1, "HIGH": 2]),
])

private let registry = ProtoRegistry([ProtoFile(name: "fuzz.proto", package: "fuzz", messages: [schema], enums: [
    EnumSchema("fuzz.Status", ["STATUS_UNSPECIFIED": 0, "PENDING": 1, "SUCCESS": 2, "NEGATIVE": -1]),
])])

@_cdecl("LLVMFuzzerTestOneInput")
public func protobufFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    let message: ProtoMessage
    do {
        message = try registry.decode("fuzz.Sample", from: input)
    } catch {
        if fuzzShow { fuzzShowLine("refused: \(error)") }
        return 0
    }
    let encoded = message.encoded()
    guard let again = try? registry.decode("fuzz.Sample", from: encoded) else { fuzzFail("the encoding does not decode", input) }
    guard again == message else { fuzzFail("the encoding decodes to another message", input) }
    guard again.encoded() == encoded else { fuzzFail("encoding is not a fixed point", input) }

    let json = message.json()
    let text = json.serialized()
    if fuzzShow { fuzzShowLine("json: \(String(decoding: text, as: UTF8.self))") }
    let fromJSON: ProtoMessage
    do {
        fromJSON = try registry.decode("fuzz.Sample", jsonText: text)
    } catch {
        fuzzFail("its JSON does not parse back: \(error)", input)
    }
    guard fromJSON.json() == json else { fuzzFail("its JSON parses back to another message", input) }
    guard (try? registry.decode("fuzz.Sample", from: fromJSON.encoded())) == fromJSON else {
        fuzzFail("the message read from JSON does not round-trip", input)
    }
    return 0
}
