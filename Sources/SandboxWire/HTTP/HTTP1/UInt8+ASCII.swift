// Byte classes and conversions of the HTTP grammar (RFC 9110 §5.6), shared by the parser,
// the encoder and the form decoder.

extension UInt8 {
    var asciiLowercased: UInt8 { self >= 0x41 && self <= 0x5A ? self | 0x20 : self }

    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    var isDigit: Bool { self >= 0x30 && self <= 0x39 }
    var isWhitespace: Bool { self == .space || self == .tab }

    var hexValue: UInt8? {
        switch self {
        case 0x30...0x39: self - 0x30
        case 0x41...0x46: self - 0x41 + 10
        case 0x61...0x66: self - 0x61 + 10
        default: nil
        }
    }

    /// `tchar` of RFC 9110 §5.6.2: the characters of methods and header names. A bit of a mask
    /// per ASCII byte (tested for every byte of every name).
    var isTokenByte: Bool {
        self < 64 ? (Self.tokenBitsLow >> UInt64(self)) & 1 != 0 : self < 128 && (Self.tokenBitsHigh >> UInt64(self - 64)) & 1 != 0
    }

    /// The token bytes below 64 and from 64 to 127, one bit each: the bytes of
    /// ``tokenCharacters``, written as constants so that a test of a byte reads no lazily made
    /// global (`HTTPParserTests.tokenBytesAreExactlyTheTcharList` checks them against the list).
    static let tokenBitsLow: UInt64 = 0x03FF_6CFA_0000_0000
    static let tokenBitsHigh: UInt64 = 0x57FF_FFFF_C7FF_FFFE

    /// `tchar`'s characters (RFC 9110 §5.6.2).
    static let tokenCharacters = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&'*+-.^_`|~"
}

extension Array where Element == UInt8 {
    /// Appends the decimal digits of a non-negative `value`.
    mutating func appendDecimal(_ value: Int) {
        ByteWriter.append(upTo: 20, to: &self) { $0.putDecimal(value) }
    }

    /// Appends a string's UTF-8 bytes, copied where they lie.
    @inline(__always)
    mutating func appendUTF8(_ text: some StringProtocol) {
        text.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) } ?? append(contentsOf: text.utf8)
    }

    mutating func appendCRLF() {
        append(.cr)
        append(.lf)
    }
}

extension String.UTF8View {
    /// `body` over the bytes where they lie (a native or small string's are contiguous), else over
    /// a copy: a loop over a buffer, not the view's iterator, on the per-request paths.
    @inlinable
    package func inPlace<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withContiguousStorageIfAvailable(body) ?? Array(self).withUnsafeBufferPointer(body)
    }
}
