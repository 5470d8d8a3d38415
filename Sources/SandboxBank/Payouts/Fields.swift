/// Named text values in the order given (a payout's request fields, an account's settings, by the
/// owning API's names).
///
/// A bank holds one per payout and reads them rarely (scenario matching, rendering a
/// notification, the admin API), so they are packed into one buffer: each name as its number
/// (`NameTable.fieldNames`), each value as UTF-8 after its length. A million payouts' twenty fields would
/// otherwise be forty million strings.
///
/// ```swift
/// let fields: Fields = ["country": "BR", "amount": "100.00"]
/// fields["country"]   // "BR"
/// ```
package struct Fields: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    package struct Field: Sendable, Equatable {
        package let name: String
        package let value: String
    }

    /// `(name number, value length, value)` for each field, or `(0, name length, name, value
    /// length, value)` for a name without a number; numbers and lengths as LEB128 varints.
    private(set) var bytes: [UInt8] = []

    package init() {}

    /// Fields already packed (`Fields+Template`).
    init(packed bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Later values of the same name replace earlier ones.
    package init<S: Sequence<(String, String)>>(_ pairs: S) {
        let pairs = Array(pairs)
        let numbers = NameTable.fieldNames.numbers(of: pairs.map(\.0))
        if Self.repeats(numbers, sameName: { pairs[$0].0 == pairs[$1].0 }) {
            for (name, value) in pairs { self[name] = value }
            bytes = bytes.withUnsafeBufferPointer { Array($0) }  // no room to grow: most are never changed
        } else {
            bytes.reserveCapacity(zip(pairs, numbers).reduce(0) { $0 + Self.size($1.0.0, number: $1.1, $1.0.1) })  // no room to grow
            for ((name, value), number) in zip(pairs, numbers) { Self.append(name, number: number, value, to: &bytes) }
        }
    }

    /// The fields named `names` (numbered beforehand, and all different), `names[i]` with the value
    /// `value(i)`, left out when that is nil: what a dialect makes of every request it accepts,
    /// packed straight into a buffer, the pairs not gathered first.
    package init(names: [Name], value: (Int) -> String?) {
        assert(Set(names.map(\.text)).count == names.count, "the names of Fields(names:value:) must all differ")
        var packed: [UInt8] = []
        packed.reserveCapacity(256)  // most requests' fields fit: no growing on the way
        for index in names.indices {
            if let value = value(index) { Self.append(names[index].text, number: names[index].number, value, to: &packed) }
        }
        bytes = packed.withUnsafeBufferPointer { Array($0) }  // no room to grow: most are never changed
    }

    /// A field's name and value as UTF-8, where a reader found them.
    package typealias UTF8Pair = (name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>)

    /// `init(_:)` for fields read as UTF-8 (a journal's, a snapshot's), packed with no string
    /// made of a value, nor of a name the last fields read had at the same place
    /// (`NameTable.numbers(ofUTF8:)`): a restart reads a million payouts' fields.
    package init(utf8 pairs: [UTF8Pair]) {
        let numbers = NameTable.fieldNames.numbers(ofUTF8: pairs.map(\.name))
        if Self.repeats(numbers, sameName: { pairs[$0].name.same(as: pairs[$1].name) }) {
            self = Fields(pairs.map { (String(decoding: $0.name, as: UTF8.self), String(decoding: $0.value, as: UTF8.self)) })
            return
        }
        var packed: [UInt8] = []
        packed.reserveCapacity(zip(pairs, numbers).reduce(0) {  // no room to grow
            $0 + Self.size(nameBytes: $1.0.name.count, number: $1.1, valueBytes: $1.0.value.count)
        })
        for ((name, value), number) in zip(pairs, numbers) { Self.append(name, number: number, value, to: &packed) }
        bytes = packed
    }

    /// Whether a name comes twice: numbers compare faster than names; names without one
    /// (`sameName`, by their places) are compared as text.
    private static func repeats(_ numbers: [Int?], sameName: (Int, Int) -> Bool) -> Bool {
        numbers.indices.contains { i in
            (0 ..< i).contains { j in numbers[i] != nil ? numbers[j] == numbers[i] : numbers[j] == nil && sameName(j, i) }
        }
    }

    package init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// A field name with its number looked up once, for code that reads or writes the same names
    /// again and again (each request, each notification): looking a name up takes a lock and a hash.
    ///
    /// ```swift
    /// static let comments = Fields.Name("comments")
    /// fields[Self.comments]
    /// ```
    package struct Name: Sendable, Equatable {
        package let text: String
        /// Its number in `NameTable.fieldNames`; nil when the table had no room for it.
        let number: Int?

        package init(_ text: String) {
            self.text = text
            number = NameTable.fieldNames.number(of: text, adding: true)
        }

        /// By number when both have one (faster than comparing their text).
        package static func == (lhs: Name, rhs: Name) -> Bool {
            if let left = lhs.number, let right = rhs.number { return left == right }
            return lhs.text == rhs.text
        }
    }

    /// The value of the field named `name`, found by its number.
    package subscript(name: Name) -> String? {
        find(name.text, number: name.number).map { String(decoding: bytes[$0.value], as: UTF8.self) }
    }

    package subscript(name: String) -> String? {
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

    /// Counted over the packed fields, with no string made.
    package var count: Int {
        var (offset, count) = (0, 0)
        while Self.field(in: bytes, at: &offset) != nil { count += 1 }
        return count
    }

    /// Each field's name and value as UTF-8, in order, with no string made for a value: what a
    /// journal record or a snapshot writes of a million payouts.
    package func forEachUTF8(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void) {
        let names = NameTable.fieldNames.all
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while let (name, value) = Self.field(in: bytes, at: &offset) {
                let value = UnsafeBufferPointer(rebasing: buffer[value])
                switch name {
                case .number(let number):
                    var text = names[number - 1]
                    text.withUTF8 { body($0, value) }
                case .text(let range): body(UnsafeBufferPointer(rebasing: buffer[range]), value)
                }
            }
        }
    }

    package func makeIterator() -> Iterator { Iterator(bytes: bytes, names: NameTable.fieldNames.all) }

    package struct Iterator: IteratorProtocol {
        fileprivate let bytes: [UInt8]
        fileprivate let names: [String]
        fileprivate var offset = 0

        package mutating func next() -> Field? {
            guard let (name, value) = Fields.field(in: bytes, at: &offset) else { return nil }
            let text = switch name {
            case .number(let number): names[number - 1]
            case .text(let range): String(decoding: bytes[range], as: UTF8.self)
            }
            return Field(name: text, value: String(decoding: bytes[value], as: UTF8.self))
        }
    }

    /// Equal when they hold the same names and values, whatever the order.
    package static func == (lhs: Fields, rhs: Fields) -> Bool {
        lhs.bytes == rhs.bytes || (lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.name] == $0.value })
    }

    /// Fields compared byte for byte, names and order alike (`==` ignores the order): what
    /// `Payout.Shared` interns, so that payouts made from one template share one copy.
    struct Exact: Hashable, Sendable {
        let fields: Fields

        static func == (lhs: Exact, rhs: Exact) -> Bool { lhs.fields.bytes == rhs.fields.bytes }

        func hash(into hasher: inout Hasher) {
            fields.bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// A field's name: its number, or where its text is.
    enum StoredName: Equatable {
        case number(Int)
        case text(Range<Int>)
    }

    /// Where the field named `name` is: its value's bytes, and the whole field's.
    private func find(_ name: String) -> (value: Range<Int>, whole: Range<Int>)? {
        find(name, number: NameTable.fieldNames.number(of: name, adding: false))
    }

    /// `find(_:)` with the name's number (nil: it has none) known.
    private func find(_ name: String, number: Int?) -> (value: Range<Int>, whole: Range<Int>)? {
        var offset = 0
        while case let start = offset, let (found, value) = Self.field(in: bytes, at: &offset) {
            switch found {
            case .number(let other): if other == number { return (value, start ..< offset) }
            case .text(let text): if number == nil, bytes[text].elementsEqual(name.utf8) { return (value, start ..< offset) }
            }
        }
        return nil
    }

    /// The name and the value's bytes of the field at `offset`, which moves past it.
    static func field(in bytes: [UInt8], at offset: inout Int) -> (name: StoredName, value: Range<Int>)? {
        guard offset < bytes.count else { return nil }
        let number = varint(in: bytes, at: &offset)
        let name = number == 0 ? StoredName.text(text(in: bytes, at: &offset)) : .number(number)
        return (name, text(in: bytes, at: &offset))
    }

    private static func text(in bytes: [UInt8], at offset: inout Int) -> Range<Int> {
        let length = varint(in: bytes, at: &offset)
        defer { offset += length }
        return offset ..< offset + length
    }

    private static func varint(in bytes: [UInt8], at offset: inout Int) -> Int {
        var value = 0, shift = 0
        while true {
            let byte = bytes[offset]
            offset += 1
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// How many bytes `append` writes for a field: most are never changed, so a buffer of just
    /// that size is made at once (not outgrown on the way, nor copied to trim it after).
    private static func size(_ name: String, number: Int?, _ value: String) -> Int {
        size(nameBytes: name.utf8.count, number: number, valueBytes: value.utf8.count)
    }

    private static func size(nameBytes: Int, number: Int?, valueBytes: Int) -> Int {
        varintSize(number ?? 0) + (number == nil ? varintSize(nameBytes) + nameBytes : 0) + varintSize(valueBytes) + valueBytes
    }

    /// How many bytes `appendVarint` writes for `value`.
    private static func varintSize(_ value: Int) -> Int {
        var (value, size) = (value, 1)
        while value >= 0x80 { (value, size) = (value >> 7, size + 1) }
        return size
    }

    private static func append(_ name: String, _ value: String, to bytes: inout [UInt8]) {
        append(name, number: NameTable.fieldNames.number(of: name, adding: true), value, to: &bytes)
    }

    private static func append(_ name: String, number: Int?, _ value: String, to bytes: inout [UInt8]) {
        appendVarint(number ?? 0, to: &bytes)
        if number == nil { appendText(name, to: &bytes) }
        appendText(value, to: &bytes)
    }

    private static func append(_ name: UnsafeBufferPointer<UInt8>, number: Int?, _ value: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        appendVarint(number ?? 0, to: &bytes)
        if number == nil { appendText(name, to: &bytes) }
        appendText(value, to: &bytes)
    }

    static func appendText(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendText($0, to: &bytes) }  // copied whole, not byte by byte
    }

    private static func appendText(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        appendVarint(utf8.count, to: &bytes)
        bytes += utf8
    }

    static func varintLength(_ value: Int) -> Int {
        value < 0x80 ? 1 : 1 + varintLength(value >> 7)
    }

    private static func appendVarint(_ value: Int, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
