// libFuzzer harness for the Mannco API's tokens: base64url, HS256 JSON Web Tokens, the
// `Authorization: Bearer` check every protected route makes, and the link pages' tokens. Built
// and run by .ci/fuzz; seeds in Tests/Fuzz/corpus/token, dictionary Tests/Fuzz/token.dict.
//
// Any input is a header value an attacker may send. The properties, any break of which traps:
//   * base64url is canonical: what decodes encodes back to the same text, and what encodes decodes;
//   * the input as claims, signed with the sandbox's key, verifies to exactly those claims, and
//     fails with any other key;
//   * a bearer header is accepted only when the token is the sandbox's own HS256 token, issued by
//     API, for a user, not expired: the input is accepted as it is only when the key signed it,
//     and its claims, signed, are accepted exactly when they say so (whatever the scheme's case);
//   * a link token is accepted only when it is one the sandbox makes, byte for byte.

@testable import SandboxBank
@testable import SandboxSupport
@testable import SandboxMannco

private let key = HMACSHA256.Key(ManncoToken.secret)

/// The user verified claims name, by the rules written out again here: HS256, iss API, a `sub`,
/// and an integer `exp` after `now`.
private func acceptable(header: [UInt8], claims: [UInt8], now: VirtualTime) -> String? {
    guard (try? JSON.parse(header))?["alg"] == "HS256", let claims = try? JSON.parse(claims), claims["iss"] == "API",
          let user = claims["sub"]?.stringValue, let expiry = claims["exp"]?.numberText.flatMap({ Int64($0) }),
          expiry > now.milliseconds / 1000 else { return nil }
    return user
}

@_cdecl("LLVMFuzzerTestOneInput")
public func tokenFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    let text = String(decoding: input, as: UTF8.self)

    if let decoded = Base64URL.decode(text) {
        guard Base64URL.encode(decoded) == text else { fuzzFail("base64url is not canonical", input) }
    }
    guard Base64URL.decode(Base64URL.encode(input)) == input else { fuzzFail("base64url does not round-trip", input) }

    let token = JSONWebToken.sign(claims: input, key: key)
    guard let verified = JSONWebToken.verify(token, key: key), verified.claims == input, verified.header == JSONWebToken.header else {
        fuzzFail("a signed token does not verify to its claims", input)
    }
    guard JSONWebToken.verify(token, key: HMACSHA256.Key("another key")) == nil else { fuzzFail("another key verifies", input) }

    let now = VirtualTime(milliseconds: 1_767_603_600_000)
    let user = ManncoToken.user(authorization: "Bearer " + text, at: now)
    if fuzzShow { fuzzShowLine("bearer: \(user ?? "refused")") }
    if let user {
        guard let (header, claims) = JSONWebToken.verify(text, key: key) else { fuzzFail("an unsigned token was accepted", input) }
        guard acceptable(header: header, claims: claims, now: now) == user else { fuzzFail("a token was accepted for another user", input) }
    }
    // The input as claims, signed: accepted exactly when they say iss API, a user, and an expiry after now.
    let signedUser = ManncoToken.user(authorization: "bEaReR " + token, at: now)
    guard signedUser == acceptable(header: JSONWebToken.header, claims: input, now: now) else {
        fuzzFail("signed claims: accepted for \(signedUser ?? "nobody"), expected otherwise", input)
    }
    if let link = ManncoToken.link(text) {
        let (issued, overflow) = link.expires.subtractingReportingOverflow(ManncoToken.linkLifetime)
        if !overflow, issued.magnitude < UInt64(Int64.max / 1000) {
            guard ManncoToken.linkToken(user: link.user, provider: link.provider, at: VirtualTime(milliseconds: issued * 1000)) == text else {
                fuzzFail("a link token was accepted that the sandbox would not make", input)
            }
        }
    }
    return 0
}
