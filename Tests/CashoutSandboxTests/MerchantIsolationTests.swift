@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxSupport
@testable import SandboxWire
@testable import SandboxD24
import TestHelpers
import Testing
import Foundation

/// No merchant reads or acts on another's cashouts: every D24 endpoint that names a cashout
/// answers another merchant's id or external id exactly as it answers one that does not exist
/// (509), and changes nothing; the admin API's merchant-scoped views hold only that merchant's rows.
@Suite struct MerchantIsolationTests {
    /// The provider's answer for a cashout the caller cannot see.
    static let notFound = #"{"code":509,"message":"Cashout not found with this ID"}"#

    private struct World {
        let sandbox: Sandbox
        /// The default merchant's cashout `order-1`, PENDING.
        let theirs: Int

        init() throws {
            var configuration = Sandbox.Configuration()
            configuration.clockMode = .manual
            configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
            configuration.accounts = [D24Merchant.sandboxDefault, D24Merchant.account(login: "acme", pass: "acme_pass", secret: "acme_secret",
                                                                 readOnlyKey: "acme_ro", balance: Money("5000.00")!)]
            sandbox = try Sandbox.launch(configuration)
            let created = try Self.call(sandbox, "POST", "/v3/cashout", merchant: ("sandbox_login", "sandbox_pass", "sandbox_secret"),
                                        Self.createFields("order-1"))
            theirs = try #require(Int(JSON.parse(created.body)["cashout_id"]?.stringValue ?? ""))
        }

        static func createFields(_ externalID: String) -> String {
            #""external_id":"\#(externalID)","country":"BR","currency":"USD","amount":"100.00","document_id":"01716001340","document_type":"CPF","#
            + #""beneficiary_name":"Ana","beneficiary_lastname":"Silva","bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","#
            + #""account_type":"C""#
        }

        /// A signed D24 call; `fields` is the body's members after the credentials.
        static func call(_ sandbox: Sandbox, _ method: String, _ path: String, merchant: (login: String, pass: String, secret: String),
                         _ fields: String) throws -> HTTPResponse {
            let body = #"{"login":"\#(merchant.login)","pass":"\#(merchant.pass)",\#(fields)}"#
            let signature = D24Signing.payloadSignature(body, secret: merchant.secret)
            return try TestHTTP.send(method: method, url: "\(sandbox.baseURL)\(path)", headers: ["Payload-Signature": signature],
                                     body: Array(body.utf8))
        }

        func asAcme(_ method: String, _ path: String, _ fields: String) throws -> HTTPResponse {
            try Self.call(sandbox, method, path, merchant: ("acme", "acme_pass", "acme_secret"), fields)
        }

        func asOwner(_ method: String, _ path: String, _ fields: String) throws -> HTTPResponse {
            try Self.call(sandbox, method, path, merchant: ("sandbox_login", "sandbox_pass", "sandbox_secret"), fields)
        }

