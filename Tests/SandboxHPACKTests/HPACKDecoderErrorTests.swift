// The decoder's refusals: bad indexes, size updates out of place or too large, truncation,
// integer overflow, invalid Huffman strings, and a header list too large that leaves the table in step.

import Testing
@testable import SandboxWire

@Suite("HPACK decoder errors")
struct HPACKDecoderErrorTests {
    @Test("Index 0 and indexes beyond the tables")
    func indexes() {
        var decoder = HPACKDecoder()
        #expect(isCompression(decodeError(&decoder, [0x80])))
        #expect(isCompression(decodeError(&decoder, [0xBE])))                  // 62, empty dynamic table
        #expect(isCompression(decodeError(&decoder, [0x7E, 0x01, 0x61])))     // literal, name index 62
        #expect(isCompression(decodeError(&decoder, [0x0F, 0x30, 0x01, 0x61]))) // without indexing, name index 63
        #expect(isCompression(decodeError(&decoder, [0x40 | 0x00, 0x01, 0x61, 0x01, 0x62, 0xBF]))) // 63 with one entry
        var fresh = HPACKDecoder()
        #expect(decodeOrRecord(&fresh, [0x40, 0x01, 0x61, 0x01, 0x62, 0xBE]) == [HPACKHeader("a", "b"), HPACKHeader("a", "b")])
        #expect(decodeOrRecord(&fresh, [0xBD]) == [HPACKHeader("www-authenticate", "")])
    }

    @Test("Size updates: at most the advertised maximum, only at the start, several allowed")
    func sizeUpdates() {
        var decoder = HPACKDecoder(maxTableSize: 4096)
        #expect(isCompression(decodeError(&decoder, [0x3F, 0xE2, 0x1F])))      // 4097
        decoder = HPACKDecoder(maxTableSize: 4096)
        #expect(isCompression(decodeError(&decoder, [0x82, 0x20])))
        decoder = HPACKDecoder(maxTableSize: 4096)
        #expect(decodeOrRecord(&decoder, [0x40, 0x01, 0x61, 0x01, 0x62]) == [HPACKHeader("a", "b")])
        #expect(decoder.dynamicTableSize == 34)
        #expect(decodeOrRecord(&decoder, [0x20, 0x3F, 0xE1, 0x1F, 0x82]) == [HPACKHeader(":method", "GET")]) // 0 then 4096
        #expect(decoder.dynamicTableSize == 0)
        #expect(decoder.dynamicTableMaxSize == 4096)
        #expect(decodeOrRecord(&decoder, [0x3F, 0x01]) == [])                   // 32: a block of only an update
        #expect(decoder.dynamicTableMaxSize == 32)
        #expect(decodeOrRecord(&decoder, [0x40, 0x01, 0x61, 0x00]) == [HPACKHeader("a", "")])
        #expect(decoder.dynamicTableSize == 0)  // 33 octets: larger than the table, which empties (§4.4)
    }

    @Test("Lowering the advertised maximum requires a size update at the start of the next block")
    func requiredUpdate() {
        var decoder = HPACKDecoder(maxTableSize: 4096)
        decoder.setMaxTableSize(100)
        #expect(isCompression(decodeError(&decoder, [0x82])))
        decoder = HPACKDecoder(maxTableSize: 4096)
        decoder.setMaxTableSize(100)
        #expect(isCompression(decodeError(&decoder, [0x3F, 0x46, 0x82])))      // 101
        decoder = HPACKDecoder(maxTableSize: 4096)
        decoder.setMaxTableSize(100)
        #expect(decodeOrRecord(&decoder, [0x3F, 0x45, 0x82]) == [HPACKHeader(":method", "GET")])
        #expect(decodeOrRecord(&decoder, [0x82]) == [HPACKHeader(":method", "GET")])
        decoder.setMaxTableSize(8192)                                               // raising needs nothing
        #expect(decodeOrRecord(&decoder, [0x82]) == [HPACKHeader(":method", "GET")])
    }

