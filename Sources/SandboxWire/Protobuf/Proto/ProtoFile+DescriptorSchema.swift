extension ProtoFile {
    /// The part of `google/protobuf/descriptor.proto` that ``descriptorBytes`` writes, declared
    /// with the schema types so descriptors (the sandbox's, or protoc's) can be read back as
    /// messages: `registry.decode("google.protobuf.FileDescriptorProto", from: bytes)`. Options,
    /// source info, extensions and reserved ranges are left out (read back as unknown fields).
    static let descriptorSubset = ProtoFile(
        name: "google/protobuf/descriptor.proto", package: "google.protobuf",
        messages: [
            MessageSchema("google.protobuf.FileDescriptorProto", [
                FieldSchema(1, "name", .string), FieldSchema(2, "package", .string),
                FieldSchema(3, "dependency", .string, .repeated),
                FieldSchema(4, "message_type", .message("google.protobuf.DescriptorProto"), .repeated),
                FieldSchema(5, "enum_type", .message("google.protobuf.EnumDescriptorProto"), .repeated),
                FieldSchema(6, "service", .message("google.protobuf.ServiceDescriptorProto"), .repeated),
                FieldSchema(12, "syntax", .string),
            ]),
            MessageSchema("google.protobuf.DescriptorProto", [
                FieldSchema(1, "name", .string),
                FieldSchema(2, "field", .message("google.protobuf.FieldDescriptorProto"), .repeated),
                FieldSchema(3, "nested_type", .message("google.protobuf.DescriptorProto"), .repeated),
                FieldSchema(4, "enum_type", .message("google.protobuf.EnumDescriptorProto"), .repeated),
                FieldSchema(8, "oneof_decl", .message("google.protobuf.OneofDescriptorProto"), .repeated),
            ]),
            MessageSchema("google.protobuf.FieldDescriptorProto", [
                FieldSchema(1, "name", .string), FieldSchema(3, "number", .int32),
                FieldSchema(4, "label", .int32), FieldSchema(5, "type", .int32),
                FieldSchema(6, "type_name", .string), FieldSchema(9, "oneof_index", .int32, .optional),
                FieldSchema(10, "json_name", .string), FieldSchema(17, "proto3_optional", .bool),
            ]),
            MessageSchema("google.protobuf.OneofDescriptorProto", [FieldSchema(1, "name", .string)]),
            MessageSchema("google.protobuf.EnumDescriptorProto", [
                FieldSchema(1, "name", .string),
                FieldSchema(2, "value", .message("google.protobuf.EnumValueDescriptorProto"), .repeated),
            ]),
            MessageSchema("google.protobuf.EnumValueDescriptorProto", [FieldSchema(1, "name", .string), FieldSchema(2, "number", .int32)]),
            MessageSchema("google.protobuf.ServiceDescriptorProto", [
                FieldSchema(1, "name", .string),
                FieldSchema(2, "method", .message("google.protobuf.MethodDescriptorProto"), .repeated),
            ]),
            MessageSchema("google.protobuf.MethodDescriptorProto", [
                FieldSchema(1, "name", .string), FieldSchema(2, "input_type", .string), FieldSchema(3, "output_type", .string),
                FieldSchema(5, "client_streaming", .bool), FieldSchema(6, "server_streaming", .bool),
            ]),
        ])
}