        func admin(_ path: String) throws -> JSON {
            try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)\(path)").body)
        }
    }

    @Test func anotherMerchantsCashoutIsNotFoundThroughEveryD24Endpoint() throws {
        let world = try World()
        defer { world.sandbox.stop() }
        let id = world.theirs
        let attempts: [(method: String, path: String, fields: String)] = [
            ("POST", "/v3/cashout/status", #""cashout_id":"\#(id)""#),
            ("POST", "/v3/cashout/status", #""cashout_id":\#(id)"#),
            ("POST", "/v3/cashout/status", #""external_id":"order-1""#),
            ("POST", "/v3/cashout/status", #""cashout_id":"\#(id)","external_id":"order-1""#),
            ("PUT", "/v3/cashout/status", #""cashout_id":"\#(id)","status":"ON_HOLD""#),
            ("PUT", "/v3/cashout/status", #""external_id":"order-1","status":"ON_HOLD""#),
            ("DELETE", "/v3/cashout/cancel", #""cashout_id":\#(id),"external_id":"order-1""#),
            ("DELETE", "/v3/cashout/cancel", #""cashout_id":"\#(id)","external_id":"order-1""#),
        ]
        for attempt in attempts {
            let response = try world.asAcme(attempt.method, attempt.path, attempt.fields)
            #expect(response.status == 412, "\(attempt)")
            #expect(response.bodyText == Self.notFound, "\(attempt)")
            // Exactly what a cashout that does not exist gets.
            let missing = attempt.fields.replacingOccurrences(of: "\(id)", with: "9999999").replacingOccurrences(of: "order-1", with: "no-such-order")
            let absent = try world.asAcme(attempt.method, attempt.path, missing)
            #expect(absent.status == response.status && absent.bodyText == response.bodyText, "\(attempt)")
        }
        // Nothing changed: the owner still sees it PENDING, with no history but its creation.
        let owner = try world.asOwner("POST", "/v3/cashout/status", #""cashout_id":"\#(id)""#)
        #expect(owner.bodyText == #"{"cashout_status":0,"cashout_status_description":"Pending"}"#)
        #expect(try world.admin("/sandbox/cashouts/\(id)")["history"]?.arrayValue?.count == 1)
        #expect(try world.admin("/sandbox/merchants")["merchants"]?[0]?["balance"] == "999900.00")
    }

    @Test func anExternalIDIsPerMerchantAndEachSeesOnlyItsOwn() throws {
        let world = try World()
        defer { world.sandbox.stop() }
        // acme may use the same external id: no 511 tells it the other merchant has one.
        let created = try world.asAcme("POST", "/v3/cashout", World.createFields("order-1"))
        #expect(created.status == 200)
        let mine = try #require(Int(JSON.parse(created.body)["cashout_id"]?.stringValue ?? ""))
        #expect(mine != world.theirs)
        #expect(try world.asAcme("PUT", "/v3/cashout/status", #""external_id":"order-1","status":"ON_HOLD""#).bodyText
            == #"{"cashout_status":5,"cashout_status_description":"On Hold"}"#)
        // The owner's order-1 is untouched; acme's cancel with the owner's id and the shared external id is refused.
        #expect(try world.asOwner("POST", "/v3/cashout/status", #""external_id":"order-1""#).bodyText
            == #"{"cashout_status":0,"cashout_status_description":"Pending"}"#)
        #expect(try world.asAcme("DELETE", "/v3/cashout/cancel", #""cashout_id":\#(world.theirs),"external_id":"order-1""#).bodyText
            == Self.notFound)
        #expect(try world.asAcme("DELETE", "/v3/cashout/cancel", #""cashout_id":\#(mine),"external_id":"order-1""#).bodyText
            == #"{"cashout_status":2,"cashout_status_description":"Canceled"}"#)
        #expect(try world.admin("/sandbox/cashouts/\(world.theirs)")["status"] == "PENDING")
    }

    @Test func theAdminAPIsMerchantScopedViewsHoldOnlyThatMerchantsRows() throws {
        let world = try World()
        defer { world.sandbox.stop() }
        for externalID in ["a-1", "a-2"] {
            #expect(try world.asAcme("POST", "/v3/cashout", World.createFields(externalID)).status == 200)
        }
        let acmeCashouts = try #require(world.admin("/sandbox/cashouts?merchant=acme")["cashouts"]?.arrayValue)
        #expect(acmeCashouts.map { $0["external_id"] } == ["a-1", "a-2"])
        #expect(acmeCashouts.allSatisfy { $0["merchant"] == "acme" })
        let ownerCashouts = try #require(world.admin("/sandbox/cashouts?merchant=sandbox_login")["cashouts"]?.arrayValue)
        #expect(ownerCashouts.map { $0["external_id"] } == ["order-1"])
        #expect(try world.admin("/sandbox/cashouts?merchant=acme&status=PENDING")["cashouts"]?.arrayValue?.count == 2)

        let acmeLedger = try #require(world.admin("/sandbox/ledger?merchant=acme")["entries"]?.arrayValue)
        #expect(acmeLedger.map { $0["merchant"] } == ["acme", "acme"])
        #expect(acmeLedger.map { $0["balance_after"] } == ["4900.00", "4800.00"])
        let ownerLedger = try #require(world.admin("/sandbox/ledger?merchant=sandbox_login")["entries"]?.arrayValue)
        #expect(ownerLedger.map { $0["cashout_id"] } == [.number(world.theirs)])

        // Near misses of a login match nothing: no prefix, case or empty-name matching.
        for near in ["acm", "ACME", "acme%20", "", "acme_", "%61cme"] {
            let expectedCount = near == "%61cme" ? 2 : 0  // percent-encoding decodes to "acme" itself
            #expect(try world.admin("/sandbox/cashouts?merchant=\(near)")["cashouts"]?.arrayValue?.count == expectedCount, "\(near)")
            #expect(try world.admin("/sandbox/ledger?merchant=\(near)")["entries"]?.arrayValue?.count == expectedCount, "\(near)")
        }
    }
}
