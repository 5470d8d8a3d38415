import SandboxJSON

/// A signed request's JSON body: its members in the order sent, a key sent twice with its last
/// value, as a JSON object keeps it. A list rather than a dictionary: a create reads every member
/// once, and hashing each key into a dictionary would cost more than the rest of the parse.
struct D24Body {
    let members: [JSON.Member]

    /// The body of `bytes`; nil when they are not a JSON object.
    init?(_ bytes: [UInt8]) {
        guard let members = try? JSON.parseMembers(bytes, keys: Self.knownKeys) else { return nil }
        self.members = members
    }

    /// The keys of the signed endpoints' bodies: each kept once, not made again for every request.
    private static let knownKeys = JSON.KnownKeys(["login", "pass", "cashout_id", "status"] + D24Dialect.createFields.sorted())

    /// The value of `key` (the last sent); nil when absent.
    subscript(key: String) -> JSON? {
        members.last { $0.key == key }?.value
    }
}
