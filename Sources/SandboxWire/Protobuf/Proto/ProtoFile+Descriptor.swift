// A ProtoFile as the `google.protobuf.FileDescriptorProto` protoc would make of its `.proto` text
// (descriptor.proto: https://github.com/protocolbuffers/protobuf/blob/main/src/google/protobuf/descriptor.proto),
// which server reflection serves. Fields are written in field-number order, as protoc does.
// proto3 `optional` fields get a synthetic oneof `_name`, after the declared oneofs, and
// proto3_optional = true; json_name is always filled in, as in protoc's descriptor sets.
// No options are written (the `.proto` files kept beside the schemas declare none).

extension ProtoFile {
    /// The serialized `FileDescriptorProto`.
    var descriptorBytes: [UInt8] {
        var writer = ProtobufWriter()
        writer.writeStringField(1, name)
        if !package.isEmpty { writer.writeStringField(2, package) }
        for dependency in dependencies { writer.writeStringField(3, dependency) }
        for message in messages { writer.writeMessageField(4) { Self.describe(message, into: &$0) } }
        for schema in enums { writer.writeMessageField(5) { Self.describe(schema, into: &$0) } }
        for service in services { writer.writeMessageField(6) { Self.describe(service, into: &$0) } }
        writer.writeStringField(12, "proto3")
        return writer.bytes
    }

    /// DescriptorProto: name 1, field 2, nested_type 3, enum_type 4, oneof_decl 8.
    private static func describe(_ message: MessageSchema, into writer: inout ProtobufWriter) {
        writer.writeStringField(1, message.name)
        let declared = message.oneofs
        let synthetic = message.fields.filter { $0.label == .optional }.map(\.name)
        for field in message.fields {
            writer.writeMessageField(2) { out in
                out.writeStringField(1, field.name)
                out.writeIntField(3, Int64(field.number))
                out.writeIntField(4, field.label == .repeated ? 3 : 1)  // LABEL_REPEATED, LABEL_OPTIONAL
                out.writeIntField(5, Int64(field.type.descriptorNumber))
                if let typeName = field.type.typeName { out.writeStringField(6, "." + typeName) }
                if let oneof = field.oneof, let index = declared.firstIndex(of: oneof) {
                    out.writeIntField(9, Int64(index))
                } else if field.label == .optional, let index = synthetic.firstIndex(of: field.name) {
                    out.writeIntField(9, Int64(declared.count + index))
                }
                out.writeStringField(10, field.jsonName)
                if field.label == .optional { out.writeVarintField(17, 1) }
            }
        }
        for nested in message.messages { writer.writeMessageField(3) { describe(nested, into: &$0) } }
        for schema in message.enums { writer.writeMessageField(4) { describe(schema, into: &$0) } }
        for oneof in declared + synthetic.map({ "_" + $0 }) { writer.writeMessageField(8) { $0.writeStringField(1, oneof) } }
    }

    /// EnumDescriptorProto: name 1, value 2 (EnumValueDescriptorProto: name 1, number 2).
    private static func describe(_ schema: EnumSchema, into writer: inout ProtobufWriter) {
        writer.writeStringField(1, schema.name)
        for value in schema.values {
            writer.writeMessageField(2) { out in
                out.writeStringField(1, value.name)
                out.writeIntField(2, Int64(value.number))
            }
        }
    }

    /// ServiceDescriptorProto: name 1, method 2 (MethodDescriptorProto: name 1, input_type 2,
    /// output_type 3, client_streaming 5 and server_streaming 6 only when true, as protoc sets them).
    private static func describe(_ service: ServiceSchema, into writer: inout ProtobufWriter) {
        writer.writeStringField(1, service.name)
        for method in service.methods {
            writer.writeMessageField(2) { out in
                out.writeStringField(1, method.name)
                out.writeStringField(2, "." + method.input)
                out.writeStringField(3, "." + method.output)
                if method.clientStreaming { out.writeVarintField(5, 1) }
                if method.serverStreaming { out.writeVarintField(6, 1) }
            }
        }
    }
}
