import Testing
@testable import SandboxWire

@Suite struct DescriptorTests {
    @Test func fileDescriptorReadsBackWithTheNamesAndNumbers() throws {
        let file = try Sample.registry.decode("google.protobuf.FileDescriptorProto", from: Sample.file.descriptorBytes)
        #expect(file.string("name") == "sample/everything.proto")
        #expect(file.string("package") == "sample")
        #expect(file.string("syntax") == "proto3")
        #expect(file.unknownFields.isEmpty)
        let message = try #require(file.messages("message_type").first)
        #expect(message.string("name") == "Everything")
        let fields = message.messages("field")
        #expect(fields.count == 26)
        let status = fields[15]
        #expect(status.string("name") == "status" && status.int("number") == 16)
        #expect(status.int("type") == 14 && status.string("type_name") == ".sample.Status" && status.int("label") == 1)
        let tags = fields[21]
        #expect(tags.int("label") == 3 && tags.int("type") == 9 && tags.string("json_name") == "tags")
        #expect(fields[2].string("json_name") == "anInt64")
        // The real oneof first, then one synthetic oneof per optional field.
        #expect(message.messages("oneof_decl").map { $0.string("name") } == ["method", "_nickname", "_count"])
        #expect(fields[17].string("name") == "nickname" && fields[17].bool("proto3_optional") && fields[17].int("oneof_index") == 1)
        #expect(fields[18].int("oneof_index") == 2)
        #expect(fields[19].string("name") == "card" && fields[19].has("oneof_index") && fields[19].int("oneof_index") == 0)
        #expect(!fields[19].bool("proto3_optional"))
        #expect(!fields[0].has("oneof_index"))
        #expect(message.messages("nested_type").map { $0.string("name") } == ["Inner"])
        let level = try #require(message.messages("enum_type").first)
        #expect(level.string("name") == "Level")
        #expect(level.messages("value").map { "\($0.string("name"))=\($0.int("number"))" } == ["LEVEL_UNSPECIFIED=0", "LOW=1", "HIGH=2"])
        let topEnum = try #require(file.messages("enum_type").first)
        #expect(topEnum.messages("value").last?.int("number") == -1)
        let service = try #require(file.messages("service").first)
        #expect(service.string("name") == "Echo")
        let method = try #require(service.messages("method").first)
        #expect(method.string("input_type") == ".sample.Everything" && !method.has("client_streaming"))
    }

    @Test func streamingFlagsAreWrittenWhenTrue() throws {
        let file = ProtoFile(name: "s.proto", package: "s", dependencies: ["sample/everything.proto"], services: [ServiceSchema("s.S", [
            MethodSchema("Both", input: "sample.Everything", output: "sample.Everything", clientStreaming: true, serverStreaming: true),
        ])])
        let decoded = try Sample.registry.decode("google.protobuf.FileDescriptorProto", from: file.descriptorBytes)
        #expect(decoded.strings("dependency") == ["sample/everything.proto"])
        let method = try #require(decoded.messages("service").first?.messages("method").first)
        #expect(method.bool("client_streaming") && method.bool("server_streaming"))
    }

    @Test func fieldsComeInNumberOrderAsProtocWritesThem() {
        let schema = MessageSchema("p.M", [FieldSchema(1, "a_b", .message("p.M"), .optional)])
        let file = ProtoFile(name: "p.proto", package: "p", messages: [schema])
        // message_type { name "M" field { name "a_b" number 1 label 1 type 11 type_name ".p.M" oneof_index 0 json_name "aB" proto3_optional true }
        // oneof_decl { name "_a_b" } }
        let expected = "0a 07 70 2e 70 72 6f 74 6f 12 01 70 22 27 0a 01 4d 12 1a 0a 03 61 5f 62 18 01 20 01 28 0b 32 04 2e 70 2e 4d 48 00 52 02 61 "
                       + "42 88 01 01 42 06 0a 04 5f 61 5f 62 62 06 70 72 6f 74 6f 33"
        #expect(hex(file.descriptorBytes) == expected)
    }
}
