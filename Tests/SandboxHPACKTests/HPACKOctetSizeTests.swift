// Table sizes count the octets sent (RFC 7541 §4.1), even when a value is not UTF-8: a value of
// 30 Latin-1 octets (0xE9) is 30 octets in the peer's table, not the 90 its repaired text takes.

import Testing
@testable import SandboxWire

@Suite("HPACK octet sizes")
struct HPACKOctetSizeTests {
    @Test("A value that is not UTF-8 takes its octets in the table, so older entries stay as the peer has them")
    func nonUTF8ValueKeepsTheTableInStep() throws {
        var decoder = HPACKDecoder(maxTableSize: 100)
        _ = try decoder.decode([0x3F, 0x45])                                       // size update to 100
        _ = try decoder.decode([0x40, 0x01, 0x61, 0x01, 0x78])                     // a: x, 34 octets
        let latin1 = [0x40, 0x01, 0x62, 0x1E] + [UInt8](repeating: 0xE9, count: 30)  // b: 30 x 0xE9, 63 octets
        let decoded = try decoder.decode(latin1)
        #expect(decoded.map(\.size) == [63])
        #expect(decoder.dynamicTableSize == 97)
        #expect(try decoder.decode([0xBF]) == [HPACKHeader("a", "x")])            // index 63: the oldest, still there
    }

    @Test("A Huffman-coded literal counts its decoded octets")
    func huffmanLiteralCountsDecodedOctets() throws {
        var encoder = HPACKEncoder()
        var block: [UInt8] = []
        encoder.beginBlock(into: &block)
        encoder.encode("custom-key", "custom-value", into: &block)
        var decoder = HPACKDecoder()
        #expect(try decoder.decode(block).map(\.size) == [10 + 12 + 32])
        #expect(decoder.dynamicTableSize == 54)
    }
}
