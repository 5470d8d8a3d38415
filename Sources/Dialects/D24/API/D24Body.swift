import SandboxHTTP
import SandboxJSON

/// A signed request's JSON body: its members, a key sent twice with its last value, as a JSON
/// object keeps it. A list rather than a dictionary: a create reads every member once, and
/// hashing each key into a dictionary would cost more than the rest of the parse.
struct D24Body: Sendable {
    let members: [JSON.Member]

    /// The body of `request`, read once for it and its every other reader (``HTTPRequest/decoded``);
    /// nil when it is not a JSON object.
    init?(_ request: HTTPRequest) {
        guard let members = Self.members(of: request) else { return nil }
        self.members = members
    }

    /// The value of `key` (the last sent); nil when absent.
    subscript(key: String) -> JSON? {
        members.last { $0.key == key }?.value
    }

    /// The members as read: from the bytes, with the known keys, or from the JSON another reader decoded first.
    private struct Read: DecodedMessage {
        let members: [JSON.Member]?

        var jsonView: JSON? { members.map { .object(Dictionary($0.map { ($0.key, $0.value) }) { _, last in last }) } }
    }

    private static func members(of request: HTTPRequest) -> [JSON.Member]? {
        let decode = { Read(members: try? JSON.parseMembers(request.body, keys: Self.knownKeys)) }
        guard let decoded = request.decoded else { return decode().members }
        return decoded.message(decode, fromJSON: { json in Read(members: json?.objectValue.map { $0.map(JSON.Member.init) }) }).members
    }

    /// The keys of the signed endpoints' bodies: each kept once, not made again for every request.
    private static let knownKeys = JSON.KnownKeys(["login", "pass", "cashout_id", "status"] + D24Dialect.createFields.sorted())
}
