@testable import SandboxBank
@testable import SandboxPersistence
import Testing

/// A journal's or a snapshot's fields are read straight from their bytes (`BinaryReader.fields`):
/// they come back as written, whether their names repeat the list read before or not.
struct DecodedFieldsTests {
    @Test func fieldsReadBackAsWrittenWhenTheirNamesRepeatTheLastListOrDiffer() throws {
        let lists: [[(String, String)]] = [
            [("country", "BR"), ("beneficiary_name", "Ana 💸"), ("amount", "10.00")],
            [("country", "MX"), ("beneficiary_name", "Bo"), ("amount", "20.00")],  // the same names: read by place
            [("country", "MX"), ("beneficiary_lastname", "Silva"), ("amount", "20.00"), ("extra", "")],  // one differs, one more
            [("amount", "1.00")],
            [],
        ]
        for pairs in lists + lists {
            let read = try Self.read(pairs)
            #expect(read.map(\.name) == pairs.map(\.0) && read.map(\.value) == pairs.map(\.1))
        }
    }

    @Test func fieldsWrittenAsAJournalWritesThemReadBackTheSame() throws {
        let long = String(repeating: "é", count: 300)  // a length of two varint bytes
        let fields = Fields([("country", "BR"), ("beneficiary_name", "Ana 💸"), ("", "empty name"), ("note", long), ("empty", "")])
        var bytes: [UInt8] = []
        BinaryWriter.append(fields, to: &bytes)
        let read = try bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            return try reader.fields()
        }
        #expect(read.map(\.name) == fields.map(\.name) && read.map(\.value) == fields.map(\.value) && read.count == 5)
    }

    @Test func aNameWrittenTwiceKeepsItsLaterValueAsWhenMade() throws {
        let pairs = [("country", "BR"), ("amount", "10.00"), ("country", "MX")]
        let read = try Self.read(pairs)
        #expect(read == Fields(pairs) && read.map(\.name) == ["country", "amount"] && read["country"] == "MX")
    }

    @Test func aValueThatIsNotUTF8IsRefused() {
        var bytes: [UInt8] = [1]
        BinaryWriter.append("country", to: &bytes)
        bytes += [2, 0xC3, 0x28]  // a two-byte sequence cut by an ASCII byte
        #expect(throws: BinaryReader.Malformed.self) {
            try bytes.withUnsafeBytes { buffer in
                var reader = BinaryReader(buffer)
                _ = try reader.fields()
            }
        }
    }

    /// `pairs` written as a journal writes fields (a count, then each name and value), read back.
    private static func read(_ pairs: [(String, String)]) throws -> Fields {
        var bytes: [UInt8] = []
        BinaryWriter.append(UInt64(pairs.count), to: &bytes)
        for (name, value) in pairs {
            BinaryWriter.append(name, to: &bytes)
            BinaryWriter.append(value, to: &bytes)
        }
        return try bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            let fields = try reader.fields()
            #expect(reader.isAtEnd)
            return fields
        }
    }
}
