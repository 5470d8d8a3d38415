// Hex (base16) encoding and decoding.

import Testing
@testable import SandboxSupport

@Suite("Hex")
struct HexTests {
    @Test("Known encodings")
    func knownEncodings() {
        #expect(Hex.lowercase([UInt8]()) == "")
        #expect(Hex.uppercase([UInt8]()) == "")
        #expect(Hex.lowercase([0x00]) == "00")
        #expect(Hex.lowercase([0x0f, 0xf0]) == "0ff0")
        #expect(Hex.lowercase([0xde, 0xad, 0xbe, 0xef, 0x01, 0x23, 0x45, 0x67, 0x89]) == "deadbeef0123456789")
        #expect(Hex.uppercase([0xde, 0xad, 0xbe, 0xef, 0x0a, 0xbc]) == "DEADBEEF0ABC")
    }

    @Test("Every byte value encodes to two digits and round-trips, both cases")
    func allByteValues() {
        let all = (0...255).map { UInt8($0) }
        let lower = Hex.lowercase(all)
        let upper = Hex.uppercase(all)
        #expect(lower.utf8.count == 512)
        #expect(upper == lower.uppercased())
        #expect(lower.hasPrefix("000102030405060708090a0b0c0d0e0f10"))
        #expect(upper.hasSuffix("FAFBFCFDFEFF"))
        #expect(Hex.decode(lower) == all)
        #expect(Hex.decode(upper) == all)
        for value in all {
            let digits = Hex.lowercase([value])
            #expect(digits.utf8.count == 2)
            #expect(Hex.decode(digits) == [value])
        }
    }

    @Test("Round trips for varied lengths and non-contiguous input")
    func roundTrips() {
        for length in 0...130 {
            let data = patternBytes(count: length)
            let encoded = Hex.lowercase(data)
            #expect(encoded.utf8.count == 2 * length)
            #expect(Hex.decode(encoded) == data)
            #expect(Hex.uppercase(data.lazy.map { $0 }) == Hex.uppercase(data))
            #expect(Hex.lowercase(data.lazy.map { $0 }) == encoded)
        }
    }

    @Test("Decoding accepts mixed case and Substring")
    func decodeMixedCase() {
        #expect(Hex.decode("DeAdBeEf") == [0xde, 0xad, 0xbe, 0xef])
        #expect(Hex.decode("") == [])
        let header = "sig=00Ff7a"
        #expect(Hex.decode(header.dropFirst(4)) == [0x00, 0xff, 0x7a])
    }

    @Test("Decoding rejects odd lengths", arguments: ["0", "abc", "00112", "F"])
    func rejectsOddLength(input: String) {
        #expect(Hex.decode(input) == nil)
    }

    @Test("Decoding rejects non-hex characters",
          arguments: ["0g", "zz", "g0", " 0", "0 ", "0x00", "00:11", "+1", "-1", "\u{0}0", "ab\ncd", "é0", "éé", "0G", "@@", "``", "//", "::"])
    func rejectsNonHex(input: String) {
        #expect(Hex.decode(input) == nil)
    }
}
