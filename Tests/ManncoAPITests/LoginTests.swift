@testable import CashoutSandbox
@testable import SandboxSupport
@testable import SandboxWire
@testable import SandboxMannco
import TestHelpers
import Testing
@testable import SandboxBank

/// `POST /user/login` and the token every other call needs (Mannco.store's API docs, "Authentication"; the Mannco guide).
@Suite struct LoginTests {
    @Test func aJSONLoginAnswersAJWTWithTheSpecsClaimsOnTheVirtualClock() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let response = try sandbox.call("POST", "/user/login", body: #"{"apiKey":"sandbox_mannco_key"}"#)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/json")
        let json = try JSON.parse(response.body)
        #expect(json["err"] == false && json["success"] == true)
        #expect(response.bodyText.hasPrefix(#"{"err":false,"success":true,"content":{"jwt":""#))
        let token = try #require(json["content"]?["jwt"]?.stringValue)
        let parts = token.split(separator: ".")
        #expect(parts.count == 3)
        #expect(Base64URL.decode(parts[0]).map { String(decoding: $0, as: UTF8.self) } == #"{"alg":"HS256","typ":"JWT"}"#)
        let claims = try JSON.parse(try #require(Base64URL.decode(parts[1])))
        #expect(claims["iss"] == "API")
        #expect(claims["sub"] == .string(DefaultUser.id))
        #expect(claims["iat"] == .number(String(startSeconds)))
        #expect(claims["exp"] == .number(String(startSeconds + 31 * 86_400)))
        // Signed with the documented secret: a client can check it.
        #expect(JSONWebToken.verify(token, key: HMACSHA256.Key(ManncoToken.secret)) != nil)
        #expect(try sandbox.balance(token) == 1_000_000)
    }

    @Test func aFormLoginWorksToo() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let response = try sandbox.call("POST", "/user/login", body: "apiKey=sandbox_mannco_key",
                                        contentType: "application/x-www-form-urlencoded")
        #expect(response.status == 200)
        let token = try #require(JSON.parse(response.body)["content"]?["jwt"]?.stringValue)
        #expect(try sandbox.balance(token) == 1_000_000)
        // curl's -d sends a JSON body as a form: it is read as the JSON it is.
        let curlStyle = try sandbox.call("POST", "/user/login", body: #"{"apiKey":"sandbox_mannco_key"}"#,
                                         contentType: "application/x-www-form-urlencoded")
        #expect(curlStyle.status == 200)
    }

