// Reading one object's members without building its dictionary: for a hot path that looks at a
// few known keys of every request (a create's body), where hashing each key into a dictionary
// costs more than the parse.

extension JSON {
    /// A member of an object: its key and value.
    public struct Member: Sendable, Equatable {
        package let key: String
        package let value: JSON

        package init(key: String, value: JSON) {
            self.key = key
            self.value = value
        }
    }

    /// The members of the object `bytes` holds, in the order written, a repeated key each time it
    /// appears (``parse(_:maxDepth:duplicateKeys:)`` keeps its last value); nil when the document
    /// is another JSON value. Invalid JSON throws as `parse` does.
    ///
    /// ```swift
    /// let members = try JSON.parseMembers(Array(#"{"login":"acme","amount":10}"#.utf8))
    /// members?.map(\.key)   // ["login", "amount"]
    /// ```
    ///
    /// A key written as one of `keys` (the same bytes, no escapes) is that very string, not a new
    /// one: no copy, no second look at its bytes, and comparing it with the key it is is immediate.
    ///
    /// Bytes in an array, not any collection: a generic parse looks up its types' metadata at
    /// run time, a cost as large as a small body's parse.
    package static func parseMembers(_ bytes: [UInt8], keys: KnownKeys? = nil, maxDepth: Int = 256) throws(JSONParseError) -> [Member]? {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var parser = ByteParser(bytes: buffer, maxDepth: maxDepth, duplicateKeys: true)
            parser.knownKeys = keys
            return try parser.parseDocumentMembers()
        }
    }

    /// The keys a reader of many documents expects, made once (``parseMembers(_:keys:maxDepth:)``).
    ///
    /// ```swift
    /// static let keys = JSON.KnownKeys(["login", "pass", "amount"])
    /// let members = try JSON.parseMembers(body, keys: Self.keys)
    /// ```
    public struct KnownKeys: Sendable {
        /// The keys and their UTF-8 bytes, by the number of those bytes.
        private let byLength: [[(bytes: [UInt8], key: String)]]

        package init(_ keys: some Sequence<String>) {
            byLength = keys.reduce(into: []) { table, key in
                let bytes = Array(key.utf8)
                if table.count <= bytes.count { table += Array(repeating: [], count: bytes.count + 1 - table.count) }
                if !table[bytes.count].contains(where: { $0.bytes == bytes }) { table[bytes.count].append((bytes, key)) }
            }
        }

        /// The known key written as `bytes`, if any.
        func key(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
            guard bytes.count < byLength.count else { return nil }
            for candidate in byLength[bytes.count] where Self.equal(candidate.bytes, bytes) { return candidate.key }
            return nil
        }

        /// Whether `bytes` are `known`'s, the same number of them (byte by byte, by index: faster
        /// than a generic comparison of the two collections).
        private static func equal(_ known: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            for index in bytes.indices where known[index] != bytes[index] { return false }
            return true
        }
    }
}

extension ByteParser {
    mutating func parseDocumentMembers() throws(JSONParseError) -> [JSON.Member]? {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == .openBrace else {
            _ = try parseDocument()
            return nil
        }
        var members: [JSON.Member] = []
        members.reserveCapacity(16)
        try parseMembers { key, value, _ in members.append(JSON.Member(key: key, value: value)) }
        try expectEnd()
        return members
    }
}
