// Base64url (RFC 4648 §5, §10 vectors) and HS256 JSON Web Tokens (RFC 7515 Appendix A.1).

@testable import SandboxSupport
import Testing

@Suite("Base64URL and JSONWebToken")
struct JSONWebTokenTests {
    /// RFC 4648 §10's test vectors, without padding (the alphabets agree on these).
    @Test func rfc4648Vectors() {
        let vectors = [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test func theURLAlphabetReplacesPlusAndSlash() {
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
        #expect(Base64URL.decode("+/+/") == nil)
    }

    @Test func everyByteRoundTrips() {
        for length in 0 ... 70 {
            let bytes = (0 ..< length).map { UInt8(($0 * 37 + 11) % 256) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    @Test func malformedEncodingsAreRefused() {
        #expect(Base64URL.decode("Zg==") == nil)  // padding
        #expect(Base64URL.decode("Z") == nil)  // no encoding is 4n+1 long
        #expect(Base64URL.decode("Zh") == nil)  // stray bits in the last character
        #expect(Base64URL.decode("Zm9 ") == nil)
        #expect(Base64URL.decode("Zm9.") == nil)
    }

    /// RFC 7515 Appendix A.1: the HS256 example, its key given as a JWK `k`.
    @Test func rfc7515AppendixA1() throws {
        let key = HMACSHA256.Key(try #require(Base64URL.decode(
            "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow")))
        let header = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
        let claims = "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        #expect(Base64URL.decode(header) == Array("{\"typ\":\"JWT\",\r\n \"alg\":\"HS256\"}".utf8))
        let token = "\(header).\(claims).dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let verified = try #require(JSONWebToken.verify(token, key: key))
        #expect(verified.claims == Array("{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}".utf8))
        #expect(JSONWebToken.verify(token, key: HMACSHA256.Key("another key")) == nil)
    }

    @Test func signedTokensVerifyAndTamperingIsRefused() throws {
        let key = HMACSHA256.Key("sandbox_jwt_secret")
        let token = JSONWebToken.sign(claims: Array(#"{"sub":"42"}"#.utf8), key: key)
        #expect(token.hasPrefix("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."))
        let verified = try #require(JSONWebToken.verify(token, key: key))
        #expect(verified.header == JSONWebToken.header)
        #expect(verified.claims == Array(#"{"sub":"42"}"#.utf8))
        let parts = token.split(separator: ".").map(String.init)
        let forged = parts[0] + "." + Base64URL.encode(Array(#"{"sub":"43"}"#.utf8)) + "." + parts[2]
        #expect(JSONWebToken.verify(forged, key: key) == nil)
        #expect(JSONWebToken.verify(parts[0] + "." + parts[1] + ".", key: key) == nil)
        #expect(JSONWebToken.verify(parts[0] + "." + parts[1], key: key) == nil)
        #expect(JSONWebToken.verify(token + ".x", key: key) == nil)
        #expect(JSONWebToken.verify("", key: key) == nil)
    }
}
