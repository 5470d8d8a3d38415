import SandboxWire
import SandboxSupport

/// A signed request's JSON body: its members, a key sent twice with its last value, as a JSON
/// object keeps it. A list rather than a dictionary: a create reads every member once, and
/// hashing each key into a dictionary would cost more than the rest of the parse.
struct D24Body {
    let members: [JSON.Member]

    /// The body of `request`, from its JSON when a fault read it first (``HTTPRequest/decoded``); nil when it is
    /// not a JSON object.
    init?(_ request: HTTPRequest) {
        guard let members = Self.members(of: request) else { return nil }
        self.members = members
    }

    /// The value of `key` (the last sent); nil when absent.
    subscript(key: String) -> JSON? {
        members.last { $0.key == key }?.value
    }

    /// The members as read: from the JSON a scenario's fault decoded first, else from the bytes, with the known keys.
    /// Not kept for the log's readers, which decode the JSON once for all of them: kept with the request, the members
    /// cost a signed status query an eighth of its throughput (wrk, beside the build that parsed them alone), though
    /// only 2k instructions (callgrind).
    private static func members(of request: HTTPRequest) -> [JSON.Member]? {
        if let json = request.decoded?.jsonIfRead { return json?.objectValue.map { $0.map(JSON.Member.init) } }
        return try? JSON.parseMembers(request.body, keys: Self.knownKeys)
    }

    /// The keys of the signed endpoints' bodies: each kept once, not made again for every request.
    private static let knownKeys = JSON.KnownKeys(["login", "pass", "cashout_id", "status"] + D24Dialect.createFields.sorted())
}
