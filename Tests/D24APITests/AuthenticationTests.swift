@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxD24
import TestHelpers
import Testing

/// The four signed endpoints, each with a body that, once authenticated, has a known answer.
enum SignedEndpoint: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case create, status, updateStatus, cancel

    var method: String {
        switch self {
        case .create, .status: "POST"
        case .updateStatus: "PUT"
        case .cancel: "DELETE"
        }
    }

    var path: String {
        switch self {
        case .create: "/v3/cashout"
        case .status, .updateStatus: "/v3/cashout/status"
        case .cancel: "/v3/cashout/cancel"
        }
    }

    var testDescription: String { "\(method) \(path)" }

    /// Everything after the credentials: a valid create, or a lookup of a cashout that does not exist.
    var rest: String {
        switch self {
        case .create:
            #""external_id":"auth-1","country":"BR","currency":"BRL","amount":100,"document_id":"01716001340","document_type":"CPF","#
            + #""beneficiary_name":"Ana","beneficiary_lastname":"Silva","bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","#
            + #""account_type":"C""#
        case .status: #""cashout_id":999999"#
        case .updateStatus: #""cashout_id":999999,"status":"ON_HOLD""#
        case .cancel: #""cashout_id":999999,"external_id":"nope""#
        }
    }

    /// The body with the given credentials members (already formatted, may be empty).
    func body(_ credentialMembers: String = credentials()) -> String {
        credentialMembers.isEmpty ? "{\(rest)}" : "{\(credentialMembers),\(rest)}"
    }

    /// Checks the answer an authenticated request gets: the create succeeds, lookups find nothing.
    func expectAuthenticated(_ response: HTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        switch self {
        case .create: expectOK(response, #"{"cashout_id":"1000001"}"#, sourceLocation: sourceLocation)
        default: expectError(response, 509, "Cashout not found with this ID", sourceLocation: sourceLocation)
        }
    }
}

let invalidCredentials = "Invalid credentials"
let invalidControlString = "Invalid control string"
let unregisteredIP = "Unregistered IP address (Go to API Access to whitelist the IP in the Merchant Panel)"
let invalidBody = "Invalid request body - Please check that the JSON is well formatted"

