@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxD24
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing
import FoundationEssentials

// Shared helpers for the D24 Cashouts v3 API tests: every test starts its own sandbox (manual
// clock at 2026-01-05T09:00:00Z, port 0) and talks to it over real HTTP.

/// The sandbox's default merchant credentials (DESIGN / contract).
enum Default {
    static let login = "sandbox_login"
    static let pass = "sandbox_pass"
    static let secret = "sandbox_secret"
    static let readOnlyKey = "sandbox_read_only"
}

/// A second merchant, used to check isolation between merchants.
let otherMerchant = D24Merchant.account(login: "other_login", pass: "other_pass", secret: "other_secret",
                             readOnlyKey: "other_read_only", balance: Money("5000.00")!)

/// A merchant like the default one with a given balance, limits, minimums or IP allow-list.
func merchant(login: String = Default.login, pass: String = Default.pass, secret: String = Default.secret,
              readOnlyKey: String = Default.readOnlyKey, balance: String = "1000000.00",
              limits: Account.Limits = Account.Limits(), minimumAmounts: [String: Money] = [:],
              allowedIPs: [String] = []) -> Account {
    D24Merchant.account(login: login, pass: pass, secret: secret, readOnlyKey: readOnlyKey, currency: "USD",
             balance: Money(balance)!, limits: limits, minimumAmounts: minimumAmounts, allowedIPs: allowedIPs)
}

/// Starts a sandbox on a manual clock; the caller must `stop()` it.
func startSandbox(merchants: [Account] = [D24Merchant.sandboxDefault]) throws -> Sandbox {
    var configuration = Sandbox.Configuration()
    configuration.clockMode = .manual
    configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
    configuration.accounts = merchants
    return try Sandbox.launch(configuration)
}

/// Lowercase hex HMAC-SHA256 of the exact body bytes.
func sign(_ body: String, secret: String = Default.secret) -> String {
    D24Signing.payloadSignature(body, secret: secret)
}

/// How to fill the `Payload-Signature` header.
enum Signature {
    /// The correct lowercase HMAC with the given secret.
    case valid(secret: String = Default.secret)
    /// The correct HMAC in uppercase hex.
    case uppercase
    /// No header at all.
    case missing
    /// Exactly this header value.
    case literal(String)

    static var `default`: Signature { .valid() }
}

/// The error body the D24 API sends: `{"code":N,"message":"..."}`.
func errorJSON(_ code: Int, _ message: String) -> String {
    JSON.object(["code": .number(code), "message": .string(message)]).serializedString()
}

/// The HTTP status the contract assigns to a D24 error code.
func httpStatus(forCode code: Int) -> Int {
    switch code {
    case 401, 402, 302: 401
    case 502: 400
    default: 412
    }
}

/// A status-endpoint body, keys sorted.
func statusJSON(_ code: Int, _ description: String, rejectionCode: Int? = nil, rejectionReason: String? = nil,
                bankReference: String? = nil) -> String {
    var object: [String: JSON] = ["cashout_status": .number(code), "cashout_status_description": .string(description)]
    if let rejectionCode { object["rejection_code"] = .number(rejectionCode) }
    if let rejectionReason { object["rejection_reason"] = .string(rejectionReason) }
    if let bankReference { object["bank_reference_id"] = .string(bankReference) }
    return JSON.object(object).serializedString()
}

let pendingJSON = statusJSON(0, "Pending")
let completedJSON = statusJSON(1, "Completed")
let canceledJSON = statusJSON(2, "Canceled")
let deliveredJSON = statusJSON(4, "Delivered")
let onHoldJSON = statusJSON(5, "On Hold")

/// Checks a D24 error answer: HTTP status per the contract and the exact body.
func expectError(_ response: HTTPResponse, _ code: Int, _ message: String,
                 sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.status == httpStatus(forCode: code), "HTTP status for code \(code); body: \(response.bodyText)",
            sourceLocation: sourceLocation)
    #expect(response.bodyText == errorJSON(code, message), sourceLocation: sourceLocation)
}

/// Checks a 200 answer with an exact body.
func expectOK(_ response: HTTPResponse, _ body: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.status == 200, "body: \(response.bodyText)", sourceLocation: sourceLocation)
    #expect(response.bodyText == body, sourceLocation: sourceLocation)
}

/// A valid Brazilian create body (the example of D24's "Create a cashout" reference page), with overridable parts.
func createBody(externalID: String = "o-1", amount: String = "100", currency: String = "BRL",
                login: String = Default.login, pass: String = Default.pass, extra: String = "") -> String {
    #"{"login":"\#(login)","pass":"\#(pass)","external_id":"\#(externalID)","country":"BR","currency":"\#(currency)","amount":\#(amount),"#
    + #""document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","bank_code":"001","#
    + #""bank_account":"3423422-7","bank_branch":"1234","account_type":"C"\#(extra)}"#
}

