// Encoder and decoder together: seeded random header lists with random indexing and table size
// changes decode to what was encoded, the two tables staying identical; and the server's hot path
// (the same response headers again and again) costs one octet per field.

import Testing
@testable import SandboxWire

@Suite("HPACK round trips")
struct HPACKRoundTripTests {
    private static let names = [":status", ":path", ":method", "content-type", "grpc-status", "grpc-message", "date",
                                "set-cookie", "x-request-id", "cache-control", "te", "user-agent", "x-b3-traceid", ""]
    private static let values = ["200", "/", "application/grpc", "0", "", "trailers", "gzip", "no-cache", "/pkg.Service/Method",
                                 "caf\u{E9} \u{1F600}", String(repeating: "v", count: 300)]

    private static func randomString(_ generator: inout SeededGenerator) -> String {
        let length = Int.random(in: 0 ... 40, using: &generator)
        let scalars = (0 ..< length).map { _ -> Character in
            switch Int.random(in: 0 ..< 10, using: &generator) {
            case 0: Character(Unicode.Scalar(UInt8.random(in: 0 ... 127, using: &generator)))
            case 1: "\u{E9}"
            default: Character(Unicode.Scalar(UInt8.random(in: 0x61 ... 0x7A, using: &generator)))
            }
        }
        return String(scalars)
    }

    @Test("Random lists, indexing and table sizes: decoded as encoded, tables identical", arguments: [1, 2, 3, 4])
    func randomLists(seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        var encoder = HPACKEncoder()
        var decoder = HPACKDecoder(maxTableSize: 4096, maxHeaderListSize: 1 << 20)
        for round in 0 ..< 300 {
            if Int.random(in: 0 ..< 10, using: &generator) == 0 {
                for _ in 0 ..< Int.random(in: 1 ... 3, using: &generator) {
                    encoder.setMaxTableSize([0, 64, 256, 1000, 4096].randomElement(using: &generator)!)
                }
            }
            encoder.useHuffman = Bool.random(using: &generator)
            var list: [HPACKHeader] = []
            var block: [UInt8] = []
            encoder.beginBlock(into: &block)
            for _ in 0 ..< Int.random(in: 0 ... 12, using: &generator) {
                let name = Bool.random(using: &generator) ? Self.names.randomElement(using: &generator)! : Self.randomString(&generator)
                let value = Bool.random(using: &generator) ? Self.values.randomElement(using: &generator)! : Self.randomString(&generator)
                let indexing = [HPACKEncoder.Indexing.incremental, .incremental, .none, .never].randomElement(using: &generator)!
                encoder.encode(name, value, indexing: indexing, into: &block)
                list.append(HPACKHeader(name, value))
            }
            let decoded = try decoder.decode(block)
            #expect(decoded == list, "round \(round)")
            #expect(decoder.dynamicTableSize == encoder.dynamicTableSize, "round \(round)")
            #expect(decoder.dynamicTableMaxSize == encoder.dynamicTableMaxSize, "round \(round)")
            #expect(entries(decoder) == entries(encoder), "round \(round)")
            #expect(encoder.dynamicTableSize <= encoder.dynamicTableMaxSize)
        }
    }

    @Test("A size that goes down and up between blocks is sent as both updates")
    func downAndUp() throws {
        var encoder = HPACKEncoder()
        var decoder = HPACKDecoder()
        var block: [UInt8] = []
        encoder.encode("x-a", "1", into: &block)
        _ = try decoder.decode(block)
        encoder.setMaxTableSize(0)
        encoder.setMaxTableSize(4096)
        block = []
        encoder.beginBlock(into: &block)
        #expect(block == [0x20, 0x3F, 0xE1, 0x1F])
        encoder.encode("x-a", "1", into: &block)
        #expect(try decoder.decode(block) == [HPACKHeader("x-a", "1")])
        #expect(decoder.dynamicTableSize == encoder.dynamicTableSize)
        // Nothing pending: no update.
        block = []
        encoder.beginBlock(into: &block)
        encoder.setMaxTableSize(4096)
        encoder.beginBlock(into: &block)
        #expect(block.isEmpty)
    }

    @Test("The gRPC hot path: repeated response headers are one octet each")
    func hotPath() throws {
        var encoder = HPACKEncoder()
        var decoder = HPACKDecoder()
        let headers = [HPACKHeader(":status", "200"), HPACKHeader("content-type", "application/grpc"), HPACKHeader("grpc-status", "0")]
        for call in 0 ..< 3 {
            var block: [UInt8] = []
            encoder.beginBlock(into: &block)
            for header in headers { encoder.encode(header, into: &block) }
            if call > 0 { #expect(block == [0x88, 0xBF, 0xBE]) }
            #expect(try decoder.decode(block) == headers)
        }
    }

    @Test("Never-indexed fields stay literal even when the table has them")
    func neverIndexed() throws {
        var encoder = HPACKEncoder()
        encoder.useHuffman = false
        var block: [UInt8] = []
        encoder.encode("authorization", "secret", into: &block)
        block = []
        encoder.encode("authorization", "secret", indexing: .never, into: &block)
        #expect(block == [0x1F, 0x08] + [0x06] + Array("secret".utf8))   // name index 23, never indexed
        block = []
        encoder.encode("authorization", "secret", indexing: .none, into: &block)
        #expect(block == [0xBE])
    }
}
