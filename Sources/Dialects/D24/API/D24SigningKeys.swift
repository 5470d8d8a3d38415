import SandboxBank
import SandboxCrypto
import Synchronization

/// HMAC keys prepared once per merchant secret: preparing one costs two SHA-256 blocks, which
/// every signed request would otherwise pay again.
public final class D24SigningKeys: Sendable {
    private struct Prepared {
        var keys: [String: HMACSHA256.Key] = [:]
        /// The secret asked for last and its key, compared before hashing the secret: requests and
        /// notifications of one merchant ask for the same one again and again.
        var last: (secret: String, key: HMACSHA256.Key)?
    }

    private let prepared = Mutex(Prepared())

    public init() {}

    /// The prepared key of a merchant's secret.
    public func key(for merchant: D24Merchant) -> HMACSHA256.Key {
        key(secret: merchant.secret)
    }

    /// The prepared key of a secret.
    public func key(secret: String) -> HMACSHA256.Key {
        prepared.withLock { prepared in
            if let last = prepared.last, last.secret == secret { return last.key }
            let key: HMACSHA256.Key
            if let known = prepared.keys[secret] {
                key = known
            } else {
                key = HMACSHA256.Key(secret)
                if prepared.keys.count > 10_000 { prepared.keys.removeAll() }  // secrets rotated by a long run: keep it bounded
                prepared.keys[secret] = key
            }
            prepared.last = (secret, key)
            return key
        }
    }
}
