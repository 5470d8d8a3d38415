// RFC 7541 Appendix C, byte for byte, decoded and encoded: C.1 integers, C.2 single fields,
// C.3/C.4 requests and C.5/C.6 responses (each a sequence sharing one encoder and one decoder),
// and every proper prefix of every block, which must fail or decode to a prefix of the list.

import Testing
@testable import SandboxWire

/// One block of an Appendix C sequence: its bytes, its list, and the table after it (newest first).
struct ExampleBlock: Sendable {
    var hex: String
    var headers: [HPACKHeader]
    var table: [HPACKHeader]
    var tableSize: Int
}

/// An Appendix C sequence.
struct ExampleSequence: Sendable, CustomTestStringConvertible {
    var name: String
    var huffman: Bool
    var maxTableSize: Int
    var blocks: [ExampleBlock]
    var testDescription: String { name }
}

private let authority = HPACKHeader(":authority", "www.example.com")
private let noCache = HPACKHeader("cache-control", "no-cache")
private let custom = HPACKHeader("custom-key", "custom-value")
private let request1 = [HPACKHeader(":method", "GET"), HPACKHeader(":scheme", "http"), HPACKHeader(":path", "/"), authority]
private let request2 = request1 + [noCache]
private let request3 = [HPACKHeader(":method", "GET"), HPACKHeader(":scheme", "https"), HPACKHeader(":path", "/index.html"), authority, custom]

private let status302 = HPACKHeader(":status", "302"), status307 = HPACKHeader(":status", "307")
private let privateCache = HPACKHeader("cache-control", "private")
private let date1 = HPACKHeader("date", "Mon, 21 Oct 2013 20:13:21 GMT"), date2 = HPACKHeader("date", "Mon, 21 Oct 2013 20:13:22 GMT")
private let location = HPACKHeader("location", "https://www.example.com")
private let gzip = HPACKHeader("content-encoding", "gzip")
private let cookie = HPACKHeader("set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1")
private let response1 = [status302, privateCache, date1, location]
private let response2 = [status307, privateCache, date1, location]
private let response3 = [HPACKHeader(":status", "200"), privateCache, date2, location, gzip, cookie]

let requestSequences = [
    ExampleSequence(name: "C.3 requests without Huffman", huffman: false, maxTableSize: 4096, blocks: [
        ExampleBlock(hex: "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d", headers: request1, table: [authority], tableSize: 57),
        ExampleBlock(hex: "8286 84be 5808 6e6f 2d63 6163 6865", headers: request2, table: [noCache, authority], tableSize: 110),
        ExampleBlock(hex: "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
                     headers: request3, table: [custom, noCache, authority], tableSize: 164),
    ]),
    ExampleSequence(name: "C.4 requests with Huffman", huffman: true, maxTableSize: 4096, blocks: [
        ExampleBlock(hex: "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff", headers: request1, table: [authority], tableSize: 57),
        ExampleBlock(hex: "8286 84be 5886 a8eb 1064 9cbf", headers: request2, table: [noCache, authority], tableSize: 110),
        ExampleBlock(hex: "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
                     headers: request3, table: [custom, noCache, authority], tableSize: 164),
    ]),
]

let responseSequences = [
    ExampleSequence(name: "C.5 responses without Huffman", huffman: false, maxTableSize: 256, blocks: [
        ExampleBlock(hex: """
            4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133
            2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d
            """, headers: response1, table: [location, date1, privateCache, status302], tableSize: 222),
        ExampleBlock(hex: "4803 3330 37c1 c0bf", headers: response2, table: [status307, location, date1, privateCache], tableSize: 222),
        ExampleBlock(hex: """
            88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d
            54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049
            5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31
            """, headers: response3, table: [cookie, gzip, date2], tableSize: 215),
    ]),
    ExampleSequence(name: "C.6 responses with Huffman", huffman: true, maxTableSize: 256, blocks: [
        ExampleBlock(hex: """
            4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6
            2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3
            """, headers: response1, table: [location, date1, privateCache, status302], tableSize: 222),
        ExampleBlock(hex: "4883 640e ffc1 c0bf", headers: response2, table: [status307, location, date1, privateCache], tableSize: 222),
        ExampleBlock(hex: """
            88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab
            77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f
            9587 3160 65c0 03ed 4ee5 b106 3d50 07
            """, headers: response3, table: [cookie, gzip, date2], tableSize: 215),
    ]),
]

