// A header field as HPACK (RFC 7541) carries it: a name and a value, both octet strings.

/// A header field as HPACK carries it. Names are lowercase for HTTP/2 (the decoder does not
/// enforce it; the HTTP/2 layer does).
struct HPACKHeader: Sendable, Hashable, CustomStringConvertible {
    /// The field name (for HTTP/2, lowercase; pseudo-header fields start with `:`).
    package var name: String { didSet { nameOctets = name.utf8.count } }
    /// The field value. Octets that are not UTF-8 arrive as U+FFFD.
    package var value: String { didSet { valueOctets = value.utf8.count } }
    /// The octets of the name and the value as they were on the wire, which the sizes count: a
    /// value that is not UTF-8 is longer once repaired, and the peer's table counts the octets.
    private(set) var nameOctets: Int
    private(set) var valueOctets: Int

    /// A field with this name and value.
    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
        nameOctets = name.utf8.count
        valueOctets = value.utf8.count
    }

    /// A field decoded from octet strings of these lengths.
    init(_ name: String, nameOctets: Int, _ value: String, valueOctets: Int) {
        self.name = name
        self.value = value
        self.nameOctets = nameOctets
        self.valueOctets = valueOctets
    }

    /// The field's size as RFC 7541 §4.1 and RFC 9113 §6.5.2 count it: the name's and the
    /// value's length in octets (as sent), plus 32.
    var size: Int { nameOctets + valueOctets + 32 }

    /// `name: value`.
    package var description: String { "\(name): \(value)" }

    /// Fields are equal when their names and values are: the octet counts are the table's bookkeeping.
    static func == (lhs: HPACKHeader, rhs: HPACKHeader) -> Bool {
        lhs.name == rhs.name && lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
    }
}
