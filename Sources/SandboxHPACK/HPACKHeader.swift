// A header field as HPACK (RFC 7541) carries it: a name and a value, both octet strings.

/// A header field as HPACK carries it. Names are lowercase for HTTP/2 (the decoder does not
/// enforce it; the HTTP/2 layer does).
public struct HPACKHeader: Sendable, Hashable, CustomStringConvertible {
    /// The field name (for HTTP/2, lowercase; pseudo-header fields start with `:`).
    public var name: String
    /// The field value.
    public var value: String

    /// A field with this name and value.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// The field's size as RFC 7541 §4.1 and RFC 9113 §6.5.2 count it: the name's and the
    /// value's length in octets, plus 32.
    public var size: Int { name.utf8.count + value.utf8.count + 32 }

    /// `name: value`.
    public var description: String { "\(name): \(value)" }
}
