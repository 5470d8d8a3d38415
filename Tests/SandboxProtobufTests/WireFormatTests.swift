import Testing
@testable import SandboxWire

@Suite struct WireFormatTests {
    @Test func encodingGuideVectors() {
        var writer = ProtobufWriter()
        writer.writeVarintField(1, 150)
        #expect(hex(writer.bytes) == "08 96 01")
        writer = ProtobufWriter()
        writer.writeStringField(2, "testing")
        #expect(hex(writer.bytes) == "12 07 74 65 73 74 69 6e 67")
        writer = ProtobufWriter()
        writer.writeMessageField(3) { $0.writeVarintField(1, 150) }
        #expect(hex(writer.bytes) == "1a 03 08 96 01")
        writer = ProtobufWriter()
        writer.writeIntField(1, -1)  // int32 -1: sign-extended, 10 bytes
        #expect(hex(writer.bytes) == "08 ff ff ff ff ff ff ff ff ff 01")
    }

    @Test func zigZagTable() {
        let table: [(Int64, UInt64)] = [(0, 0), (-1, 1), (1, 2), (-2, 3), (2_147_483_647, 4_294_967_294), (-2_147_483_648, 4_294_967_295),
                                        (Int64.max, UInt64.max - 1), (Int64.min, UInt64.max)]
        for (signed, encoded) in table {
            #expect(ProtobufWriter.zigZag(signed) == encoded)
            #expect(ProtobufReader.unZigZag(encoded) == signed)
        }
        #expect(ProtobufWriter.zigZag(Int32(-2_147_483_648)) == 4_294_967_295)
        #expect(ProtobufReader.unZigZag(UInt32(4_294_967_294)) == 2_147_483_647)
    }

    @Test func fixedWidthIsLittleEndian() throws {
        var writer = ProtobufWriter()
        writer.writeFixed32Field(1, 0x0102_0304)
        writer.writeFixed64Field(2, 0x0102_0304_0506_0708)
        #expect(hex(writer.bytes) == "0d 04 03 02 01 11 08 07 06 05 04 03 02 01")
        var reader = ProtobufReader(writer.bytes)
        #expect(try reader.nextTag()! == (1, .fixed32))
        #expect(try reader.readFixed32() == 0x0102_0304)
        #expect(try reader.nextTag()! == (2, .fixed64))
        #expect(try reader.readFixed64() == 0x0102_0304_0506_0708)
        #expect(try reader.nextTag() == nil)
    }

    @Test func readsFieldByField() throws {
        var reader = ProtobufReader(bytes("08 96 01 12 07 74 65 73 74 69 6e 67"))
        #expect(try reader.nextTag()! == (1, .varint))
        #expect(try reader.readVarint() == 150)
        #expect(try reader.nextTag()! == (2, .lengthDelimited))
        #expect(String(decoding: try reader.readLengthDelimited(), as: UTF8.self) == "testing")
        #expect(reader.isAtEnd)
    }

    @Test func maximalVarints() throws {
        var writer = ProtobufWriter()
        writer.writeVarint(UInt64.max)
        #expect(hex(writer.bytes) == "ff ff ff ff ff ff ff ff ff 01")
        var reader = ProtobufReader(writer.bytes)
        #expect(try reader.readVarint() == UInt64.max)
    }

    @Test func skipsGroupsWithNestedGroups() throws {
        // field 1 start group { field 2 varint, field 3 group { } } field 1 end group, then field 4 = 1
        let input = bytes("0b 10 01 1b 1c 0c 20 01")
        var reader = ProtobufReader(input)
        let (field, wireType) = try #require(try reader.nextTag())
        #expect(wireType == .startGroup)
        try reader.skip(wireType, field: field)
        #expect(try reader.nextTag()! == (4, .varint))
        // Groups are kept as unknown fields by messages, and re-emitted.
        let message = try Sample.registry.decode("sample.Everything.Inner", from: bytes("0b 10 01 1b 1c 0c"))
        #expect(message.unknownFields == bytes("0b 10 01 1b 1c 0c"))
        #expect(message.encoded() == bytes("0b 10 01 1b 1c 0c"))
    }

    @Test func packedExampleFromTheGuide() throws {
        var message = Sample.registry.message("sample.Everything")
        message["numbers"] = [3, 270, 86942]
        #expect(hex(message.encoded()) == "ba 01 06 03 8e 02 9e a7 05")
        let unpacked = try Sample.registry.decode("sample.Everything", from: bytes("b8 01 03 b8 01 8e 02 b8 01 9e a7 05"))
        #expect(unpacked == message)
        let mixed = try Sample.registry.decode("sample.Everything", from: bytes("b8 01 03 ba 01 05 8e 02 9e a7 05"))
        #expect(mixed == message)
    }
}

private func == (lhs: (field: Int, wireType: WireType), rhs: (Int, WireType)) -> Bool {
    lhs.field == rhs.0 && lhs.wireType == rhs.1
}