/// A credentials prefix for bodies written by hand.
func credentials(login: String = Default.login, pass: String = Default.pass) -> String {
    #""login":"\#(login)","pass":"\#(pass)""#
}

extension Sandbox {
    var base: String { baseURL.absoluteString }

    /// Sends a request to a signed D24 endpoint with a body written byte for byte.
    func signed(_ method: String, _ path: String, _ body: String, signature: Signature = .default,
                headers extra: [(String, String)] = []) throws -> HTTPResponse {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        switch signature {
        case .valid(let secret): headers.add("Payload-Signature", sign(body, secret: secret))
        case .uppercase: headers.add("Payload-Signature", sign(body).uppercased())
        case .missing: break
        case .literal(let value): headers.add("Payload-Signature", value)
        }
        for (name, value) in extra { headers.add(name, value) }
        return try TestHTTP.send(method: method, url: base + path, headers: headers, body: Array(body.utf8))
    }

    func create(_ body: String, signature: Signature = .default) throws -> HTTPResponse {
        try signed("POST", "/v3/cashout", body, signature: signature)
    }

    func status(_ body: String, signature: Signature = .default) throws -> HTTPResponse {
        try signed("POST", "/v3/cashout/status", body, signature: signature)
    }

    func updateStatus(_ body: String, signature: Signature = .default) throws -> HTTPResponse {
        try signed("PUT", "/v3/cashout/status", body, signature: signature)
    }

    func cancel(_ body: String, signature: Signature = .default) throws -> HTTPResponse {
        try signed("DELETE", "/v3/cashout/cancel", body, signature: signature)
    }

    /// Creates a cashout that must succeed and returns its id (a JSON string in the answer).
    func createOK(externalID: String, amount: String = "100", currency: String = "BRL", extra: String = "",
                  login: String = Default.login, pass: String = Default.pass, secret: String = Default.secret,
                  sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let response = try create(createBody(externalID: externalID, amount: amount, currency: currency,
                                             login: login, pass: pass, extra: extra),
                                  signature: .valid(secret: secret))
        try #require(response.status == 200, "create failed: \(response.status) \(response.bodyText)",
                     sourceLocation: sourceLocation)
        let json = try JSON.parse(response.body)
        return try #require(json["cashout_id"]?.stringValue, "cashout_id as a string: \(response.bodyText)",
                            sourceLocation: sourceLocation)
    }

    /// The status of a cashout, asked by numeric cashout_id.
    func statusOf(_ id: String, login: String = Default.login, pass: String = Default.pass,
                  secret: String = Default.secret) throws -> HTTPResponse {
        try signed("POST", "/v3/cashout/status", #"{\#(credentials(login: login, pass: pass)),"cashout_id":\#(id)}"#,
                   signature: .valid(secret: secret))
    }

    /// GET with an optional `Authorization` header value.
    func get(_ pathAndQuery: String, authorization: String? = "Bearer \(Default.readOnlyKey)") throws -> HTTPResponse {
        var headers: HTTPHeaders = [:]
        if let authorization { headers.add("Authorization", authorization) }
        return try TestHTTP.send(method: "GET", url: base + pathAndQuery, headers: headers)
    }

    /// An admin API call with a JSON body; requires a 2xx answer.
    @discardableResult
    func admin(_ method: String, _ path: String, _ body: String = "",
               sourceLocation: SourceLocation = #_sourceLocation) throws -> JSON {
        let response = try TestHTTP.send(method: method, url: base + path,
                                         headers: body.isEmpty ? [:] : ["Content-Type": "application/json"],
                                         body: Array(body.utf8))
        try #require((200 ..< 300).contains(response.status), "admin \(method) \(path): \(response.status) \(response.bodyText)",
                     sourceLocation: sourceLocation)
        return try JSON.parse(response.body)
    }

    /// Forces an outcome through the admin API (`deliver`, `complete`, `reject`, ...).
    func force(_ id: String, _ actionBody: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try admin("POST", "/sandbox/cashouts/\(id)/actions", actionBody, sourceLocation: sourceLocation)
    }

    /// Advances the virtual clock through the admin API, e.g. `"5s"`.
    func advance(_ by: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try admin("POST", "/sandbox/clock/advance", #"{"by":"\#(by)"}"#, sourceLocation: sourceLocation)
    }

    /// A merchant's balance text as `GET /sandbox/merchants` shows it.
    func balance(of login: String = Default.login, sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        let json = try admin("GET", "/sandbox/merchants", sourceLocation: sourceLocation)
        let merchants = try #require(json["merchants"]?.arrayValue, sourceLocation: sourceLocation)
        return merchants.first { $0["login"]?.stringValue == login }?["balance"]?.stringValue
    }
}
