@testable import CashoutSandbox
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// `POST /cashout/link`, the link page, and `POST /cashout/unlink` (the Mannco guide, "Endpoints").
@Suite struct LinkTests {
    private func linked(_ sandbox: Sandbox, _ id: String = DefaultUser.id) throws -> [String] {
        let users = try sandbox.admin("GET", "/sandbox/users")["users"]?.arrayValue ?? []
        return users.first { $0["id"]?.stringValue == id }?["linked"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    @Test(arguments: ["payoneer", "paypal"])
    func payoneerAndPayPalLinkThroughASandboxPageThatCompletesTheLink(provider: String) throws {
        let sandbox = try startSandbox(users: [user(linked: [])])
        defer { sandbox.stop() }
        let token = try sandbox.login()
        let response = try sandbox.call("POST", "/cashout/link", token: token, body: #"{"provider":"\#(provider)"}"#)
        #expect(response.status == 200)
        let content = try #require(JSON.parse(response.body)["content"])
        #expect(content["message"] == "Cashout link created successfully" && content["provider"] == .string(provider) && content["method"] == "link")
        let url = try #require(content["link"]?.stringValue)
        #expect(url.hasPrefix("\(sandbox.base)/cashout/link/"))
        #expect(response.bodyText.hasPrefix(#"{"err":false,"success":true,"content":{"message":"Cashout link created successfully","link":""#))
        #expect(try linked(sandbox) == [])  // not before the page is opened
        let page = try TestHTTP.send(method: "GET", url: url)
        #expect(page.status == 200 && page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.bodyText.contains("is linked"))
        #expect(try linked(sandbox) == [provider])
        #expect(try TestHTTP.send(method: "GET", url: url).status == 200)  // opening it again changes nothing
        #expect(try linked(sandbox) == [provider])
        if provider == "payoneer" { _ = try sandbox.processOK(token, amount: 5_000) }
    }

    @Test func aLinkPageThisSandboxDidNotMakeIs404() throws {
        let sandbox = try startSandbox(users: [user(linked: [])])
        defer { sandbox.stop() }
        let response = try sandbox.call("POST", "/cashout/link", token: try sandbox.login(), body: #"{"provider":"payoneer"}"#)
        let url = try #require(JSON.parse(response.body)["content"]?["link"]?.stringValue)
        let forged = String(url.dropLast()) + (url.hasSuffix("A") ? "B" : "A")
        for target in [forged, "\(sandbox.base)/cashout/link/garbage", "\(sandbox.base)/cashout/link/cGF5cGFsOjE.AAAA"] {
            let page = try TestHTTP.send(method: "GET", url: target)
            #expect(page.status == 404 && page.bodyText.contains("Link not found"))
        }
        #expect(try linked(sandbox) == [])
    }

    /// A link page works for a day of virtual time: an old URL cannot link a method unlinked since.
    @Test func aLinkPageExpiresAfterADay() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let token = try sandbox.login()
        let response = try sandbox.call("POST", "/cashout/link", token: token, body: #"{"provider":"payoneer"}"#)
        let url = try #require(JSON.parse(response.body)["content"]?["link"]?.stringValue)
        _ = try sandbox.call("POST", "/cashout/unlink", token: token, body: #"{"provider":"payoneer"}"#)
        try sandbox.advance("23h59m59s")
        #expect(try TestHTTP.send(method: "GET", url: url).status == 200)
        _ = try sandbox.call("POST", "/cashout/unlink", token: token, body: #"{"provider":"payoneer"}"#)
        try sandbox.advance("1s")
        let expired = try TestHTTP.send(method: "GET", url: url)
        #expect(expired.status == 410 && expired.bodyText.contains("Link expired"))
        #expect(try linked(sandbox) == ["tipalti"])
    }

    @Test func tipaltiLinksAtOnceFromItsPayeeFields() throws {
        let sandbox = try startSandbox(users: [user(linked: [])])
        defer { sandbox.stop() }
        let token = try sandbox.login()
        let body = #"{"provider":"tipalti","firstName":"Ana","lastName":"Silva","email":"ana@example.com","address":{"address1":"1 Main St","#
                   + #""city":"Austin","postalCode":"78701","country":"US"}}"#
        let first = try sandbox.call("POST", "/cashout/link", token: token, body: body)
        #expect(first.bodyText == #"{"err":false,"success":true,"content":{"message":"Tipalti payee account created successfully","#
                                  + #""provider":"tipalti","payeeId":"payee_76561198000000001","alreadyExists":false}}"#)
        #expect(try linked(sandbox) == ["tipalti"])
        let again = try sandbox.call("POST", "/cashout/link", token: token, body: body)
        #expect(try JSON.parse(again.body)["content"]?["alreadyExists"] == true)
        _ = try sandbox.processOK(token, amount: 5_000, method: "tipalti")
    }

    @Test(arguments: [
        (#"{}"#, "Missing required parameter: provider"),
        (#"{"provider":null}"#, "Missing required parameter: provider"),
        (#"{"provider":"venmo"}"#, "Invalid provider"),
        (#"{"provider":"Payoneer"}"#, "Invalid provider"),
        (#"{"provider":"tipalti","lastName":"S","email":"a@b.c","address":{}}"#, "Missing required parameter: firstName"),
        (#"{"provider":"tipalti","firstName":"A","email":"a@b.c"}"#, "Missing required parameter: lastName"),
        (#"{"provider":"tipalti","firstName":"A","lastName":"S"}"#, "Missing required parameter: email"),
        (#"{"provider":"tipalti","payeeType":"Company","email":"a@b.c"}"#, "Missing required parameter: companyName"),
        (#"{"provider":"tipalti","payeeType":"Robot"}"#, "Invalid payeeType"),
        (#"{"provider":"tipalti","firstName":"A","lastName":"S","email":"a@b.c"}"#, "Missing required parameter: address"),
        (#"{"provider":"tipalti","payeeType":"Company","companyName":"Acme","email":"a@b.c","address":{"address1":"x","city":"y","postalCode":"1"}}"#,
         "Missing required parameter: address.country"),
    ])
    func linkErrors(body: String, message: String) throws {
        let sandbox = try startSandbox(users: [user(linked: [])])
        defer { sandbox.stop() }
        expectError(try sandbox.call("POST", "/cashout/link", token: try sandbox.login(), body: body), 300, message)
        #expect(try linked(sandbox) == [])
    }

    @Test func unlinkTakesPayoneerOnly() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let token = try sandbox.login()
        expectError(try sandbox.call("POST", "/cashout/unlink", token: token, body: "{}"), 300, "Missing required parameter: provider")
        expectError(try sandbox.call("POST", "/cashout/unlink", token: token, body: #"{"provider":"tipalti"}"#), 300, "Invalid provider")
        let response = try sandbox.call("POST", "/cashout/unlink", token: token, body: #"{"provider":"payoneer"}"#)
        #expect(response.bodyText == #"{"err":false,"success":true,"content":{"message":"Payoneer cashout method unlinked successfully","#
                                     + #""provider":"payoneer"}}"#)
        #expect(try linked(sandbox) == ["tipalti"])
        expectError(try sandbox.call("POST", "/cashout/unlink", token: token, body: #"{"provider":"payoneer"}"#), 300,
                    "Failed to unlink cashout method. The method may not be linked or an error occurred.")
        expectError(try sandbox.process(token, #"{"amount":5000,"method":"payoneer"}"#), 300, "Payment method not linked")
    }
}
