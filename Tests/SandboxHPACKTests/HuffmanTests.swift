// The Huffman code (RFC 7541 Appendix B, §5.2): codes against the appendix, the code is complete,
// round trips for every octet, and the invalid endings.

import Testing
@testable import SandboxWire

private func decoded(_ hex: String) -> [UInt8]? {
    hexBytes(hex).withUnsafeBytes { Huffman.decode($0) }
}

@Suite("Huffman code")
struct HuffmanTests {
    @Test("Codes and lengths match Appendix B (a sample across every length)")
    func appendixCodes() {
        let sample: [(Int, UInt32, UInt8)] = [
            (0, 0x1FF8, 13), (1, 0x7F_FFD8, 23), (2, 0xFFF_FFE2, 28), (9, 0xFF_FFEA, 24), (10, 0x3FFF_FFFC, 30),
            (13, 0x3FFF_FFFD, 30), (22, 0x3FFF_FFFE, 30), (31, 0xFFF_FFFB, 28), (32, 0x14, 6), (33, 0x3F8, 10),
            (35, 0xFFA, 12), (39, 0x7FA, 11), (48, 0x0, 5), (58, 0x5C, 7), (59, 0xFB, 8), (60, 0x7FFC, 15),
            (92, 0x7FFF0, 19), (94, 0x3FFC, 14), (97, 0x3, 5), (116, 0x9, 5), (122, 0x7B, 7), (123, 0x7FFE, 15),
            (126, 0x1FFD, 13), (127, 0xFFF_FFFC, 28), (128, 0xFFFE6, 20), (129, 0x3F_FFD2, 22), (153, 0x1F_FFDC, 21),
            (192, 0x3FF_FFE0, 26), (199, 0x1FF_FFEC, 25), (203, 0x7FF_FFDE, 27), (220, 0xFFF_FFFD, 28),
            (249, 0xFFF_FFFE, 28), (254, 0x7FF_FFF0, 27), (255, 0x3FF_FFEE, 26), (256, 0x3FFF_FFFF, 30),
        ]
        for (symbol, code, length) in sample {
            #expect(HuffmanCode.codes[symbol] == code, "symbol \(symbol)")
            #expect(HuffmanCode.lengths[symbol] == length, "symbol \(symbol)")
        }
    }

    @Test("The code is complete (Kraft sum 1) and EOS is 30 ones")
    func complete() {
        #expect(HuffmanCode.lengths.count == 257)
        let sum = HuffmanCode.lengths.reduce(0) { $0 + (1 << (30 - Int($1))) }
        #expect(sum == 1 << 30)
        #expect(HuffmanCode.codes[256] == (1 << 30) - 1)
    }

    @Test("Appendix C strings")
    func appendixStrings() {
        let cases = [
            ("www.example.com", "f1e3 c2e5 f23a 6ba0 ab90 f4ff"), ("no-cache", "a8eb 1064 9cbf"),
            ("custom-key", "25a8 49e9 5ba9 7d7f"), ("custom-value", "25a8 49e9 5bb8 e8b4 bf"),
            ("302", "6402"), ("307", "640e ff"), ("private", "aec3 771a 4b"), ("gzip", "9bd9 ab"),
            ("Mon, 21 Oct 2013 20:13:21 GMT", "d07a be94 1054 d444 a820 0595 040b 8166 e082 a62d 1bff"),
            ("https://www.example.com", "9d29 ad17 1863 c78f 0b97 c8e9 ae82 ae43 d3"),
        ]
        for (text, hex) in cases {
            var out: [UInt8] = []
            Huffman.encode(Array(text.utf8), into: &out)
            #expect(out == hexBytes(hex), "\(text): \(hexString(out))")
            #expect(Huffman.encodedCount(text.utf8) == out.count)
            #expect(decoded(hex) == Array(text.utf8))
        }
    }

    @Test("Every octet round-trips, alone, all together, and in a seeded mix")
    func roundTrips() {
        var everything: [[UInt8]] = (0 ... 255).map { [UInt8($0)] }
        everything.append((0 ... 255).map { UInt8($0) })
        everything.append((0 ... 255).reversed().map { UInt8($0) })
        everything.append([])
        var generator = SeededGenerator(state: 7541)
        for _ in 0 ..< 200 {
            everything.append((0 ..< Int.random(in: 0 ... 64, using: &generator)).map { _ in UInt8.random(in: 0 ... 255, using: &generator) })
        }
        for bytes in everything {
            var out: [UInt8] = []
            Huffman.encode(bytes, into: &out)
            #expect(Huffman.encodedCount(bytes) == out.count)
            #expect(out.withUnsafeBytes { Huffman.decode($0) } == bytes, "\(bytes)")
        }
    }

    @Test("Invalid: EOS in the string, padding over 7 bits, padding not all ones")
    func invalid() {
        #expect(decoded("") == [])
        #expect(decoded("1f") == Array("a".utf8))                  // 00011 + 111
        #expect(decoded("18") == nil)                              // 00011 + 000: padding not ones
        #expect(decoded("1e") == nil)                              // 00011 + 110
        #expect(decoded("1fff") == nil)                            // 'a' then 11 bits of ones
        #expect(decoded("ff") == nil)                              // 8 bits of padding
        #expect(decoded("ffff ffff") == nil)                       // EOS (30 ones) then 2 ones
        #expect(decoded("ffff fffc") == nil)                       // EOS then 00
        #expect(decoded("1fff ffff ff") == nil)                    // 'a', then EOS in full
        #expect(decoded("fe") == nil)                              // 7 ones then a 0: no whole code
        #expect(decoded("fe3f") == Array("!".utf8))                // '!' 1111111000 + 111111
        #expect(decoded("ff3f") == Array("?".utf8))                // '?' 1111111100 + 111111
    }
}
