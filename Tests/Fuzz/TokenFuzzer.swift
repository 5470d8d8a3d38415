// libFuzzer harness for the Mannco API's tokens: base64url, HS256 JSON Web Tokens, the
// `Authorization: Bearer` check every protected route makes, and the link pages' tokens. Built
// and run by .ci/fuzz; seeds in Tests/Fuzz/corpus/token, dictionary Tests/Fuzz/token.dict.
//
// Any input is a header value an attacker may send. The properties, any break of which traps:
//   * base64url is canonical: what decodes encodes back to the same text, and what encodes decodes;
//   * the input as claims, signed with the sandbox's key, verifies to exactly those claims, and
//     fails with any other key;
//   * a bearer header is accepted only when the token is the sandbox's own HS256 token for a
//     user that has not expired: the input is never accepted as it is, unless it is a token the
//     key signed; a link token names a provider only when the key signed it.

import SandboxBank
import SandboxCrypto
import SandboxJSON
import SandboxMannco

private let key = HMACSHA256.Key(ManncoToken.secret)

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
    if user != nil, JSONWebToken.verify(text, key: key) == nil { fuzzFail("an unsigned token was accepted", input) }
    // The input's own claims, signed: accepted exactly when they name a user and expire later.
    if let signedUser = ManncoToken.user(authorization: "Bearer " + token, at: now) {
        guard case .some = try? JSON.parse(input) else { fuzzFail("claims that are no JSON were accepted", input) }
        _ = signedUser
    }
    if let link = ManncoToken.link(text) {
        guard ManncoToken.linkToken(user: link.user, provider: link.provider) == text else { fuzzFail("a forged link token was accepted", input) }
    }
    return 0
}
