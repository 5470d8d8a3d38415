@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxD24
import Testing

/// Every refused D24 authentication keeps its exact answer and carries, in the request journal, the
/// check that failed and the likely cause.
@Suite struct DiagnosisTests {
    /// The newest journal entry's diagnosis.
    private func diagnosis(_ sandbox: Sandbox) -> JSON? {
        sandbox.requests(limit: 1).first?["diagnosis"]
    }

    private let statusBody = #"{"login":"sandbox_login","pass":"sandbox_pass","cashout_id":999999}"#

    @Test func anUnknownLoginNamesTheMerchants() throws {
        let sandbox = try startSandbox(merchants: [D24Merchant.sandboxDefault, otherMerchant])
        defer { sandbox.stop() }
        expectError(try sandbox.status(#"{"login":"nobody","pass":"sandbox_pass"}"#), 401, invalidCredentials)
        #expect(diagnosis(sandbox) == [
            "check": "unknown_login", "login": "nobody", "merchants": ["sandbox_login", "other_login"],
            "message": .string("login \"nobody\" is not a merchant of this sandbox: its D24 merchants are sandbox_login, other_login (GET "
                               + "/sandbox/merchants lists them)"),
        ])
    }

    @Test func aLoginOfAnotherAPIsAccountSaysWhose() throws {
        let user = Account(id: "76561198000000001", dialect: "mannco", balance: .zero)
        let sandbox = try startSandbox(merchants: [D24Merchant.sandboxDefault, user])
        defer { sandbox.stop() }
        expectError(try sandbox.status(#"{"login":"76561198000000001","pass":"sandbox_pass"}"#), 401, invalidCredentials)
        #expect(diagnosis(sandbox) == ["check": "unknown_login", "login": "76561198000000001", "merchants": ["sandbox_login"],
                                       "message": "login \"76561198000000001\" is an account of the mannco API, not a D24 merchant"])
    }

