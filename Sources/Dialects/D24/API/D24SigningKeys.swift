import SandboxBank
import SandboxCrypto
import Synchronization

/// HMAC keys prepared once per merchant secret: preparing one costs two SHA-256 blocks, which
/// every signed request would otherwise pay again.
public final class D24SigningKeys: Sendable {
    private let keys = Mutex<[String: HMACSHA256.Key]>([:])

    public init() {}

    /// The prepared key of a merchant's secret.
    public func key(for merchant: D24Merchant) -> HMACSHA256.Key {
        key(secret: merchant.secret)
    }

    /// The prepared key of a secret.
    public func key(secret: String) -> HMACSHA256.Key {
        keys.withLock { keys in
            if let key = keys[secret] { return key }
            let key = HMACSHA256.Key(secret)
            if keys.count > 10_000 { keys.removeAll() }  // secrets rotated by a long run: keep it bounded
            keys[secret] = key
            return key
        }
    }
}
