// JSON Web Tokens signed with HMAC-SHA256 ("HS256"): RFC 7519 over the JWS compact serialization
// of RFC 7515 §7.1: BASE64URL(header) "." BASE64URL(claims) "." BASE64URL(HMAC of the first two).
// This module holds no JSON parser: the caller writes the claims and reads the ones it gets back.

/// HS256 tokens: made with a key, and checked with it.
///
/// ```swift
/// let key = HMACSHA256.Key("sandbox_jwt_secret")
/// let token = JSONWebToken.sign(claims: Array(#"{"sub":"42"}"#.utf8), key: key)
/// JSONWebToken.verify(token, key: key)   // the claims' bytes; nil for a token not signed with key
/// ```
package enum JSONWebToken {
    /// The header every token this makes carries: `{"alg":"HS256","typ":"JWT"}`.
    static let header = Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8)

    /// A token whose payload is `claims` (a JSON object's bytes), signed with `key`.
    package static func sign(claims: [UInt8], key: HMACSHA256.Key) -> String {
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(claims)
        return signingInput + "." + Base64URL.encode(HMACSHA256.authenticationCode(for: signingInput, key: key))
    }

    /// The header's and the claims' bytes of `token` when its signature is `key`'s HMAC-SHA256 of
    /// its first two parts (compared in constant time); nil for anything else. The header's
    /// `alg` is for the caller to check: a token of another algorithm that `key` happens to
    /// sign still names it.
    package static func verify(_ token: some StringProtocol, key: HMACSHA256.Key) -> (header: [UInt8], claims: [UInt8])? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Base64URL.decode(parts[0]), let claims = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]) else { return nil }
        let signingInput = token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count)
        guard constantTimeEquals(HMACSHA256.authenticationCode(for: signingInput, key: key), signature) else { return nil }
        return (header, claims)
    }
}
