import Testing
@testable import SandboxWire

@Suite struct MessageTests {
    let registry = Sample.registry

    @Test func everyScalarTypeRoundTrips() throws {
        let full = Sample.full
        let decoded = try registry.decode("sample.Everything", from: full.encoded())
        #expect(decoded == full)
        #expect(decoded.int("an_int64") == -9_000_000_000)
        #expect(decoded.uint("a_uint64") == UInt64.max)
        #expect(decoded.int("an_int32") == -1)
        #expect(decoded.uint("a_fixed32") == UInt64(UInt32.max))
        #expect(decoded.int("an_sfixed64") == Int64.min)
        #expect(decoded.int("an_sint32") == -64)
        #expect(decoded.string("a_string") == "héllo")
        #expect(decoded.bytes("some_bytes") == [0, 1, 0xFF])
        #expect(decoded["a_double"] == .double(bits: (-2.5).bitPattern))
        #expect(decoded["a_float"] == .float(bits: Float(1.5).bitPattern))
        #expect(decoded.enumName("status") == "SUCCESS")
        #expect(decoded.message("inner")?.int("minor_units") == 1050)
        #expect(decoded.strings("tags") == ["a", "b"])
        #expect(decoded.list("numbers") == [3, 270, 86942, -1])
        #expect(decoded.messages("inners").count == 2)
        #expect(decoded.list("levels") == [.enumeration(2), .enumeration(7)])
    }

    @Test func scalarEncodingsOnTheWire() {
        func encoded(_ name: String, _ value: ProtoValue) -> String {
            var message = registry.message("sample.Everything")
            message[name] = value
            return hex(message.encoded())
        }
        #expect(encoded("an_int32", -1) == "28 ff ff ff ff ff ff ff ff ff 01")
        #expect(encoded("an_sint32", -1) == "70 01")
        #expect(encoded("an_sint64", -2) == "78 03")
        #expect(encoded("a_fixed32", 1) == "3d 01 00 00 00")
        #expect(encoded("an_sfixed32", -1) == "65 ff ff ff ff")
        #expect(encoded("an_sfixed64", -1) == "69 ff ff ff ff ff ff ff ff")
        #expect(encoded("a_bool", true) == "40 01")
        #expect(encoded("a_float", .float(bits: Float(1).bitPattern)) == "15 00 00 80 3f")
        #expect(encoded("a_double", .double(bits: Double(1).bitPattern)) == "09 00 00 00 00 00 00 f0 3f")
        #expect(encoded("status", "NEGATIVE") == "80 01 ff ff ff ff ff ff ff ff ff 01")
    }

    @Test func zeroValuesOfFieldsWithoutPresenceAreNotSent() {
        var message = registry.message("sample.Everything")
        message["an_int64"] = 0
        message["a_string"] = ""
        message["a_bool"] = false
        message["status"] = "STATUS_UNSPECIFIED"
        message["tags"] = []
        #expect(message.encoded().isEmpty)
        #expect(!message.has("a_string"))
        #expect(message.string("a_string") == "")
    }

    @Test func optionalFieldsHavePresence() throws {
        var message = registry.message("sample.Everything")
        #expect(!message.has("nickname"))
        message["nickname"] = ""
        message["count"] = 0
        #expect(hex(message.encoded()) == "92 01 00 98 01 00")
        let decoded = try registry.decode("sample.Everything", from: message.encoded())
        #expect(decoded.has("nickname") && decoded.has("count"))
        message["nickname"] = nil
        #expect(!message.has("nickname"))
    }

    @Test func oneofMembersReplaceEachOther() throws {
        var message = registry.message("sample.Everything")
        #expect(message.oneofCase("method") == nil)
        message["iban"] = ""  // a oneof member has presence, even empty
        #expect(message.oneofCase("method") == "iban")
        message["card"] = .message(registry.message("sample.Everything.Inner"))
        #expect(message.oneofCase("method") == "card")
        #expect(!message.has("iban"))
        // On the wire, the last member wins.
        let decoded = try registry.decode("sample.Everything", from: bytes("aa 01 02 44 45 a2 01 00"))
        #expect(decoded.oneofCase("method") == "card")
    }

    @Test func lastValueWinsAndMessagesMerge() throws {
        // inner { value: "a" } inner { minor_units: 5 } a_string "x" a_string ""
        let decoded = try registry.decode("sample.Everything", from: bytes("8a 01 03 0a 01 61 8a 01 02 10 05 4a 01 78 4a 00"))
        #expect(decoded.message("inner")?.string("value") == "a")
        #expect(decoded.message("inner")?.int("minor_units") == 5)
        #expect(!decoded.has("a_string"))
    }

    @Test func unknownFieldsAreKeptAndSentAgain() throws {
        // field 99 varint 1, field 100 bytes "hi", and a known field with the wrong wire type (a_string as varint)
        let input = bytes("98 06 01 a2 06 02 68 69 48 01 58 07")
        let decoded = try registry.decode("sample.Everything", from: input)
        #expect(decoded.uint("a_uint32") == 7)
        #expect(decoded.unknownFields == bytes("98 06 01 a2 06 02 68 69 48 01"))
        #expect(decoded.encoded() == bytes("58 07") + bytes("98 06 01 a2 06 02 68 69 48 01"))
        #expect(try registry.decode("sample.Everything", from: decoded.encoded()) == decoded)
    }

    @Test func truncatedInt32sKeepTheirLowBits() throws {
        // an_int32 given as a 64-bit varint 2^32 + 5: int32 keeps the low 32 bits, as protoc's parsers do
        let decoded = try registry.decode("sample.Everything", from: bytes("28 85 80 80 80 10"))
        #expect(decoded.int("an_int32") == 5)
    }

    @Test func settersCheckRangesAndConvert() {
        var message = registry.message("sample.Everything")
        message["a_uint32"] = .int(5)
        #expect(message["a_uint32"] == .uint(5))
        message["an_int64"] = .uint(5)
        #expect(message["an_int64"] == .int(5))
        message["status"] = 1
        #expect(message.enumName("status") == "PENDING")
        message["levels"] = ["LOW"]
        #expect(message.list("levels") == [.enumeration(1)])
        message["aString"] = "by its JSON name"
        #expect(message.string("a_string") == "by its JSON name")
    }

    @Test func registryFindsFilesAndSymbols() {
        #expect(registry.file(containingSymbol: "sample.Everything.Inner")?.name == "sample/everything.proto")
        #expect(registry.file(containingSymbol: "sample.Everything.Level")?.name == "sample/everything.proto")
        #expect(registry.file(containingSymbol: "sample.Everything.HIGH")?.name == "sample/everything.proto")
        #expect(registry.file(containingSymbol: "sample.PENDING")?.name == "sample/everything.proto")
        #expect(registry.file(containingSymbol: "sample.Echo.Echo")?.name == "sample/everything.proto")
        #expect(registry.file(containingSymbol: "sample.Everything.a_string") != nil)
        #expect(registry.file(containingSymbol: "sample.Nope") == nil)
        #expect(registry.service("sample.Echo")?.method("Echo")?.isUnary == true)
    }
}
