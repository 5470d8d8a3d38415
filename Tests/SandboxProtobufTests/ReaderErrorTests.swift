import Testing
@testable import SandboxWire

@Suite struct ReaderErrorTests {
    private func decode(_ hexText: String) -> ProtobufError? {
        do {
            _ = try Sample.registry.decode("sample.Everything", from: bytes(hexText))
            return nil
        } catch {
            return error
        }
    }

    @Test func truncation() {
        #expect(decode("08") == .truncated)  // tag, no value
        #expect(decode("08 96") == .truncated)  // varint cut
        #expect(decode("0d 01 02") == .truncated)  // fixed32 cut
        #expect(decode("09 01 02 03") == .truncated)  // fixed64 cut
        #expect(decode("96") == .truncated)  // tag cut
    }

    @Test func varintLongerThanTenBytes() {
        #expect(decode("08 ff ff ff ff ff ff ff ff ff ff 01") == .varintTooLong)
        #expect(decode("08 ff ff ff ff ff ff ff ff ff 02") == .varintTooLong)  // bit 64 and up
        #expect(decode("08 ff ff ff ff ff ff ff ff ff 01") == nil)
    }

    @Test func invalidWireTypes() {
        #expect(decode("0e 00") == .invalidWireType(6))
        #expect(decode("0f 00") == .invalidWireType(7))
    }

    @Test func fieldNumberZeroAndTooLarge() {
        #expect(decode("00 01") == .invalidFieldNumber(0))
        #expect(decode("02 00") == .invalidFieldNumber(0))
        #expect(decode("80 80 80 80 10 00") == .invalidFieldNumber(536_870_912))  // field 2^29
        #expect(decode("f8 ff ff ff 0f 00") == nil)  // field 2^29 - 1, the largest, unknown: skipped
    }

    @Test func lengthPastTheEnd() {
        #expect(decode("4a 05 61 62") == .lengthOutOfBounds)
        #expect(decode("4a ff ff ff ff ff ff ff ff 7f") == .lengthOutOfBounds)
        // A nested message's length is checked against the nested message, not the whole input.
        #expect(decode("8a 01 02 0a 05 61 62 63") == .lengthOutOfBounds)
    }

    @Test func nestingTooDeep() {
        func nested(_ depth: Int) -> [UInt8] {
            var message: [UInt8] = []
            for _ in 0 ..< depth {
                var writer = ProtobufWriter()
                writer.writeBytesField(26, message)  // child
                message = writer.bytes
            }
            return message
        }
        #expect(throws: Never.self) { try Sample.registry.decode("sample.Everything", from: nested(100)) }
        #expect(throws: ProtobufError.nestingTooDeep) { try Sample.registry.decode("sample.Everything", from: nested(101)) }
        // Deep groups in an unknown field, too.
        let groups: [UInt8] = Array(repeating: [0xfb, 0x07], count: 101).flatMap { $0 } + Array(repeating: [0xfc, 0x07], count: 101).flatMap { $0 }
        #expect(throws: ProtobufError.nestingTooDeep) { try Sample.registry.decode("sample.Everything", from: groups) }
    }

    @Test func unbalancedGroups() {
        #expect(decode("0c") == .unbalancedGroup)  // end without start
        #expect(decode("0b 10 01") == .unbalancedGroup)  // start without end
        #expect(decode("0b 14") == .unbalancedGroup)  // ends another field's group
    }

    @Test func invalidUTF8InAString() {
        #expect(decode("4a 02 c3 28") == .invalidUTF8(field: "sample.Everything.a_string"))
        #expect(decode("52 02 c3 28") == nil)  // bytes may hold anything
    }

    @Test func everyTruncationOfASampleFailsCleanly() throws {
        let encoded = Sample.full.encoded()
        var failures = 0
        for length in 0 ..< encoded.count {
            do {
                _ = try Sample.registry.decode("sample.Everything", from: Array(encoded[..<length]))
            } catch {
                failures += 1
            }
        }
        #expect(failures > encoded.count / 2)  // cuts at field boundaries decode, to fewer fields
        #expect(try Sample.registry.decode("sample.Everything", from: encoded) == Sample.full)
    }

    @Test func errorsDescribeThemselves() {
        #expect(ProtobufError.invalidJSON(path: "amount.currency", reason: "unknown field").description == "amount.currency: unknown field")
        #expect(ProtobufError.truncated.description == "truncated message")
    }
}