@Suite struct AuthenticationTests {
    @Test(arguments: SignedEndpoint.allCases)
    func correctlySignedRequestIsAuthenticated(_ endpoint: SignedEndpoint) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        endpoint.expectAuthenticated(try sandbox.signed(endpoint.method, endpoint.path, endpoint.body()))
    }

    @Test(arguments: SignedEndpoint.allCases, ["{\"login\":", "", "[]", "\"sandbox_login\"", "not json", "{\"login\":\"sandbox_login\",}", "42"])
    func bodyThatIsNotAJSONObjectIs502(_ endpoint: SignedEndpoint, body: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.signed(endpoint.method, endpoint.path, body), 502, invalidBody)
        // The JSON check comes before the signature check.
        expectError(try sandbox.signed(endpoint.method, endpoint.path, body, signature: .missing), 502, invalidBody)
        expectError(try sandbox.signed(endpoint.method, endpoint.path, body, signature: .literal("00")), 502, invalidBody)
    }

    @Test(arguments: SignedEndpoint.allCases)
    func missingOrWrongCredentialsAre401(_ endpoint: SignedEndpoint) throws {
        let sandbox = try startSandbox(merchants: [D24Merchant.sandboxDefault, otherMerchant])
        defer { sandbox.stop() }
        let cases = [
            #""pass":"sandbox_pass""#,                                  // no login
            #""login":"sandbox_login""#,                                // no pass
            #""login":"sandbox_login","pass":"wrong_pass""#,            // wrong pass
            #""login":"nobody","pass":"sandbox_pass""#,                 // unknown login
            #""login":"sandbox_login","pass":"other_pass""#,            // another merchant's pass
            #""login":"SANDBOX_LOGIN","pass":"sandbox_pass""#,          // credentials are case-sensitive
            #""login":"sandbox_login","pass":"""#,                      // empty pass
            "",                                                         // neither
        ]
        for members in cases {
            let response = try sandbox.signed(endpoint.method, endpoint.path, endpoint.body(members))
            expectError(response, 401, invalidCredentials)
        }
        #expect(try sandbox.balance() == "1000000.00")
    }

    @Test(arguments: SignedEndpoint.allCases)
    func credentialsAreCheckedBeforeTheSignature(_ endpoint: SignedEndpoint) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let body = endpoint.body(credentials(pass: "wrong_pass"))
        expectError(try sandbox.signed(endpoint.method, endpoint.path, body, signature: .missing), 401, invalidCredentials)
        expectError(try sandbox.signed(endpoint.method, endpoint.path, body, signature: .literal("abc")), 401, invalidCredentials)
    }

    @Test(arguments: SignedEndpoint.allCases)
    func missingOrWrongSignatureIs302(_ endpoint: SignedEndpoint) throws {
        let sandbox = try startSandbox(merchants: [D24Merchant.sandboxDefault, otherMerchant])
        defer { sandbox.stop() }
        let body = endpoint.body()
        let signatures: [Signature] = [
            .missing,
            .uppercase,                                   // must be lowercase hex
            .literal(""),
            .literal(sign(body + " ")),                   // HMAC of other bytes
            .literal(sign(body.replacingOccurrences(of: ",", with: ", "))),
            .valid(secret: "other_secret"),               // another merchant's secret
            .valid(secret: "sandbox_pass"),
            .literal(String(sign(body).dropLast())),      // truncated
            .literal(sign(body) + "0"),                   // too long
            .literal("sha256=" + sign(body)),
        ]
        for signature in signatures {
            expectError(try sandbox.signed(endpoint.method, endpoint.path, body, signature: signature), 302, invalidControlString)
        }
        #expect(try sandbox.balance() == "1000000.00")
        // After all the refusals, the same body correctly signed still works.
        endpoint.expectAuthenticated(try sandbox.signed(endpoint.method, endpoint.path, body))
    }

    @Test func signatureIsOverTheExactBytesSent() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        // Unusual key order and whitespace: fine as long as the HMAC covers exactly these bytes.
        let body = "{\n  \"amount\" : \"25.00\", \"currency\":\"BRL\",\"country\":\"BR\",\t\"pass\":\"sandbox_pass\",\"login\":\"sandbox_login\","
                   + "\"external_id\":\"ws-1\",\"document_id\":\"01716001340\",\"document_type\":\"CPF\",\"beneficiary_name\":\"Ana\","
                   + "\"beneficiary_lastname\":\"Silva\",\"bank_code\":\"001\",\"bank_account\":\"3423422-7\",\"bank_branch\":\"1234\","
                   + "\"account_type\":\"C\"\n}\n"
        expectOK(try sandbox.create(body), #"{"cashout_id":"1000001"}"#)
        // Non-ASCII bytes are hashed as UTF-8.
        let accented = createBody(externalID: "ws-2").replacingOccurrences(of: #""Ana""#, with: #""Ana María""#)
        expectOK(try sandbox.create(accented), #"{"cashout_id":"1000002"}"#)
    }

    @Test func signatureHeaderNameIsCaseInsensitive() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let body = createBody()
        let response = try sandbox.signed("POST", "/v3/cashout", body, signature: .missing,
                                          headers: [("payload-signature", sign(body))])
        expectOK(response, #"{"cashout_id":"1000001"}"#)
    }

    @Test func eachMerchantSignsWithItsOwnSecret() throws {
        let sandbox = try startSandbox(merchants: [D24Merchant.sandboxDefault, otherMerchant])
        defer { sandbox.stop() }
        let body = createBody(externalID: "m-1", login: "other_login", pass: "other_pass")
        expectError(try sandbox.create(body), 302, invalidControlString)
        expectOK(try sandbox.create(body, signature: .valid(secret: "other_secret")), #"{"cashout_id":"1000001"}"#)
        #expect(try sandbox.balance(of: "other_login") == "4983.00")
        #expect(try sandbox.balance(of: Default.login) == "1000000.00")
    }

    @Test(arguments: SignedEndpoint.allCases)
    func unlistedIPIs402AfterTheSignatureCheck(_ endpoint: SignedEndpoint) throws {
        let sandbox = try startSandbox(merchants: [merchant(allowedIPs: ["10.9.9.9"])])
        defer { sandbox.stop() }
        let body = endpoint.body()
        let response = try sandbox.signed(endpoint.method, endpoint.path, body)
        expectError(response, 402, unregisteredIP)
        // Credentials and the signature are checked first.
        expectError(try sandbox.signed(endpoint.method, endpoint.path, endpoint.body(credentials(pass: "x"))), 401, invalidCredentials)
        expectError(try sandbox.signed(endpoint.method, endpoint.path, body, signature: .uppercase), 302, invalidControlString)
        #expect(try sandbox.balance() == "1000000.00")
    }

    @Test func ipIsCheckedBeforeTheFields() throws {
        let sandbox = try startSandbox(merchants: [merchant(allowedIPs: ["10.9.9.9"])])
        defer { sandbox.stop() }
        expectError(try sandbox.create(createBody(amount: "0")), 402, unregisteredIP)
        expectError(try sandbox.create(createBody(currency: "EUR")), 402, unregisteredIP)
        expectError(try sandbox.status("{\(credentials())}"), 402, unregisteredIP)
        expectError(try sandbox.updateStatus(#"{\#(credentials()),"cashout_id":1,"status":"FOO"}"#), 402, unregisteredIP)
        expectError(try sandbox.cancel("{\(credentials())}"), 402, unregisteredIP)
        #expect(try sandbox.admin("GET", "/sandbox/cashouts")["cashouts"]?.arrayValue?.isEmpty == true)
    }

    @Test(arguments: SignedEndpoint.allCases)
    func listedIPIsAccepted(_ endpoint: SignedEndpoint) throws {
        let sandbox = try startSandbox(merchants: [merchant(allowedIPs: ["10.9.9.9", "127.0.0.1"])])
        defer { sandbox.stop() }
        endpoint.expectAuthenticated(try sandbox.signed(endpoint.method, endpoint.path, endpoint.body()))
    }

    @Test func allowListOfOneMerchantDoesNotAffectAnother() throws {
        let blocked = merchant(login: "blocked_login", pass: "blocked_pass", secret: "blocked_secret",
                               readOnlyKey: "blocked_ro", allowedIPs: ["10.9.9.9"])
        let sandbox = try startSandbox(merchants: [D24Merchant.sandboxDefault, blocked])
        defer { sandbox.stop() }
        expectOK(try sandbox.create(createBody(externalID: "a")), #"{"cashout_id":"1000001"}"#)
        let body = createBody(externalID: "b", login: "blocked_login", pass: "blocked_pass")
        expectError(try sandbox.create(body, signature: .valid(secret: "blocked_secret")), 402, unregisteredIP)
    }

    @Test func errorsAreJSON() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let responses = [try sandbox.create("{"), try sandbox.create(createBody(pass: "x")),
                         try sandbox.create(createBody(), signature: .missing), try sandbox.create(createBody(amount: "0")),
                         try sandbox.create(createBody())]
        for response in responses {
            #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true, "\(response.status) \(response.headers)")
        }
    }

    @Test(arguments: [("/v3/cashout", Set(["POST"])), ("/v3/cashout/status", Set(["POST", "PUT"])),
                      ("/v3/cashout/cancel", Set(["DELETE"]))])
    func getAndHeadOnSignedEndpointsAre405WithAllow(_ path: String, allowed: Set<String>) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        for method in ["GET", "HEAD"] {
            let response = try TestHTTP.send(method: method, url: sandbox.base + path)
            #expect(response.status == 405, "\(method) \(path): \(response.status) \(response.bodyText)")
            let allow = try #require(response.headers["Allow"], "\(method) \(path) has no Allow header")
            let methods = Set(allow.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(methods == allowed, "\(method) \(path): Allow \(allow)")
        }
    }
}
