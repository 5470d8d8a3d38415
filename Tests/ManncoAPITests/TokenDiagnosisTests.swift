@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxSupport
@testable import SandboxWire
@testable import SandboxMannco
import TestHelpers
import Testing

/// A refused token or API key keeps Mannco's `forbidden` answer and says, in the request
/// journal, which check failed.
@Suite struct TokenDiagnosisTests {
    private func diagnosis(_ sandbox: Sandbox) -> JSON? {
        sandbox.requests(limit: 1).first?["diagnosis"]
    }

    /// Calls `GET /user/balance` with `authorization` and expects 403 `forbidden`.
    private func refused(_ sandbox: Sandbox, _ authorization: String?, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSON {
        let headers: HTTPHeaders = authorization.map { ["Authorization": $0] } ?? [:]
        let response = try TestHTTP.send(method: "GET", url: sandbox.base + "/user/balance", headers: headers)
        expectError(response, 403, ManncoMessage.forbidden, sourceLocation: sourceLocation)
        return try #require(diagnosis(sandbox), sourceLocation: sourceLocation)
    }

    /// An HS256 token over `header` and `claims`, signed with `secret`.
    private func token(header: String = #"{"alg":"HS256","typ":"JWT"}"#, claims: String, secret: String = ManncoToken.secret) -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        return input + "." + Base64URL.encode(HMACSHA256.authenticationCode(for: input, key: HMACSHA256.Key(secret)))
    }

    private let claims = #"{"iss":"API","sub":"76561198000000001","iat":1767603600,"exp":1770282000,"API":true}"#

    @Test func aMissingOrMisspelledHeaderSaysHowToSendTheToken() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        #expect(try refused(sandbox, nil) == ["check": "token_missing", "message": """
            No Authorization header: log in with POST /user/login {"apiKey"} and send "Authorization: Bearer <jwt>" with the jwt it answers
            """])
        #expect(try refused(sandbox, "Token abc") == ["check": "authorization_scheme", "received": "Token abc",
                                                      "message": #"Authorization must be "Bearer <jwt>", not "Token abc""#])
        let jwt = token(claims: claims)
        #expect(try refused(sandbox, jwt) == ["check": "authorization_scheme", "received": .string(jwt),
                                              "message": .string(#"Authorization holds the token alone: send "Bearer " before it ("Authorization: "#
                                                                 + #"Bearer <jwt>")"#)])
    }

    @Test func aTokenThatIsNotThisSandboxsSaysWhy() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        #expect(try refused(sandbox, "Bearer not-a-jwt") == ["check": "jwt_invalid", "reason": "malformed",
            "message": "The token is not a JWT: three base64url parts separated by dots (1 part(s) received)"])
        #expect(try refused(sandbox, "Bearer " + token(claims: claims, secret: "another secret")) == [
            "check": "jwt_invalid", "reason": "signature", "secret": "sandbox_mannco_jwt_secret",
            "message": .string(#"The token's signature is not this sandbox's: it signs tokens with HS256 and the secret "#
                               + #""sandbox_mannco_jwt_secret"; get one from POST /user/login"#),
        ])
        #expect(try refused(sandbox, "Bearer " + token(header: #"{"alg":"none"}"#, claims: claims)) == [
            "check": "jwt_invalid", "reason": "algorithm", "message": #"The token's header says alg "none"; this sandbox takes HS256 only"#,
        ])
        let noIssuer = #"{"sub":"76561198000000001","exp":1770282000}"#
        #expect(try refused(sandbox, "Bearer " + token(claims: noIssuer)) == [
            "check": "jwt_invalid", "reason": "claims", "claims": .string(noIssuer),
            "message": .string(#"The token's claims need "iss": "API" and the user's id as "sub"; they are "# + noIssuer),
        ])
    }

    @Test func anExpiredTokenShowsItsExpiryAndTheVirtualNow() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let jwt = try sandbox.login()
        sandbox.advance(by: .seconds(31 * 86_400))
        #expect(try refused(sandbox, "Bearer " + jwt) == [
            "check": "jwt_expired", "exp": 1_770_282_000, "expired_at": "2026-02-05T09:00:00Z", "now": "2026-02-05T09:00:00Z",
            "message": .string("The token expired at 2026-02-05T09:00:00Z (exp 1770282000); the sandbox's clock is at 2026-02-05T09:00:00Z: log in "
                               + "again with POST /user/login"),
        ])
    }

    @Test func aTokenOfAUserThatIsGoneSaysSo() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let ghost = ManncoToken.issue(user: "76561198000000099", at: sandbox.clock.now)
        #expect(try refused(sandbox, "Bearer " + ghost) == ["check": "unknown_user", "user": "76561198000000099", "message": """
            The token names user 76561198000000099, which this sandbox does not have (any more: a reset forgets users the admin API made); log in \
            again
            """])
    }

    @Test func anUnknownAPIKeyAtLoginNamesTheUsersKeys() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.call("POST", "/user/login", body: #"{"apiKey":"76561198000000001"}"#), 403, ManncoMessage.invalidAPIKey)
        #expect(diagnosis(sandbox) == [
            "check": "unknown_api_key", "received_api_key": "76561198000000001", "api_keys": ["76561198000000001": "sandbox_mannco_key"],
            "message": #"apiKey "76561198000000001" is no user's API key: it is a user's id; that user's API key is "sandbox_mannco_key""#,
        ])
        expectError(try sandbox.call("POST", "/user/login", body: #"{"apiKey":"nope"}"#), 403, ManncoMessage.invalidAPIKey)
        #expect(diagnosis(sandbox)?["message"] == .string(#"apiKey "nope" is no user's API key (user 76561198000000001's is "sandbox_mannco_key"; "#
                                                          + #"GET /sandbox/users lists them)"#))
        // A good token has none.
        _ = try sandbox.call("GET", "/user/balance", token: try sandbox.login())
        #expect(diagnosis(sandbox) == .null)
    }
}