    @Test func missingCredentialsSayWhichAndWhere() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.status(#"{"pass":"sandbox_pass"}"#), 401, invalidCredentials)
        #expect(diagnosis(sandbox) == ["check": "missing_credentials", "field": "login", "message": """
            The body has no "login": D24 takes the API key as "login" and the passphrase as "pass", strings in the JSON body (no header)
            """])
        expectError(try sandbox.status(#"{"login":"sandbox_login","pass":12}"#), 401, invalidCredentials)
        #expect(diagnosis(sandbox)?["field"] == "pass")
        #expect(diagnosis(sandbox)?["message"]?.stringValue?.hasPrefix(#"The body has a "pass" that is not a JSON string"#) == true)
    }

    @Test func aWrongPassShowsBoth() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.status(#"{"login":"sandbox_login","pass":"sandbox_secret"}"#), 401, invalidCredentials)
        #expect(diagnosis(sandbox) == [
            "check": "wrong_pass", "login": "sandbox_login", "expected_pass": "sandbox_pass", "received_pass": "sandbox_secret",
            "message": "pass does not match merchant sandbox_login's passphrase \"sandbox_pass\": the secret (API signature) was sent as pass",
        ])
    }

    @Test func aMissingSignatureShowsTheOneExpected() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.status(statusBody, signature: .missing), 302, invalidControlString)
        #expect(diagnosis(sandbox) == [
            "check": "signature_missing", "login": "sandbox_login", "expected_signature": .string(sign(statusBody)), "secret": "sandbox_secret",
            "message": .string("No Payload-Signature header: send the lowercase hex HMAC-SHA256 of the exact body bytes, keyed with merchant "
                               + "sandbox_login's secret \"sandbox_secret\""),
        ])
    }

    /// Sends `sent` signed with `signature` and checks the mismatch's likely cause and message ending.
    private func expectMismatch(_ sandbox: Sandbox, body sent: String, signature: String, cause: String, endsWith ending: String,
                                secret: String = Default.secret, extra: [String: JSON] = [:],
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        expectError(try sandbox.status(sent, signature: .literal(signature)), 302, invalidControlString, sourceLocation: sourceLocation)
        var expected: [String: JSON] = ["check": "signature_mismatch", "login": "sandbox_login", "secret": .string(secret),
                                        "expected_signature": .string(sign(sent, secret: secret)),
                                        "received_signature": .string(signature), "likely_cause": .string(cause),
                                        "message": .string("Payload-Signature does not match the HMAC-SHA256 of the body with merchant "
                                                           + "sandbox_login's secret: " + ending)]
        expected.merge(extra) { $1 }
        #expect(diagnosis(sandbox) == .object(expected), sourceLocation: sourceLocation)
    }

    @Test func uppercaseHexAndBase64AreTheRightHMACSpelledWrong() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        try expectMismatch(sandbox, body: statusBody, signature: sign(statusBody).uppercased(), cause: "uppercase_hex",
                           endsWith: "it is the right HMAC in uppercase hex; D24 wants lowercase")
        let hex = Array(sign(statusBody).utf8)
        let code = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0 ..< $0 + 2], as: UTF8.self), radix: 16)! }
        try expectMismatch(sandbox, body: statusBody, signature: Data(code).base64EncodedString().lowercased(), cause: "base64",
                           endsWith: "it is the right HMAC in base64; D24 wants it as 64 lowercase hex digits")
    }

    @Test func aSecretChangedByTheAdminAPIIsNamedStale() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        try sandbox.admin("PUT", "/sandbox/merchants/sandbox_login", #"{"secret":"new_secret"}"#)
        try expectMismatch(sandbox, body: statusBody, signature: sign(statusBody, secret: "sandbox_secret"), cause: "stale_secret",
                           endsWith: "it was made with the merchant's previous secret \"sandbox_secret\"; the secret is now \"new_secret\"",
                           secret: "new_secret", extra: ["previous_secret": "sandbox_secret"])
        // The merchants' admin view is unchanged by it.
        #expect(try sandbox.admin("GET", "/sandbox/merchants")["merchants"]?[0]?["previous_secret"] == nil)
    }

    @Test func anotherMerchantsSecretIsNamed() throws {
        let sandbox = try startSandbox(merchants: [D24Merchant.sandboxDefault, otherMerchant])
        defer { sandbox.stop() }
        try expectMismatch(sandbox, body: statusBody, signature: sign(statusBody, secret: "other_secret"), cause: "other_merchant",
                           endsWith: "it was made with merchant other_login's secret \"other_secret\"", extra: ["signed_with": "other_login"])
    }

    /// D24 hands out four credentials; signing with another than the secret is named.
    @Test(arguments: [("sandbox_pass", "pass (passphrase)"), ("sandbox_login", "login (API key)"), ("sandbox_read_only", "read-only key")])
    func anotherCredentialOfTheMerchantIsNamed(key: String, name: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        try expectMismatch(sandbox, body: statusBody, signature: sign(statusBody, secret: key), cause: "other_credential",
                           endsWith: "it was made with the merchant's \(name) \"\(key)\" as the key; the key is its secret (API signature) "
                                     + "\"sandbox_secret\"")
    }

    @Test(arguments: [
        // Sent with spaces (Python's json.dumps), signed compact.
        (#"{"login": "sandbox_login", "pass": "sandbox_pass", "cashout_id": 999999}"#,
         #"{"login":"sandbox_login","pass":"sandbox_pass","cashout_id":999999}"#,
         "keys in the order sent, no spaces"),
        // Sent compact, signed with the keys sorted.
        (#"{"pass":"sandbox_pass","login":"sandbox_login","cashout_id":999999}"#,
         #"{"cashout_id":999999,"login":"sandbox_login","pass":"sandbox_pass"}"#,
         "keys sorted, no spaces"),
        // Sent compact, signed pretty-printed.
        (#"{"login":"sandbox_login","pass":"sandbox_pass","ids":[1,2],"none":{}}"#,
         "{\n  \"login\": \"sandbox_login\",\n  \"pass\": \"sandbox_pass\",\n  \"ids\": [\n    1,\n    2\n  ],\n  \"none\": {}\n}",
         "keys in the order sent, indented by 2 spaces"),
        // Sent with a trailing newline (a file), signed without.
        ("{\"login\":\"sandbox_login\",\"pass\":\"sandbox_pass\",\"cashout_id\":999999}\n",
         #"{"login":"sandbox_login","pass":"sandbox_pass","cashout_id":999999}"#, "keys in the order sent, no spaces"),
    ])
    func aReserializedBodyShowsWhatWasSigned(sent: String, signed: String, variant: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        try expectMismatch(sandbox, body: sent, signature: sign(signed), cause: "reserialized_body",
                           endsWith: "it signs the same JSON serialized otherwise (\(variant)), not the bytes sent: sign the exact string you send",
                           extra: ["signed_body": .string(signed)])
    }

    @Test func anythingElseIsADifferentBodyOrNotASignature() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        try expectMismatch(sandbox, body: statusBody, signature: sign(#"{"cashout_id":1}"#), cause: "different_body",
                           endsWith: "it is a signature over other bytes, or with another secret: sign the exact body sent with \"sandbox_secret\"")
        try expectMismatch(sandbox, body: statusBody, signature: "sha256=" + sign(statusBody), cause: "not_a_signature",
                           endsWith: "it is not 64 hex digits (71 characters received)")
    }

    @Test func anAddressOffTheAllowListIsShownWithTheList() throws {
        let sandbox = try startSandbox(merchants: [merchant(allowedIPs: ["10.9.9.9"])])
        defer { sandbox.stop() }
        expectError(try sandbox.status(statusBody), 402, unregisteredIP)
        #expect(diagnosis(sandbox) == [
            "check": "ip_not_allowed", "login": "sandbox_login", "address": "127.0.0.1", "allowed_ips": ["10.9.9.9"],
            "message": .string("The request came from 127.0.0.1, which is not on merchant sandbox_login's allow-list (10.9.9.9): add it with PUT "
                               + "/sandbox/merchants/sandbox_login {\"allowed_ips\": [...]}"),
        ])
    }

    @Test(arguments: [
        (nil, "authorization_missing",
         #"No Authorization header: send "Authorization: Bearer <read-only key>" (sandbox_login's is sandbox_read_only)"#),
        ("Basic c2FuZGJveA==", "authorization_scheme",
         #"Authorization must be "Bearer <read-only key>" (the word Bearer, one space, the key), not "Basic c2FuZGJveA==" (sandbox_login's is "#
         + #"sandbox_read_only)"#),
        ("bearer sandbox_read_only", "authorization_scheme",
         #"Authorization must be "Bearer <read-only key>" (the word Bearer, one space, the key), not "bearer sandbox_read_only" (sandbox_login's "#
         + #"is sandbox_read_only)"#),
        ("Bearer sandbox_login", "unknown_read_only_key",
         #""sandbox_login" is merchant sandbox_login's login (API key), not its read-only key "sandbox_read_only""#),
        ("Bearer nope", "unknown_read_only_key", #""nope" is no merchant's read-only key (sandbox_login's is sandbox_read_only)"#),
    ] as [(String?, String, String)])
    func theReadOnlyKeyIsDiagnosedToo(authorization: String?, check: String, message: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let response = try sandbox.get("/v3/banks?country=BR", authorization: authorization)
        #expect(response.status == 401 && response.bodyText == #"{"code":100,"description":"Invalid credentials"}"#)
        let found = try #require(diagnosis(sandbox))
        #expect(found["check"] == .string(check))
        #expect(found["message"] == .string(message))
        #expect(found["read_only_keys"] == ["sandbox_login": "sandbox_read_only"])
    }

    @Test func anAcceptedRequestHasNoDiagnosis() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.status(statusBody), 509, "Cashout not found with this ID")
        #expect(diagnosis(sandbox) == .null)
    }
}
