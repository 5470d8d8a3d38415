@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxMannco
@testable import SandboxContract
import TestHelpers
import Testing
import FoundationEssentials

// Shared helpers for the Mannco API tests: every test starts its own sandbox (manual clock at
// Monday 2026-01-05T09:00:00Z, port 0) and talks to it over real HTTP, as a user's client does.

/// The default user (the Mannco guide, "The default user").
enum DefaultUser {
    static let id = "76561198000000001"
    static let apiKey = "sandbox_mannco_key"
}

/// 2026-01-05T09:00:00Z in unix seconds: the clock's start.
let startSeconds: Int64 = 1_767_603_600

/// A user account for a test's sandbox.
func user(_ id: String = DefaultUser.id, apiKey: String = DefaultUser.apiKey, cents: Int64 = 1_000_000, verified: Bool = true,
          linked: [ManncoProvider] = [.payoneer, .tipalti], email: String? = "user@example.com") -> Account {
    ManncoUser.account(id: id, apiKey: apiKey, balanceCents: cents, verified: verified, linked: linked, email: email)
}

/// Starts a sandbox on a manual clock with `users` as its only accounts; the caller must `stop()` it.
func startSandbox(users: [Account] = [user()], scenario: String? = nil, stateDirectory: String? = nil,
                  port: Int = 0) throws -> Sandbox {
    var configuration = Sandbox.Configuration()
    configuration.clockMode = .manual
    configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
    configuration.accounts = users
    configuration.stateDirectory = stateDirectory
    configuration.server.port = port
    if let scenario {
        configuration.scenarios = [try ScenarioLoader.load(Array(scenario.utf8), file: "test.json", vocabulary: configuration.scenarioVocabulary)]
    }
    return try Sandbox.launch(configuration)
}

/// `{"err":true,"success":false,"content":"<message>"}`.
func errorBody(_ message: String) -> String {
    #"{"err":true,"success":false,"content":\#(JSON.string(message).serializedString())}"#
}

/// Checks a Mannco error: its HTTP status and exact body.
func expectError(_ response: HTTPResponse, _ status: Int, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.status == status, "body: \(response.bodyText)", sourceLocation: sourceLocation)
    #expect(response.bodyText == errorBody(message), sourceLocation: sourceLocation)
}

extension Sandbox {
    var base: String { baseURL.absoluteString }

    /// A request with a body written byte for byte.
    func call(_ method: String, _ path: String, token: String? = nil, body: String = "",
              contentType: String? = "application/json") throws -> HTTPResponse {
        var headers = HTTPHeaders()
        if let contentType, !body.isEmpty { headers.add("Content-Type", contentType) }
        if let token { headers.add("Authorization", "Bearer \(token)") }
        return try TestHTTP.send(method: method, url: base + path, headers: headers, body: Array(body.utf8))
    }

    /// Logs in and returns the JWT (the login must succeed).
    func login(_ apiKey: String = DefaultUser.apiKey, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let response = try call("POST", "/user/login", body: #"{"apiKey":"\#(apiKey)"}"#)
        try #require(response.status == 200, "login: \(response.status) \(response.bodyText)", sourceLocation: sourceLocation)
        return try #require(JSON.parse(response.body)["content"]?["jwt"]?.stringValue, sourceLocation: sourceLocation)
    }

    /// `POST /cashout/process` with a JSON body.
    func process(_ token: String, _ body: String) throws -> HTTPResponse {
        try call("POST", "/cashout/process", token: token, body: body)
    }

    /// A cashout that must be accepted: its id.
    func processOK(_ token: String, amount: Int64 = 100_000, method: String = "payoneer", email: String? = nil,
                   sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let emailField = email.map { #","email":"\#($0)""# } ?? ""
        let response = try process(token, #"{"amount":\#(amount),"method":"\#(method)"\#(emailField)}"#)
        try #require(response.status == 200, "process: \(response.status) \(response.bodyText)", sourceLocation: sourceLocation)
        return try #require(JSON.parse(response.body)["content"]?["cashoutId"]?.numberText.flatMap { Int($0) }, sourceLocation: sourceLocation)
    }

    /// An admin API call; requires a 2xx answer.
    @discardableResult
    func admin(_ method: String, _ path: String, _ body: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws -> JSON {
        let response = try call(method, path, body: body)
        try #require((200 ..< 300).contains(response.status), "admin \(method) \(path): \(response.status) \(response.bodyText)",
                     sourceLocation: sourceLocation)
        return try JSON.parse(response.body)
    }

    /// Advances the virtual clock through the admin API, e.g. `"5s"`.
    func advance(_ by: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try admin("POST", "/sandbox/clock/advance", #"{"by":"\#(by)"}"#, sourceLocation: sourceLocation)
    }

    /// The user's balance as `GET /user/balance` answers it.
    func balance(_ token: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64? {
        let response = try call("GET", "/user/balance", token: token)
        try #require(response.status == 200, sourceLocation: sourceLocation)
        return try JSON.parse(response.body)["content"]?["balance"]?.numberText.flatMap { Int64($0) }
    }
}
