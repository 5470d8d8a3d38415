/// Reads protobuf wire-format fields one at a time, bounds-checked.
///
/// Hostile bytes end in a ``ProtobufError``, never in a trap or a read past the end: varints stop
/// at 10 bytes, lengths are checked against what is left of the enclosing message, and nesting
/// (embedded messages and groups) stops at ``maxDepth``.
///
/// ```swift
/// var reader = ProtobufReader([0x08, 0x96, 0x01])
/// while let (field, wireType) = try reader.nextTag() {
///     if field == 1, wireType == .varint { print(try reader.readVarint()) }  // 150
///     else { try reader.skip(wireType, field: field) }
/// }
/// ```
struct ProtobufReader: Sendable {
    /// How deep messages and groups may nest before ``ProtobufError/nestingTooDeep``.
    static let maxDepth = 100
    /// The largest field number the format allows (2^29 - 1).
    static let maxFieldNumber = 536_870_911

    private let bytes: [UInt8]
    private let end: Int
    /// The position of the next byte to read, an index into the whole buffer.
    private(set) var offset: Int
    /// How many messages enclose this one (0 at the top).
    let depth: Int

    /// A reader over all of `bytes`.
    package init(_ bytes: [UInt8]) {
        self.init(bytes, range: 0 ..< bytes.count, depth: 0)
    }

    private init(_ bytes: [UInt8], range: Range<Int>, depth: Int) {
        self.bytes = bytes
        offset = range.lowerBound
        end = range.upperBound
        self.depth = depth
    }

    /// Whether every byte of this message has been read.
    var isAtEnd: Bool { offset >= end }

    /// The next field's number and wire type, or nil at the end of the message.
    mutating func nextTag() throws(ProtobufError) -> (field: Int, wireType: WireType)? {
        guard offset < end else { return nil }
        let key = try readVarint()
        let type = UInt8(key & 7)
        guard let wireType = WireType(rawValue: type) else { throw .invalidWireType(type) }
        let field = key >> 3
        guard field >= 1, field <= UInt64(Self.maxFieldNumber) else { throw .invalidFieldNumber(field) }
        return (Int(field), wireType)
    }

    /// A base-128 varint of up to 10 bytes.
    mutating func readVarint() throws(ProtobufError) -> UInt64 {
        var value: UInt64 = 0
        for index in 0 ..< 10 {
            guard offset < end else { throw .truncated }
            let byte = bytes[offset]
            offset += 1
            if index == 9, byte > 1 { throw .varintTooLong }  // bits beyond 64, or an 11th byte
            value |= UInt64(byte & 0x7F) << UInt64(7 * index)
            if byte < 0x80 { return value }
        }
        throw .varintTooLong
    }

    /// Four little-endian bytes.
    mutating func readFixed32() throws(ProtobufError) -> UInt32 {
        guard end - offset >= 4 else { throw .truncated }
        var value: UInt32 = 0
        for index in 0 ..< 4 { value |= UInt32(bytes[offset + index]) << UInt32(8 * index) }
        offset += 4
        return value
    }

    /// Eight little-endian bytes.
    mutating func readFixed64() throws(ProtobufError) -> UInt64 {
        guard end - offset >= 8 else { throw .truncated }
        var value: UInt64 = 0
        for index in 0 ..< 8 { value |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
        offset += 8
        return value
    }

    /// A length varint and that many bytes.
    mutating func readLengthDelimited() throws(ProtobufError) -> ArraySlice<UInt8> {
        let length = try readVarint()
        guard length <= UInt64(end - offset) else { throw .lengthOutOfBounds }
        let start = offset
        offset += Int(length)
        return bytes[start ..< offset]
    }

    /// A reader for the embedded message that is the next length-delimited value.
    mutating func readMessage() throws(ProtobufError) -> ProtobufReader {
        guard depth < Self.maxDepth else { throw .nestingTooDeep }
        let payload = try readLengthDelimited()
        return ProtobufReader(bytes, range: payload.startIndex ..< payload.endIndex, depth: depth + 1)
    }

    /// A reader for the packed repeated values that are the next length-delimited value.
    mutating func readPacked() throws(ProtobufError) -> ProtobufReader {
        let payload = try readLengthDelimited()
        return ProtobufReader(bytes, range: payload.startIndex ..< payload.endIndex, depth: depth)
    }

    /// Reads past the value of a field whose tag was just read (a group up to its end tag).
    mutating func skip(_ wireType: WireType, field: Int) throws(ProtobufError) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readFixed64()
        case .fixed32: _ = try readFixed32()
        case .lengthDelimited: _ = try readLengthDelimited()
        case .endGroup: throw .unbalancedGroup
        case .startGroup: try skipGroup(field: field, depth: depth + 1)
        }
    }

    private mutating func skipGroup(field: Int, depth: Int) throws(ProtobufError) {
        guard depth <= Self.maxDepth else { throw .nestingTooDeep }
        while let (inner, wireType) = try nextTag() {
            switch wireType {
            case .endGroup:
                guard inner == field else { throw .unbalancedGroup }
                return
            case .startGroup: try skipGroup(field: inner, depth: depth + 1)
            default: try skip(wireType, field: inner)
            }
        }
        throw .unbalancedGroup
    }

    /// The bytes read since `start` (an earlier ``offset``): a field's tag and value, kept as is.
    func bytesRead(since start: Int) -> ArraySlice<UInt8> {
        bytes[start ..< offset]
    }

    /// ZigZag decoding for sint32.
    static func unZigZag(_ value: UInt32) -> Int32 {
        Int32(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    /// ZigZag decoding for sint64.
    static func unZigZag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }
}
