/// An ordered list of header fields with case-insensitive lookup (RFC 9110 §5.1).
///
/// ```swift
/// var headers = HTTPHeaders()
/// headers.add("Content-Type", "application/json")
/// headers["content-type"]  // "application/json"
/// ```
package struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in the order they were received or added.
    package private(set) var fields: [(name: String, value: String)] = []

    /// Creates an empty header list.
    init() {}

    /// Creates a header list from literal pairs, in order.
    package init(dictionaryLiteral elements: (String, String)...) {
        fields.reserveCapacity(elements.count)
        for (name, value) in elements { add(name, value) }
    }

    /// The number of fields.
    package var count: Int { fields.count }

    /// Makes room for `count` fields, so that adding them does not grow the list again and again.
    mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Appends a field, keeping any existing ones with the same name.
    package mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// The first value of `name`, or `nil`; setting replaces every field of that name.
    package subscript(name: String) -> String? {
        get { fields.first { $0.name.equalsIgnoringASCIICase(name) }?.value }
        set {
            fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
            if let newValue { fields.append((name, newValue)) }
        }
    }

    /// Every value of `name`, in order.
    func values(for name: String) -> [String] {
        fields.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    package func contains(_ name: String) -> Bool {
        fields.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Whether a field named `name` lists `token` among its comma-separated values, ignoring case
    /// (for `Connection: keep-alive, Upgrade` and the like).
    package func contains(_ name: String, token: String) -> Bool {
        fields.contains { field in
            field.name.equalsIgnoringASCIICase(name)
                && field.value.split(separator: ",").contains { $0.trimmingSpaces().equalsIgnoringASCIICase(token) }
        }
    }

    package func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// Whether a field may be sent as it is: a name that is a token, and a value without CR, LF,
    /// NUL or another control but tab (echoing input must never split a field or a response).
    static func isWritable(name: String, value: String) -> Bool {
        !name.isEmpty && name.utf8.inPlace { $0.allSatisfy(\.isTokenByte) }
            && value.utf8.inPlace { $0.allSatisfy { $0 == .tab || ($0 >= 0x20 && $0 != 0x7F) } }
    }

    package static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        // The same fields' storage (shared headers such as a JSON answer's) needs no comparison.
        let same = lhs.fields.withUnsafeBufferPointer { a in
            rhs.fields.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count }
        }
        return same || lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

extension StringProtocol {
    /// ASCII case-insensitive equality, as header names and tokens need.
    func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let fast = utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in
                for i in 0 ..< a.count where a[i] != b[i] && a[i].asciiLowercased != b[i].asciiLowercased { return false }
                return true
            }
        }
        if let fast = fast ?? nil { return fast }
        return utf8.elementsEqual(other.utf8) { $0.asciiLowercased == $1.asciiLowercased }
    }

    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> Substring {
        let s = Substring(self)
        guard let first = s.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let last = s.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return s[first...last]
    }
}
