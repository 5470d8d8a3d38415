// The Huffman code, RFC 7541 Appendix B: 256 octets and EOS (symbol 256).

/// The code's lengths and codes, and the tables `Huffman.decode` walks.
///
/// Appendix B's code is canonical: ordered by (length, symbol), each code is the previous one
/// plus one, shifted left by the difference in length. So the lengths below determine every code
/// (the tests check codes from the appendix and that the code is complete).
enum HuffmanCode {
    /// The length in bits of each symbol's code, symbols 0 to 256.
    static let lengths: [UInt8] = [
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, //   0- 15
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28, //  16- 31
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, //          32- 47
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10, //              48- 63
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, //                64- 79
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6, //             80- 95
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5, //                96-111
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28, //            112-127
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23, // 128-143
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24, // 144-159
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, // 160-175
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23, // 176-191
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, // 192-207
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27, // 208-223
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23, // 224-239
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26, // 240-255
        30, //                                                              256 (EOS)
    ]

    /// The end-of-string symbol.
    static let eos = 256

    /// Each symbol's code, right-aligned, derived canonically from `lengths`.
    static let codes: [UInt32] = canonical().codes

    /// The symbols ordered by (length, symbol).
    static let sorted: [UInt16] = canonical().sorted

    /// For each length 0...30: the first code of that length, and where its symbols start in `sorted`.
    static let firstCode: [Int] = canonical().firstCode
    static let offset: [Int] = canonical().offset

    /// For each length 0...30: one past the last code of that length or shorter, left-aligned in
    /// 32 bits. A 32-bit window starting with a code of length L is below `limit[L]` and not
    /// below `limit[L - 1]`.
    static let limit: [UInt64] = canonical().limit

    private static func canonical() -> (codes: [UInt32], sorted: [UInt16], firstCode: [Int], offset: [Int], limit: [UInt64]) {
        let sorted = (0 ... 256).sorted { (lengths[$0], $0) < (lengths[$1], $1) }.map(UInt16.init)
        var codes = [UInt32](repeating: 0, count: 257)
        var firstCode = [Int](repeating: 0, count: 31), offset = [Int](repeating: 0, count: 31)
        var limit = [UInt64](repeating: 0, count: 31)
        var code = 0, length = 0, position = 0
        for bits in 1 ... 30 {
            code <<= 1
            length = bits
            firstCode[bits] = code
            offset[bits] = position
            while position < sorted.count, Int(lengths[Int(sorted[position])]) == length {
                codes[Int(sorted[position])] = UInt32(code)
                code += 1
                position += 1
            }
            limit[bits] = UInt64(code) << (32 - bits)
        }
        return (codes, sorted, firstCode, offset, limit)
    }
}
