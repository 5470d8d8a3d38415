@testable import CashoutSandbox
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing
import Foundation
import FoundationEssentials
@testable import SandboxBank

/// Every API's accounts in one admin resource, `/sandbox/accounts/{dialect}/{id}`, over HTTP to a
/// started sandbox: it shows and takes each API's accounts as that API's older path does, which
/// still answers the same.
@Suite struct AccountsResourceTests {
    /// Each API, its older path, and a body that creates one of its accounts.
    static let apis = [
        ("d24", "/sandbox/merchants", "merchants", #"{"pass":"p","secret":"s","balance":"10.00"}"#),
        ("mannco", "/sandbox/users", "users", #"{"api_key":"KEY","balance":700}"#),
        ("prism", "/sandbox/prism-merchants", "merchants", #"{"api_key":"KEY","balance":"10.00"}"#),
    ]

    private func call(_ sandbox: Sandbox, _ method: String, _ path: String, _ body: String = "") throws -> HTTPResponse {
        try TestHTTP.send(method: method, url: sandbox.baseURL.absoluteString + path, body: Array(body.utf8))
    }

    private func json(_ response: HTTPResponse) throws -> JSON { try JSON.parse(response.body) }

    @Test(arguments: apis)
    func listsAndShowsAnAPIsAccountsAsItsOlderPathDoes(dialect: String, legacyPath: String, member: String, body: String) throws {
        let sandbox = try Sandbox.launch(Sandbox.Configuration())
        defer { sandbox.stop() }
        let older = try json(call(sandbox, "GET", legacyPath))[member]
        let list = try call(sandbox, "GET", "/sandbox/accounts/\(dialect)")
        #expect(list.status == 200)
        #expect(try json(list)["accounts"] == older)
        #expect(try json(call(sandbox, "GET", "/sandbox/accounts"))["accounts"]?[dialect] == older)
        let id = try #require(sandbox.bank.accounts.first { $0.dialect == dialect }?.id)
        let one = try call(sandbox, "GET", "/sandbox/accounts/\(dialect)/\(id)")
        #expect(one.status == 200)
        #expect(try json(one) == older?[0])
    }

    @Test(arguments: apis)
    func putCreatesAndChangesAnAccountAsTheOlderPathDoes(dialect: String, legacyPath: String, member: String, body: String) throws {
        let sandbox = try Sandbox.launch(Sandbox.Configuration())
        defer { sandbox.stop() }
        let created = try call(sandbox, "PUT", "/sandbox/accounts/\(dialect)/new1", body.replacingOccurrences(of: "KEY", with: "k1"))
        let older = try call(sandbox, "PUT", "\(legacyPath)/new2", body.replacingOccurrences(of: "KEY", with: "k2"))
        #expect(created.status == 201 && older.status == 201)
        #expect(created.bodyText.replacingOccurrences(of: "1", with: "2") == older.bodyText.replacingOccurrences(of: "1", with: "2"))
        let changed = try call(sandbox, "PUT", "/sandbox/accounts/\(dialect)/new2", #"{"balance":"20.00"}"#)
        let expected = dialect == "mannco" ? 400 : 200  // Mannco's balance is whole cents
        #expect(changed.status == expected)
        let ids = try json(call(sandbox, "GET", legacyPath))[member]?.arrayValue?.compactMap { $0["login"] ?? $0["id"] ?? $0["merchant_id"] }
        #expect(ids?.suffix(2) == ["new1", "new2"])
    }

    @Test func errorsNameWhatIsWrongInTheAdminAPIsFormat() throws {
        let sandbox = try Sandbox.launch(Sandbox.Configuration())
        defer { sandbox.stop() }
        let cases: [(String, String, String, Int, String)] = [
            ("GET", "/sandbox/accounts/paypal", "", 404, "no API paypal with accounts; this sandbox serves d24, mannco, prism"),
            ("GET", "/sandbox/accounts/paypal/x", "", 404, "no API paypal with accounts; this sandbox serves d24, mannco, prism"),
            ("PUT", "/sandbox/accounts/paypal/x", "{}", 404, "no API paypal with accounts; this sandbox serves d24, mannco, prism"),
            ("GET", "/sandbox/accounts/d24/nobody", "", 404, "no d24 account nobody"),
            ("GET", "/sandbox/accounts/prism/sandbox_login", "", 404, "no prism account sandbox_login"),  // D24's, not PayoutService's
            ("PUT", "/sandbox/accounts/prism/sandbox_login", #"{"api_key":"k"}"#, 400, "sandbox_login is an account of d24"),
            ("PUT", "/sandbox/accounts/d24/" + String(repeating: "x", count: 33), "{}", 400, "login: 1 to 32 characters"),
            ("PUT", "/sandbox/accounts/mannco/u", "[]", 400, "the body must be a JSON object"),
            ("PUT", "/sandbox/accounts/mannco/u", #"{"id":"v","api_key":"k"}"#, 400, "id: expected the path's id, u, or none"),
            ("PUT", "/sandbox/accounts/mannco/u", #"{"api_key":"sandbox_mannco_key"}"#, 409, "api_key: already the key of user 76561198000000001"),
            ("PUT", "/sandbox/accounts/prism/p", #"{"balance":"1.00"}"#, 400, #"a new merchant needs "api_key""#),
            ("PUT", "/sandbox/accounts/d24/m", #"{"pass":"p"}"#, 400, #"a new merchant needs "pass" and "secret""#),
        ]
        for (method, path, body, status, message) in cases {
            let response = try call(sandbox, method, path, body)
            #expect(response.status == status, "\(method) \(path)")
            #expect(response.bodyText == JSON.object(["code": .number(status), "message": .string(message)]).serializedString())
        }
        #expect(sandbox.bank.accounts.count == 3)  // nothing was created
    }
}
