import Testing
@testable import SandboxWire

@Suite struct GRPCFramingTests {
    @Test func framesWithABigEndianLength() {
        #expect(GRPCDeframer.frame([0xAA, 0xBB]) == [0, 0, 0, 0, 2, 0xAA, 0xBB])
        #expect(GRPCDeframer.frame(Array(repeating: 1, count: 0x0102_03)).prefix(5) == [0, 0, 1, 2, 3])
        #expect(GRPCDeframer.frame([]) == [0, 0, 0, 0, 0])
    }

    @Test func deframesWhateverTheSplit() throws {
        let messages: [[UInt8]] = [[1, 2, 3], [], Array(repeating: 7, count: 300)]
        let stream = messages.flatMap(GRPCDeframer.frame)
        for split in 0 ... stream.count {
            var deframer = GRPCDeframer()
            let got = try deframer.append(stream[..<split]) + deframer.append(stream[split...])
            #expect(got == messages)
            #expect(!deframer.hasPartialMessage)
        }
        var deframer = GRPCDeframer()
        var got: [[UInt8]] = []
        for byte in stream { got += try deframer.append([byte]) }
        #expect(got == messages)
    }

    @Test func refusesOversizedMessagesFromTheirPrefix() throws {
        var deframer = GRPCDeframer(maxMessageSize: 10)
        #expect(throws: GRPCStatus(.resourceExhausted, "received message larger than max (11 vs. 10)")) {
            try deframer.append([0, 0, 0, 0, 11])
        }
        var fits = GRPCDeframer(maxMessageSize: 10)
        #expect(try fits.append([0, 0, 0, 0, 10]).isEmpty)
        #expect(fits.hasPartialMessage)
        #expect(GRPCDeframer.defaultMaxMessageSize == 4_194_304)
    }

    @Test func refusesCompressedMessages() {
        var deframer = GRPCDeframer()
        #expect(throws: GRPCStatus(.internal, "compressed message received without grpc-encoding: the sandbox supports identity encoding only")) {
            try deframer.append([1, 0, 0, 0, 0])
        }
        var other = GRPCDeframer()
        #expect(throws: GRPCStatus(.internal, "invalid compressed flag 2 in a message prefix")) { try other.append([2, 0, 0, 0, 0]) }
    }

    @Test func percentEncodesGRPCMessage() {
        #expect(GRPCStatus.percentEncoded("plain text: ok") == "plain text: ok")
        #expect(GRPCStatus.percentEncoded("100%\n\u{7F}é✓") == "100%25%0A%7F%C3%A9%E2%9C%93")
        #expect(GRPCStatus.percentDecoded("100%25%0A%7F%C3%A9%E2%9C%93") == "100%\n\u{7F}é✓")
        #expect(GRPCStatus.percentDecoded("bad %zz and %4") == "bad %zz and %4")
    }

    @Test func statusCodesHaveTheirCanonicalNames() {
        #expect(GRPCStatus.Code.allCases.count == 17)
        #expect(GRPCStatus.Code.unauthenticated.rawValue == 16)
        #expect(GRPCStatus.Code.allCases.map(\.name).prefix(6) == ["OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
                                                                   "NOT_FOUND"])
        #expect(GRPCStatus.Code.internal.name == "INTERNAL")
        #expect(GRPCStatus(.notFound, "x").description == "NOT_FOUND: x")
    }

    @Test func parsesTimeouts() {
        #expect(GRPCTimeout.nanoseconds("100m") == 100_000_000)
        #expect(GRPCTimeout.nanoseconds("5S") == 5_000_000_000)
        #expect(GRPCTimeout.nanoseconds("1H") == 3_600_000_000_000)
        #expect(GRPCTimeout.nanoseconds("2M") == 120_000_000_000)
        #expect(GRPCTimeout.nanoseconds("7u") == 7000)
        #expect(GRPCTimeout.nanoseconds("99999999n") == 99_999_999)
        #expect(GRPCTimeout.nanoseconds("99999999H") == Int64.max)  // capped
        #expect(GRPCTimeout.nanoseconds("2562047H") == 9_223_369_200_000_000_000)
        #expect(GRPCTimeout.nanoseconds("0m") == 0)
        for bad in ["", "m", "123456789S", "1x", "-1S", "1.5S", "S1", "1 S", "1s"] { #expect(GRPCTimeout.nanoseconds(bad) == nil) }
    }
}
