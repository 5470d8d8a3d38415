import SandboxBank
import SandboxSupport
import Synchronization

/// HMAC keys prepared once per merchant secret: preparing one costs two SHA-256 blocks, which
/// every signed request would otherwise pay again.
final class D24SigningKeys: Sendable {
    /// Bounded (secrets rotated by a long run), and the secret asked for last is compared before
    /// hashing it: requests and notifications of one merchant ask for the same one again and again.
    private let prepared = Mutex(InternTable<String, HMACSHA256.Key>(capacity: 10_000))

    init() {}

    /// The prepared key of a merchant's secret.
    package func key(for merchant: D24Merchant) -> HMACSHA256.Key {
        key(secret: merchant.secret)
    }

    /// The prepared key of a secret.
    package func key(secret: String) -> HMACSHA256.Key {
        prepared.withLock { $0.intern(secret) { HMACSHA256.Key($0) } }
    }
}