    @Test(arguments: [#"{}"#, #"{"apiKey":null}"#, #"{"apiKey":""}"#, #"{"apiKey":true}"#, "", "not json", #"["apiKey"]"#])
    func aMissingAPIKeyIs300(body: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.call("POST", "/user/login", body: body), 300, "Missing required parameter: apiKey")
    }

    @Test func anUnknownAPIKeyIs403() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.call("POST", "/user/login", body: #"{"apiKey":"nope"}"#), 403, "Invalid API key")
        expectError(try sandbox.call("POST", "/user/login", body: "apiKey=SANDBOX_MANNCO_KEY", contentType: "application/x-www-form-urlencoded"),
                    403, "Invalid API key")
        expectError(try sandbox.call("POST", "/user/login", body: #"{"apiKey":42}"#), 403, "Invalid API key")
    }

    /// A key of digits logs in from a form (where it reads as a number) and from JSON as a string.
    @Test func aKeyOfDigitsLogsIn() throws {
        let sandbox = try startSandbox(users: [user(apiKey: "123456")])
        defer { sandbox.stop() }
        let form = try sandbox.call("POST", "/user/login", body: "apiKey=123456", contentType: "application/x-www-form-urlencoded")
        #expect(form.status == 200, "\(form.bodyText)")
        #expect(try sandbox.call("POST", "/user/login", body: #"{"apiKey":"123456"}"#).status == 200)
    }

    /// The scheme word is case-insensitive (RFC 9110 §11.1); the token is not.
    @Test func theBearerSchemeIsCaseInsensitive() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let token = try sandbox.login()
        for scheme in ["bearer", "BEARER", "Bearer"] {
            let response = try TestHTTP.send(method: "GET", url: sandbox.base + "/user/balance", headers: ["Authorization": "\(scheme) \(token)"])
            #expect(response.status == 200)
        }
    }

    /// Every protected route, with every kind of bad token: 403 `forbidden`.
    @Test func everyProtectedRouteRefusesABadToken() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let good = try sandbox.login()
        let parts = good.split(separator: ".").map(String.init)
        let foreignKey = HMACSHA256.Key("another secret")
        let foreign = JSONWebToken.sign(claims: try #require(Base64URL.decode(parts[1])), key: foreignKey)
        let otherUser = parts[0] + "." + Base64URL.encode(Array(#"{"sub":"76561198000000002","exp":9999999999}"#.utf8)) + "." + parts[2]
        let unsigned = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + parts[1] + "."
        // Signed with the sandbox's own secret, but saying another algorithm, or another issuer, or no expiry.
        let noneSigned = signed(header: #"{"alg":"none"}"#, claims: #"{"iss":"API","sub":"76561198000000001","exp":9999999999}"#)
        let otherIssuer = signed(header: #"{"alg":"HS256"}"#, claims: #"{"iss":"me","sub":"76561198000000001","exp":9999999999}"#)
        let noExpiry = signed(header: #"{"alg":"HS256"}"#, claims: #"{"iss":"API","sub":"76561198000000001"}"#)
        let fractionalExpiry = signed(header: #"{"alg":"HS256"}"#, claims: #"{"iss":"API","sub":"76561198000000001","exp":9999999999.5}"#)
        let accepted = signed(header: #"{"alg":"HS256"}"#, claims: #"{"iss":"API","sub":"76561198000000001","exp":9999999999}"#)
        #expect(try sandbox.balance(accepted) == 1_000_000)  // the same, well formed: what the others differ from
        let routes = [("POST", "/cashout/process"), ("GET", "/user/getCashoutHistory"), ("GET", "/user/balance"),
                      ("POST", "/cashout/link"), ("POST", "/cashout/unlink")]
        for (method, path) in routes {
            for header in [nil, "Bearer", "Bearer ", "Bearer garbage", "Bearer a.b.c", "Basic \(good)", "Bearer  \(good)", "Bearer\(good)",
                           "Bearer \(foreign)", "Bearer \(otherUser)", "Bearer \(unsigned)", "Bearer \(noneSigned)", "Bearer \(otherIssuer)",
                           "Bearer \(noExpiry)", "Bearer \(fractionalExpiry)", "Bearer \(good)x"] {
                var headers = HTTPHeaders()
                if let header { headers.add("Authorization", header) }
                let response = try TestHTTP.send(method: method, url: sandbox.base + path, headers: headers,
                                                 body: Array(#"{"amount":5000,"method":"payoneer","provider":"payoneer"}"#.utf8))
                expectError(response, 403, "forbidden")
            }
        }
        #expect(sandbox.bank.payouts().isEmpty)
    }

    /// `exp` is 31 days after login on the virtual clock: valid one second before, refused at it.
    @Test func aTokenExpiresAfter31DaysOfVirtualTime() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let token = try sandbox.login()
        try sandbox.advance("30d23h59m59s")
        #expect(try sandbox.balance(token) == 1_000_000)
        try sandbox.advance("1s")
        expectError(try sandbox.call("GET", "/user/balance", token: token), 403, "forbidden")
        #expect(try sandbox.balance(try sandbox.login()) == 1_000_000)  // a new login works
    }

    /// A token opens its own user's account, whoever else logs in.
    @Test func eachTokenOpensItsOwnUser() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let token = try sandbox.login()
        try sandbox.admin("POST", "/sandbox/scenario", #"{"users": [{"id": "42", "api_key": "k42"}]}"#)
        #expect(try sandbox.balance(token) == 1_000_000)
        let tokenOf42 = try sandbox.login("k42")
        #expect(try sandbox.balance(tokenOf42) == 0)
    }
}

/// A token of this header and these claims, signed with the sandbox's secret as a client that
/// knows it would (independent of the sandbox's own `JSONWebToken.sign`, whose header is fixed).
private func signed(header: String, claims: String) -> String {
    let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
    return input + "." + Base64URL.encode(HMACSHA256.authenticationCode(for: input, key: HMACSHA256.Key(ManncoToken.secret)))
}
