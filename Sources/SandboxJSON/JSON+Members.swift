// Reading one object's members without building its dictionary: for a hot path that looks at a
// few known keys of every request (a create's body), where hashing each key into a dictionary
// costs more than the parse.

extension JSON {
    /// A member of an object: its key and value.
    public struct Member: Sendable, Equatable {
        public let key: String
        public let value: JSON

        public init(key: String, value: JSON) {
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
    public static func parseMembers(_ bytes: some Collection<UInt8>, maxDepth: Int = 256) throws(JSONParseError) -> [Member]? {
        try withParser(over: bytes, maxDepth: maxDepth, duplicateKeys: true) { parser throws(JSONParseError) in
            try parser.parseDocumentMembers()
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