    @Test("Truncated integers and strings, at every cut")
    func truncation() {
        for bytes: [UInt8] in [[0xFF], [0xFF, 0x80], [0x7F], [0x40], [0x40, 0x05, 0x61], [0x40, 0x01, 0x61],
                               [0x40, 0x01, 0x61, 0x02, 0x62], [0x41, 0x85, 0xF1, 0xE3], [0x40, 0x7F], [0x40, 0x7F, 0x80, 0x01]] {
            var decoder = HPACKDecoder()
            #expect(isCompression(decodeError(&decoder, bytes)), "\(hexString(bytes))")
        }
    }

    @Test("Integers over 2^31 - 1, or with too many continuation octets")
    func overflow() throws {
        func integer(_ bytes: [UInt8], prefix: Int) throws -> Int {
            var position = 0
            return try bytes.withUnsafeBytes { buffer throws(HPACKError) in try HPACKInteger.decode(buffer, &position, prefix: prefix) }
        }
        // 2^31 - 1 = 127 + 0x7FFFFF80: 80 ff ff ff 07.
        #expect(try integer([0x7F, 0x80, 0xFF, 0xFF, 0xFF, 0x07], prefix: 7) == Int(Int32.max))
        #expect(throws: HPACKError.self) { try integer([0x7F, 0x81, 0xFF, 0xFF, 0xFF, 0x07], prefix: 7) }
        #expect(throws: HPACKError.self) { try integer([0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], prefix: 7) }
        #expect(throws: HPACKError.self) { try integer([0x7F, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], prefix: 7) }
        var decoder = HPACKDecoder()
        #expect(isCompression(decodeError(&decoder, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])))
        #expect(isCompression(decodeError(&decoder, [0x40, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x61])))  // a 2^32-ish length
    }

    @Test("Invalid Huffman strings in a block")
    func huffman() {
        for bytes: [UInt8] in [[0x40, 0x81, 0xFF, 0x00], [0x40, 0x81, 0x18, 0x00], [0x40, 0x84, 0xFF, 0xFF, 0xFF, 0xFF, 0x00],
                               [0x04, 0x82, 0x1F, 0xFF]] {
            var decoder = HPACKDecoder()
            #expect(isCompression(decodeError(&decoder, bytes)), "\(hexString(bytes))")
        }
        var decoder = HPACKDecoder()
        #expect(decodeOrRecord(&decoder, [0x04, 0x81, 0x1F]) == [HPACKHeader(":path", "a")])
    }

    @Test("A list too large is refused after the whole block, the table in step for the next one")
    func headerListTooLarge() {
        var decoder = HPACKDecoder(maxHeaderListSize: 100)
        let big = String(repeating: "x", count: 60)
        var encoder = HPACKEncoder()
        var block: [UInt8] = []
        encoder.encode("first", big, into: &block)       // 97: fits
        encoder.encode("second", big, into: &block)      // over the limit
        encoder.encode("third", "3", into: &block)       // after the limit: still inserted
        let error = decodeError(&decoder, block)
        #expect(error == .headerListTooLarge)
        #expect(error?.isHeaderListTooLarge == true)
        #expect(decoder.dynamicTableSize == encoder.dynamicTableSize)
        #expect(entries(decoder) == entries(encoder))

        // The next block refers to all three entries the refused block added.
        block = []
        encoder.encode("third", "3", into: &block)
        encoder.encode("first", big, into: &block)
        #expect(block == [0xBE, 0xC0])
        decoder.maxHeaderListSize = 1000
        #expect(decodeOrRecord(&decoder, block) == [HPACKHeader("third", "3"), HPACKHeader("first", big)])
        #expect(decodeOrRecord(&decoder, [0xBF]) == [HPACKHeader("second", big)])

        // A single literal far beyond the limit, without indexing: refused as too large, not a
        // compression error; the decoder carries on.
        let huge = String(repeating: "y", count: 100_000)
        block = []
        encoder.encode("huge", huge, indexing: .none, into: &block)
        #expect(decodeError(&decoder, block) == .headerListTooLarge)
        #expect(decodeOrRecord(&decoder, [0xBE]) == [HPACKHeader("third", "3")])
    }

    @Test("Descriptions name the failure")
    func descriptions() {
        #expect(HPACKError.compression("index 0").description.contains("index 0"))
        #expect(HPACKError.headerListTooLarge.description.contains("header list"))
        #expect(!HPACKError.compression("x").isHeaderListTooLarge)
    }
}
