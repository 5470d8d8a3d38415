@testable import SandboxPersistence
import Testing

struct BinaryCodingTests {
    @Test func varintsHaveTheLEB128Layout() {
        func encoded(_ value: UInt64) -> [UInt8] {
            var bytes: [UInt8] = []
            BinaryWriter.append(value, to: &bytes)
            return bytes
        }
        #expect(encoded(0) == [0])
        #expect(encoded(127) == [0x7F])
        #expect(encoded(128) == [0x80, 0x01])
        #expect(encoded(300) == [0xAC, 0x02])
        #expect(encoded(.max) == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        var signed: [UInt8] = []
        for value in [0, -1, 1, -2] as [Int] { BinaryWriter.append(value, to: &signed) }
        #expect(signed == [0, 1, 2, 3])  // zigzag
    }

    @Test func everyKindOfValueComesBackAsWritten() throws {
        var random = SystemRandomNumberGenerator()
        let extremes: [Int64] = [0, 1, -1, 63, -64, 64, .max, .min, .max - 1, .min + 1]
        let numbers = extremes + (0 ..< 2000).map { _ in Int64.random(in: .min ... .max,
                                                                      using: &random) >> Int64.random(in: 0 ... 63, using: &random) }
        let strings = ["", "BR", "São Paulo", "💸 \u{0}", String(repeating: "x", count: 300)]
        var bytes: [UInt8] = []
        for number in numbers { BinaryWriter.append(number, to: &bytes) }
        for text in strings { BinaryWriter.append(text, to: &bytes) }
        BinaryWriter.append(String?.none, to: &bytes)
        BinaryWriter.append(String?.some("E2E"), to: &bytes)
        BinaryWriter.append(Int?.none, to: &bytes)
        BinaryWriter.append(Int?.some(-826), to: &bytes)
        BinaryWriter.append(true, to: &bytes)
        let (read, end) = bytes.withUnsafeBytes { buffer -> ([Int64], Bool) in
            var reader = BinaryReader(buffer)
            do {
                let numbersRead = try numbers.map { _ in try reader.int64() }
                for text in strings { #expect(try reader.string() == text) }
                #expect(try reader.optionalString() == nil)
                #expect(try reader.optionalString() == "E2E")
                #expect(try reader.optionalInt() == nil)
                #expect(try reader.optionalInt() == -826)
                #expect(try reader.bool() == true)
                return (numbersRead, reader.isAtEnd)
            } catch {
                Issue.record("\(error)")
                return ([], false)
            }
        }
        #expect(read == numbers)
        #expect(end)
    }

    enum Read: Sendable { case number, string, flag }

    @Test(arguments: [
        ([0x80], Read.number, "malformed journal payload at byte 1: a number cut short"),
        ([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02], .number, "malformed journal payload at byte 9: a number over 64 bits"),
        ([0x05, 0x41], .string, "malformed journal payload at byte 0: a string cut short"),
        ([0x02, 0xC3, 0x28], .string, "malformed journal payload at byte 0: a string that is not UTF-8"),
        ([0x02], .flag, "malformed journal payload at byte 0: expected a flag (0 or 1)"),
    ] as [([UInt8], Read, String)])
    func malformedInputIsAnErrorWithItsOffset(bytes: [UInt8], read: Read, message: String) {
        let thrown = bytes.withUnsafeBytes { buffer -> String? in
            var reader = BinaryReader(buffer)
            do {
                switch read {
                case .number: _ = try reader.uint()
                case .string: _ = try reader.string()
                case .flag: _ = try reader.bool()
                }
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(thrown == message)
    }
}
