/// Named text values in the order given (a payout's request fields, an account's settings, by the
/// owning API's names).
///
/// A bank holds one per payout and reads them rarely (scenario matching, rendering a
/// notification, the admin API), so they are packed into one buffer of UTF-8: each name and value
/// after its length. A million payouts' twenty fields would otherwise be twenty million strings.
///
/// ```swift
/// let fields: Fields = ["country": "BR", "amount": "100.00"]
/// fields["country"]   // "BR"
/// ```
public struct Fields: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Field: Sendable, Equatable {
        public let name: String
        public let value: String
    }

    /// `(name length, name, value length, value)` for each field; lengths as LEB128 varints.
    private var bytes: [UInt8] = []

    public init() {}

    /// Later values of the same name replace earlier ones.
    public init<S: Sequence<(String, String)>>(_ pairs: S) {
        for (name, value) in pairs { self[name] = value }
        bytes = bytes.withUnsafeBufferPointer { Array($0) }  // no room to grow: most are never changed
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    public subscript(name: String) -> String? {
        get { find(name).map { String(decoding: bytes[$0.value], as: UTF8.self) } }
        set {
            var packed: [UInt8] = []
            if let newValue { Self.append(name, newValue, to: &packed) }
            if let found = find(name) {
                bytes.replaceSubrange(found.whole, with: packed)
            } else {
                bytes += packed
            }
        }
    }

    public var count: Int { reduce(0) { count, _ in count + 1 } }

    public func makeIterator() -> Iterator { Iterator(bytes: bytes) }

    public struct Iterator: IteratorProtocol {
        fileprivate let bytes: [UInt8]
        fileprivate var offset = 0

        public mutating func next() -> Field? {
            guard let (name, value) = Fields.field(in: bytes, at: &offset) else { return nil }
            return Field(name: String(decoding: bytes[name], as: UTF8.self), value: String(decoding: bytes[value], as: UTF8.self))
        }
    }

    /// Equal when they hold the same names and values, whatever the order.
    public static func == (lhs: Fields, rhs: Fields) -> Bool {
        lhs.bytes == rhs.bytes || (lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.name] == $0.value })
    }

    /// Where the field named `name` is: its value's bytes, and the whole field's.
    private func find(_ name: String) -> (value: Range<Int>, whole: Range<Int>)? {
        var offset = 0
        while case let start = offset, let (found, value) = Self.field(in: bytes, at: &offset) {
            if bytes[found].elementsEqual(name.utf8) { return (value, start ..< offset) }
        }
        return nil
    }

    /// The name's and the value's bytes of the field at `offset`, which moves past it.
    private static func field(in bytes: [UInt8], at offset: inout Int) -> (name: Range<Int>, value: Range<Int>)? {
        guard offset < bytes.count else { return nil }
        let name = text(in: bytes, at: &offset)
        return (name, text(in: bytes, at: &offset))
    }

    private static func text(in bytes: [UInt8], at offset: inout Int) -> Range<Int> {
        var length = 0, shift = 0
        while true {
            let byte = bytes[offset]
            offset += 1
            length |= Int(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        defer { offset += length }
        return offset ..< offset + length
    }

    private static func append(_ name: String, _ value: String, to bytes: inout [UInt8]) {
        for text in [name, value] {
            var length = text.utf8.count
            while length >= 0x80 {
                bytes.append(UInt8(length & 0x7F) | 0x80)
                length >>= 7
            }
            bytes.append(UInt8(length))
            bytes += text.utf8
        }
    }
}