@Suite("RFC 7541 Appendix C")
struct HPACKExampleTests {
    @Test("C.1 integers: 10 and 1337 with a 5-bit prefix, 42 with an 8-bit prefix")
    func integers() throws {
        for (value, prefix, hex) in [(10, 5, "0a"), (1337, 5, "1f9a0a"), (42, 8, "2a")] {
            var out: [UInt8] = []
            HPACKInteger.encode(value, prefix: prefix, flags: 0, into: &out)
            #expect(hexString(out) == hex, "encoding \(value)")
            var position = 0
            let decoded = try hexBytes(hex).withUnsafeBytes { buffer throws(HPACKError) in
                try HPACKInteger.decode(buffer, &position, prefix: prefix)
            }
            #expect(decoded == value)
            #expect(position == hex.count / 2)
        }
        // The prefix's other bits are the caller's: flags set above a 5-bit prefix are ignored.
        var position = 0
        #expect(try [0xEA].withUnsafeBytes { buffer throws(HPACKError) in try HPACKInteger.decode(buffer, &position, prefix: 5) } == 10)
    }

    @Test("C.2 single fields: each representation, both directions")
    func singleFields() throws {
        let cases: [(HPACKHeader, HPACKEncoder.Indexing, String, Int)] = [
            (HPACKHeader("custom-key", "custom-header"), .incremental, "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572", 55),
            (HPACKHeader(":path", "/sample/path"), .none, "040c 2f73 616d 706c 652f 7061 7468", 0),
            (HPACKHeader("password", "secret"), .never, "1008 7061 7373 776f 7264 0673 6563 7265 74", 0),
            (HPACKHeader(":method", "GET"), .incremental, "82", 0),
        ]
        for (header, indexing, hex, size) in cases {
            var encoder = HPACKEncoder()
            encoder.useHuffman = false
            var block: [UInt8] = []
            encoder.beginBlock(into: &block)
            encoder.encode(header.name, header.value, indexing: indexing, into: &block)
            #expect(block == hexBytes(hex), "\(header): \(hexString(block))")
            #expect(encoder.dynamicTableSize == size)
            var decoder = HPACKDecoder()
            #expect(try decoder.decode(hexBytes(hex)) == [header])
            #expect(decoder.dynamicTableSize == size)
            #expect(entries(decoder) == (size > 0 ? [header] : []))
        }
    }

    @Test("C.3 to C.6: decoded and encoded byte for byte, the tables after each block",
          arguments: requestSequences + responseSequences)
    func sequence(_ example: ExampleSequence) throws {
        var decoder = HPACKDecoder(maxTableSize: example.maxTableSize)
        var encoder = HPACKEncoder(maxTableSize: example.maxTableSize)
        encoder.useHuffman = example.huffman
        for (number, step) in example.blocks.enumerated() {
            let bytes = hexBytes(step.hex)
            #expect(try decoder.decode(bytes) == step.headers, "block \(number + 1)")
            #expect(decoder.dynamicTableSize == step.tableSize, "block \(number + 1)")
            #expect(entries(decoder) == step.table, "block \(number + 1)")

            var block: [UInt8] = []
            encoder.beginBlock(into: &block)
            for header in step.headers { encoder.encode(header.name, header.value, into: &block) }
            #expect(hexString(block) == hexString(bytes), "block \(number + 1)")
            #expect(encoder.dynamicTableSize == step.tableSize, "block \(number + 1)")
            #expect(entries(encoder) == step.table, "block \(number + 1)")
        }
    }

    @Test("Awkward splits: every proper prefix of every block fails, or decodes to a prefix of the list",
          arguments: requestSequences + responseSequences)
    func prefixes(_ example: ExampleSequence) throws {
        var decoder = HPACKDecoder(maxTableSize: example.maxTableSize)
        for step in example.blocks {
            let bytes = hexBytes(step.hex)
            var failures = 0
            for length in 0 ..< bytes.count {
                var scratch = decoder  // a copy: whatever the prefix does to it is discarded
                do {
                    let headers = try scratch.decode(Array(bytes[..<length]))
                    #expect(Array(step.headers.prefix(headers.count)) == headers, "prefix of \(length) octets")
                    #expect(headers.count < step.headers.count)
                } catch {
                    #expect(!error.isHeaderListTooLarge)
                    failures += 1
                }
            }
            // Most cuts land inside a field; only cuts between fields can decode.
            #expect(failures >= bytes.count - step.headers.count)
            #expect(try decoder.decode(bytes) == step.headers)
            #expect(decoder.dynamicTableSize == step.tableSize)
        }
    }
}
