@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxD24
import Testing

func cancelBody(id: String, externalID: String) -> String {
    #"{\#(credentials()),"cashout_id":\#(id),"external_id":"\#(externalID)"}"#
}

@Suite struct CancelTests {
    @Test func cancellingAPendingCashoutRefundsTheMerchant() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "c-1", amount: "100", currency: "BRL")
        #expect(try sandbox.balance() == "999983.00")
        let response = try sandbox.cancel(cancelBody(id: id, externalID: "c-1"))
        expectOK(response, #"{"cashout_status":2,"cashout_status_description":"Canceled"}"#)
        #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
        expectOK(try sandbox.statusOf(id), canceledJSON)
        #expect(try sandbox.balance() == "1000000.00")
        // A cancelled cashout is final: time does not move it.
        try sandbox.advance("1h")
        expectOK(try sandbox.statusOf(id), canceledJSON)
    }

    @Test func cancellingAnOnHoldCashoutRefundsTheMerchant() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "c-1", amount: "250.25", currency: "USD", extra: #","on_hold":true"#)
        #expect(try sandbox.balance() == "999749.75")
        expectOK(try sandbox.cancel(cancelBody(id: id, externalID: "c-1")), canceledJSON)
        expectOK(try sandbox.statusOf(id), canceledJSON)
        #expect(try sandbox.balance() == "1000000.00")
    }

    @Test func cashoutIDMayBeAString() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "c-1")
        expectOK(try sandbox.cancel(cancelBody(id: "\"\(id)\"", externalID: "c-1")), canceledJSON)
    }

    @Test func onlyTheNamedCashoutIsRefunded() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let first = try sandbox.createOK(externalID: "c-1", amount: "10", currency: "USD")
        _ = try sandbox.createOK(externalID: "c-2", amount: "20", currency: "USD")
        expectOK(try sandbox.cancel(cancelBody(id: first, externalID: "c-1")), canceledJSON)
        #expect(try sandbox.balance() == "999980.00")
    }

    @Test func missingCashoutIDIs300() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        _ = try sandbox.createOK(externalID: "c-1")
        expectError(try sandbox.cancel(#"{\#(credentials()),"external_id":"c-1"}"#), 300, "cashoutId: Invalid or missing Cashout ID")
        expectError(try sandbox.cancel(#"{\#(credentials()),"cashout_id":"abc","external_id":"c-1"}"#), 300,
                    "cashoutId: Invalid or missing Cashout ID")
        expectOK(try sandbox.statusOf("1000001"), pendingJSON)
        #expect(try sandbox.balance() == "999983.00")
    }

    @Test func missingExternalIDIs300() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "c-1")
        expectError(try sandbox.cancel(#"{\#(credentials()),"cashout_id":\#(id)}"#), 300, "externalId: Invalid or missing External ID")
        expectOK(try sandbox.statusOf(id), pendingJSON)
        #expect(try sandbox.balance() == "999983.00")
    }

    @Test func idsNamingDifferentCashoutsAre509() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let first = try sandbox.createOK(externalID: "c-1")
        let second = try sandbox.createOK(externalID: "c-2")
        expectError(try sandbox.cancel(cancelBody(id: first, externalID: "c-2")), 509, notFound)
        expectError(try sandbox.cancel(cancelBody(id: second, externalID: "c-1")), 509, notFound)
        expectError(try sandbox.cancel(cancelBody(id: first, externalID: "nope")), 509, notFound)
        expectError(try sandbox.cancel(cancelBody(id: "999999", externalID: "c-1")), 509, notFound)
        expectError(try sandbox.cancel(cancelBody(id: "999999", externalID: "nope")), 509, notFound)
        expectOK(try sandbox.statusOf(first), pendingJSON)
        expectOK(try sandbox.statusOf(second), pendingJSON)
        #expect(try sandbox.balance() == "999966.00")
    }

    @Test func anotherMerchantsCashoutIs509() throws {
        let sandbox = try startSandbox(merchants: [D24Merchant.sandboxDefault, otherMerchant])
        defer { sandbox.stop() }
        let theirs = try sandbox.createOK(externalID: "theirs", login: "other_login", pass: "other_pass", secret: "other_secret")
        expectError(try sandbox.cancel(cancelBody(id: theirs, externalID: "theirs")), 509, notFound)
        expectOK(try sandbox.statusOf(theirs, login: "other_login", pass: "other_pass", secret: "other_secret"), pendingJSON)
        #expect(try sandbox.balance(of: "other_login") == "4983.00")
        #expect(try sandbox.balance(of: Default.login) == "1000000.00")
    }

    @Test func deliveredCashoutCannotBeCancelled() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "c-1")
        try sandbox.advance("5s")
        expectError(try sandbox.cancel(cancelBody(id: id, externalID: "c-1")), 510, invalidTransition)
        expectOK(try sandbox.statusOf(id), deliveredJSON)
        #expect(try sandbox.balance() == "999983.00")
    }

    @Test func completedCashoutCannotBeCancelled() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "c-1")
        try sandbox.advance("15s")
        expectOK(try sandbox.statusOf(id), completedJSON)
        expectError(try sandbox.cancel(cancelBody(id: id, externalID: "c-1")), 510, invalidTransition)
        expectOK(try sandbox.statusOf(id), completedJSON)
        #expect(try sandbox.balance() == "999983.00")
    }

    @Test func cancelledCashoutCannotBeCancelledAgainNorRefundedTwice() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "c-1")
        expectOK(try sandbox.cancel(cancelBody(id: id, externalID: "c-1")), canceledJSON)
        expectError(try sandbox.cancel(cancelBody(id: id, externalID: "c-1")), 510, invalidTransition)
        #expect(try sandbox.balance() == "1000000.00")
    }

    @Test func rejectedCashoutCannotBeCancelled() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "c-1")
        try sandbox.force(id, #"{"action":"deliver"}"#)
        try sandbox.force(id, #"{"action":"reject","rejection_code":801}"#)
        expectError(try sandbox.cancel(cancelBody(id: id, externalID: "c-1")), 510, invalidTransition)
        #expect(try sandbox.balance() == "1000000.00")
    }
}
