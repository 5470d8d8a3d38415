import SandboxBank
import SandboxCrypto
import SandboxJSON

// The API's JWT (spec A.2 and the sandbox's decisions): HS256, signed by the sandbox with one
// fixed, documented secret (so tokens outlive a restart, and a test can make its own), claims
// `iss` "API", `sub` the user's id, `iat`, `exp` 31 days later, both unix seconds on the virtual
// clock, and `API` true. Not bound to the client's address: every client is local.

/// Issues and checks the tokens of `POST /user/login`.
public enum ManncoToken {
    /// The HS256 secret of every sandbox (README, "Mannco user cashouts").
    public static let secret = "sandbox_mannco_jwt_secret"
    static let key = HMACSHA256.Key(secret)
    /// How long a token is valid: 31 days.
    static let lifetime: Int64 = 31 * 86_400

    /// A token for `user`, issued at `now`.
    public static func issue(user: String, at now: VirtualTime) -> String {
        let issued = now.milliseconds / 1000
        let claims: JSON = ["iss": "API", "sub": .string(user), "iat": .number(String(issued)),
                            "exp": .number(String(issued + lifetime)), "API": true]
        return JSONWebToken.sign(claims: claims.serialized(), key: key)
    }

    /// The user an `Authorization: Bearer <token>` header names, when the token is this sandbox's,
    /// says HS256, and has not expired at `now` (`exp` after now); nil otherwise.
    package static func user(authorization: String?, at now: VirtualTime) -> String? {
        guard let header = authorization, header.hasPrefix("Bearer "),
              let (headerBytes, claimBytes) = JSONWebToken.verify(header.dropFirst("Bearer ".count), key: key),
              (try? JSON.parse(headerBytes))?["alg"] == "HS256",
              let claims = try? JSON.parse(claimBytes), let user = claims["sub"]?.stringValue,
              let expiry = claims["exp"]?.numberText.flatMap({ Int64($0) }), expiry > now.milliseconds / 1000 else { return nil }
        return user
    }

    /// The token of a Payoneer or PayPal link page: the user and the provider, signed, so that the
    /// page needs no stored state (and its URL works after a restart).
    package static func linkToken(user: String, provider: ManncoProvider) -> String {
        let payload = Array("\(provider.rawValue):\(user)".utf8)
        return Base64URL.encode(payload) + "." + Base64URL.encode(HMACSHA256.authenticationCode(for: [0x6C] + payload, key: key))
    }

    /// The user and provider of a link page's token; nil when this sandbox did not make it.
    package static func link(_ token: String) -> (user: String, provider: ManncoProvider)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Base64URL.decode(parts[0]), let signature = Base64URL.decode(parts[1]),
              constantTimeEquals(HMACSHA256.authenticationCode(for: [0x6C] + payload, key: key), signature),
              let text = String(validating: payload, as: UTF8.self), let colon = text.firstIndex(of: ":"),
              let provider = ManncoProvider(rawValue: String(text[..<colon])) else { return nil }
        return (String(text[text.index(after: colon)...]), provider)
    }
}
