package import SandboxBank
import SandboxSupport
import SandboxWire

// The API's JWT (Mannco.store's API docs, "Authentication"; the Mannco guide): HS256, signed by the sandbox with one
// fixed, documented secret (so tokens outlive a restart, and a test can make its own), claims
// `iss` "API", `sub` the user's id, `iat`, `exp` 31 days later, both unix seconds on the virtual
// clock, and `API` true. Not bound to the client's address: every client is local. The scheme
// word `Bearer` is case-insensitive (RFC 9110 §11.1).

/// Issues and checks the tokens of `POST /user/login`.
package enum ManncoToken {
    /// The HS256 secret of every sandbox (the Mannco guide, "Endpoints").
    package static let secret = "sandbox_mannco_jwt_secret"
    static let key = HMACSHA256.Key(secret)
    /// The key of link tokens: derived from the secret, so that no JWT is ever a link token.
    static let linkKey = HMACSHA256.Key(HMACSHA256.authenticationCode(for: "link pages", key: key))
    /// How long a token is valid: 31 days.
    static let lifetime: Int64 = 31 * 86_400

    /// A token for `user`, issued at `now`.
    package static func issue(user: String, at now: VirtualTime) -> String {
        let issued = now.milliseconds / 1000
        let claims: JSON = ["iss": "API", "sub": .string(user), "iat": .number(String(issued)),
                            "exp": .number(String(issued + lifetime)), "API": true]
        return JSONWebToken.sign(claims: claims.serialized(), key: key)
    }

    /// What checking an `Authorization` header found: the user the token names, or why it was refused.
    enum Verification {
        case user(String)
        case refused(Diagnosis)
    }

    /// The user an `Authorization: Bearer <token>` header names, when the token is this sandbox's,
    /// says HS256, was issued by `API`, and has not expired at `now` (`exp` after now); else the
    /// check that failed.
    static func verify(authorization: String?, at now: VirtualTime) -> Verification {
        guard let header = authorization else { return .refused(ManncoDiagnosis.tokenMissing) }
        guard header.utf8.count > 7, header.prefix(7).lowercased() == "bearer " else { return .refused(ManncoDiagnosis.scheme(header)) }
        let token = header.dropFirst(7)
        guard let (headerBytes, claimBytes) = JSONWebToken.verify(token, key: key) else { return .refused(ManncoDiagnosis.unverified(token)) }
        let algorithm = (try? JSON.parse(headerBytes))?["alg"]
        guard algorithm == "HS256" else { return .refused(ManncoDiagnosis.algorithm(algorithm)) }
        guard let claims = try? JSON.parse(claimBytes), claims["iss"] == "API", let user = claims["sub"]?.stringValue else {
            return .refused(ManncoDiagnosis.claims(claimBytes))
        }
        guard let expiry = claims["exp"]?.numberText.flatMap({ Int64($0) }), expiry > now.milliseconds / 1000 else {
            return .refused(ManncoDiagnosis.expired(claims["exp"], now: now))
        }
        return .user(user)
    }

    /// The user an `Authorization: Bearer <token>` header names (``verify(authorization:at:)``); nil when refused.
    static func user(authorization: String?, at now: VirtualTime) -> String? {
        if case .user(let user) = verify(authorization: authorization, at: now) { return user }
        return nil
    }

    /// The user a Bearer token of this sandbox names, expired or not (the integration report
    /// follows a user's expired token); nil for a token it did not sign.
    package static func subject(authorization: String?) -> String? {
        guard let header = authorization, header.utf8.count > 7, header.prefix(7).lowercased() == "bearer ",
              let (_, claims) = JSONWebToken.verify(header.dropFirst(7), key: key) else { return nil }
        return (try? JSON.parse(claims))?["sub"]?.stringValue
    }

    /// How long a link page works after `POST /cashout/link` made it: a day of virtual time.
    static let linkLifetime: Int64 = 86_400

    /// The token of a Payoneer or PayPal link page: the provider, when it expires and the user,
    /// signed, so that the page needs no stored state (and its URL works after a restart).
    static func linkToken(user: String, provider: ManncoProvider, at now: VirtualTime) -> String {
        let payload = Array("\(provider.rawValue):\(now.milliseconds / 1000 + linkLifetime):\(user)".utf8)
        return Base64URL.encode(payload) + "." + Base64URL.encode(HMACSHA256.authenticationCode(for: payload, key: linkKey))
    }

    /// What a link page's token says: nil when this sandbox did not make it.
    static func link(_ token: String) -> (user: String, provider: ManncoProvider, expires: Int64)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Base64URL.decode(parts[0]), let signature = Base64URL.decode(parts[1]),
              constantTimeEquals(HMACSHA256.authenticationCode(for: payload, key: linkKey), signature),
              let text = String(validating: payload, as: UTF8.self) else { return nil }
        let fields = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, let provider = ManncoProvider(rawValue: String(fields[0])), let expires = Int64(fields[1]) else { return nil }
        return (String(fields[2]), provider, expires)
    }
}
