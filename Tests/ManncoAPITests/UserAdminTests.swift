@testable import CashoutSandbox
import Foundation
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing
@testable import SandboxBank
@testable import SandboxMannco

/// Users in the admin API (`GET /sandbox/users`, `PUT /sandbox/users/{id}`), users in scenario
/// files, and a restart from the journal keeping users, links, cooldowns and cashouts.
@Suite struct UserAdminTests {
    @Test func theDefaultUserIsThereWithoutAScenario() throws {
        let sandbox = try Sandbox.launch(Sandbox.Configuration())
        defer { sandbox.stop() }
        let response = try sandbox.call("GET", "/sandbox/users")
        #expect(response.bodyText == #"{"users":[{"api_key":"sandbox_mannco_key","balance":1000000,"email":"user@example.com","#
                                     + #""id":"76561198000000001","linked":["payoneer","tipalti"],"tipalti_payee_id":null,"verified":true}]}"#)
    }

    @Test func putCreatesAUserAndChangesOnlyTheFieldsGiven() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let created = try sandbox.call("PUT", "/sandbox/users/42", body: #"{"api_key":"k42","balance":7000,"linked":["tipalti"]}"#)
        #expect(created.status == 201)
        #expect(created.bodyText == #"{"api_key":"k42","balance":7000,"email":"user-42@example.com","id":"42","linked":["tipalti"],"#
                                    + #""tipalti_payee_id":null,"verified":true}"#)
        let token = try sandbox.login("k42")
        expectError(try sandbox.process(token, #"{"amount":5000,"method":"payoneer"}"#), 300, "Payment method not linked")
        let changed = try sandbox.call("PUT", "/sandbox/users/42", body: #"{"verified":false,"email":"new@example.com"}"#)
        #expect(changed.status == 200)
        #expect(try JSON.parse(changed.body)["balance"] == 7000 && JSON.parse(changed.body)["email"] == "new@example.com")
        expectError(try sandbox.process(token, #"{"amount":5000,"method":"tipalti"}"#), 300, "Account verification required")
        try sandbox.admin("PUT", "/sandbox/users/42", #"{"verified":true,"balance":100}"#)
        expectError(try sandbox.process(token, #"{"amount":5000,"method":"tipalti"}"#), 300, "Insufficient balance")
        #expect(try sandbox.admin("GET", "/sandbox/users")["users"]?.arrayValue?.map { $0["id"] } == [.string(DefaultUser.id), "42"])
    }

    @Test(arguments: [
        ("/sandbox/users/new", #"{"balance":5}"#, 400, "a new user needs \"api_key\""),
        ("/sandbox/users/new", #"{"api_key":"k","balance":-1}"#, 400, "balance: expected a whole number of cents, such as 100000"),
        ("/sandbox/users/new", #"{"api_key":"k","balance":"5"}"#, 400, "balance: expected a whole number of cents, such as 100000"),
        ("/sandbox/users/new", #"{"api_key":"k","linked":["venmo"]}"#, 400, "linked: venmo is not payoneer, tipalti or paypal"),
        ("/sandbox/users/new", #"{"api_key":"k","verified":"yes"}"#, 400, "verified: expected true or false"),
        ("/sandbox/users/new", #"{"api_key":"k","colour":"red"}"#, 400, "colour: unknown field"),
        ("/sandbox/users/new", #"{"api_key":""}"#, 400, "api_key: expected a non-empty string"),
        ("/sandbox/users/new", "[]", 400, "the body must be a JSON object"),
        ("/sandbox/users/new", #"{"id":"other","api_key":"k"}"#, 400, "id: expected the path's id, new, or none"),
        ("/sandbox/users/new", #"{"api_key":"sandbox_mannco_key"}"#, 409, "api_key: already the key of user 76561198000000001"),
    ])
    func putErrors(path: String, body: String, status: Int, message: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let response = try sandbox.call("PUT", path, body: body)
        #expect(response.status == status)
        #expect(response.bodyText == JSON.object(["code": .number(status), "message": .string(message)]).serializedString())
        #expect(try sandbox.admin("GET", "/sandbox/users")["users"]?.arrayValue?.count == 1)
    }

    @Test func aD24MerchantIsNotAUser() throws {
        let sandbox = try Sandbox.launch(Sandbox.Configuration())
        defer { sandbox.stop() }
        let response = try sandbox.call("PUT", "/sandbox/users/sandbox_login", body: #"{"api_key":"k"}"#)
        #expect(response.status == 400 && response.bodyText.contains("sandbox_login is an account of d24"))
        #expect(try sandbox.admin("GET", "/sandbox/merchants")["merchants"]?.arrayValue?.count == 1)  // the user is no merchant
    }

    @Test func scenarioUsersAreReadWithTheirDefaults() throws {
        let scenario = #"{"users": [{"id": "7", "api_key": "k7", "balance": 12345, "verified": false, "linked": ["paypal"], "email": "#
                       + #""seven@example.com"}, {"id": "8", "api_key": "k8"}]}"#
        let sandbox = try startSandbox(users: [], scenario: scenario)
        defer { sandbox.stop() }
        let users = try sandbox.call("GET", "/sandbox/users").bodyText
        #expect(users == #"{"users":[{"api_key":"k7","balance":12345,"email":"seven@example.com","id":"7","linked":["paypal"],"#
                         + #""tipalti_payee_id":null,"verified":false},{"api_key":"k8","balance":0,"email":"user-8@example.com","id":"8","#
                         + #""linked":[],"tipalti_payee_id":null,"verified":true}]}"#)
    }

    /// Users, a link made through the link page, a pending cashout, the cooldown and the emails
    /// all come back after a restart from `--state-dir`.
    @Test func aRestartFromTheJournalKeepsUsersLinksCooldownsAndCashouts() throws {
        let folder = NSTemporaryDirectory() + "mannco-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try startSandbox(users: [user(linked: [])], stateDirectory: folder)
        try first.admin("PUT", "/sandbox/users/42", #"{"api_key":"k42","balance":50000,"linked":["tipalti"]}"#)
        let token = try first.login()
        let link = try first.call("POST", "/cashout/link", token: token, body: #"{"provider":"payoneer"}"#)
        let url = try #require(JSON.parse(link.body)["content"]?["link"]?.stringValue)
        #expect(try TestHTTP.send(method: "GET", url: url).status == 200)
        let done = try first.processOK(token, amount: 10_000)
        try first.advance("1h")  // completed: only the cooldown holds now
        let pending = try first.processOK(try first.login("k42"), amount: 6_000, method: "tipalti", email: "never@example.com")
        let port = first.addresses[0].port
        first.stop()

        let second = try startSandbox(users: [user(linked: [])], stateDirectory: folder, port: port)
        defer { second.stop() }
        #expect(second.bank.payout(id: done)?.status == .completed)
        #expect(second.bank.payout(id: pending)?.status == .pending)
        let users = try second.admin("GET", "/sandbox/users")["users"]?.arrayValue ?? []
        #expect(users.map { $0["linked"] } == [["payoneer"], ["tipalti"]])
        #expect(users.map { $0["balance"] } == [990000, 44000])
        // The token of before still works: the secret is the sandbox's, not the run's.
        expectError(try second.process(token, #"{"amount":5000,"method":"payoneer"}"#), 300, "Cooldown period")
        expectError(try second.process(try second.login("k42"), #"{"amount":5000,"method":"tipalti"}"#), 300, "Pending cashout exists")
        #expect(try second.admin("GET", "/sandbox/emails")["emails"]?.arrayValue?.count == 4)
        try second.advance("23h")
        #expect(try second.processOK(token, amount: 5_000) == pending + 1)
    }

    /// A snapshot carries users, their links and cashouts (and so the emails and the cooldown)
    /// into another sandbox.
    @Test func aSnapshotCarriesUsersAndTheirCashouts() throws {
        let first = try startSandbox(users: [user(linked: [.tipalti])])
        defer { first.stop() }
        let id = try first.processOK(try first.login(), amount: 8_000, method: "tipalti", email: "late-fail@example.com")
        try first.advance("1m")
        let saved = try first.call("GET", "/sandbox/snapshot")
        #expect(saved.status == 200)
        let second = try startSandbox(users: [])
        defer { second.stop() }
        let restored = try TestHTTP.send(method: "PUT", url: "\(second.base)/sandbox/snapshot", body: saved.body)
        #expect(restored.status == 200, "\(restored.bodyText)")
        #expect(try second.call("GET", "/sandbox/users").bodyText == (try first.call("GET", "/sandbox/users").bodyText))
        #expect(try second.call("GET", "/sandbox/emails").bodyText == (try first.call("GET", "/sandbox/emails").bodyText))
        let token = try second.login()
        expectError(try second.process(token, #"{"amount":5000,"method":"tipalti"}"#), 300, "Cooldown period")
        try second.advance("2d")  // the late failure scheduled before the snapshot still comes
        #expect(second.bank.payout(id: id)?.status == .returned)
        #expect(try second.balance(token) == 1_000_000)
    }
}
