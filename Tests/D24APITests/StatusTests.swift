@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxD24
import Testing

let notFound = "Cashout not found with this ID"
let missingCashoutID = "cashoutId: Invalid or missing Cashout ID"

@Suite struct StatusTests {
    @Test func statusByNumericCashoutID() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "s-1")
        #expect(id == "1000001")
        let response = try sandbox.status(#"{\#(credentials()),"cashout_id":1000001}"#)
        expectOK(response, #"{"cashout_status":0,"cashout_status_description":"Pending"}"#)
        #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
    }

    @Test func statusByStringCashoutID() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        _ = try sandbox.createOK(externalID: "s-1")
        expectOK(try sandbox.status(#"{\#(credentials()),"cashout_id":"1000001"}"#), pendingJSON)
    }

    @Test func statusByExternalID() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        _ = try sandbox.createOK(externalID: "s-1")
        _ = try sandbox.createOK(externalID: "s-2", extra: #","on_hold":true"#)
        expectOK(try sandbox.status(#"{\#(credentials()),"external_id":"s-1"}"#), pendingJSON)
        expectOK(try sandbox.status(#"{\#(credentials()),"external_id":"s-2"}"#), onHoldJSON)
    }

    @Test func cashoutIDDecidesWhenBothIDsAreSent() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let pending = try sandbox.createOK(externalID: "p-1")
        let held = try sandbox.createOK(externalID: "h-1", extra: #","on_hold":true"#)
        expectOK(try sandbox.status(#"{\#(credentials()),"cashout_id":\#(pending),"external_id":"h-1"}"#), pendingJSON)
        expectOK(try sandbox.status(#"{\#(credentials()),"cashout_id":"\#(held)","external_id":"p-1"}"#), onHoldJSON)
        // An external_id that names nothing does not matter when cashout_id is present...
        expectOK(try sandbox.status(#"{\#(credentials()),"cashout_id":\#(held),"external_id":"ORDER-XYZ"}"#), onHoldJSON)
        // ...and an unknown cashout_id is not rescued by a valid external_id.
        expectError(try sandbox.status(#"{\#(credentials()),"cashout_id":999999,"external_id":"p-1"}"#), 509, notFound)
    }

    /// cashout_id decides, but an external_id sent beside it is read too: one that is no string, or
    /// blank, is refused as when it is sent alone (D24's `external_id` is a string, and creation refuses a blank one).
    @Test(arguments: ["{}", "[1]", "true", "123", #""""#, #""  ""#])
    func anExternalIDThatIsNoStringIsRefusedBesideACashoutID(_ value: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "s-1")
        let invalid = "externalId: Invalid or missing External ID"
        expectError(try sandbox.status(#"{\#(credentials()),"external_id":\#(value)}"#), 300, invalid)
        expectError(try sandbox.status(#"{\#(credentials()),"cashout_id":\#(id),"external_id":\#(value)}"#), 300, invalid)
        expectError(try sandbox.updateStatus(#"{\#(credentials()),"cashout_id":\#(id),"external_id":\#(value),"status":"ON_HOLD"}"#), 300, invalid)
        expectOK(try sandbox.statusOf(id), pendingJSON)
    }

    @Test func unknownCashoutIs509() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.status(#"{\#(credentials()),"cashout_id":1000001}"#), 509, notFound)
        _ = try sandbox.createOK(externalID: "s-1")
        expectError(try sandbox.status(#"{\#(credentials()),"cashout_id":1000002}"#), 509, notFound)
        expectError(try sandbox.status(#"{\#(credentials()),"cashout_id":"999999"}"#), 509, notFound)
        expectError(try sandbox.status(#"{\#(credentials()),"external_id":"s-2"}"#), 509, notFound)
        expectError(try sandbox.status(#"{\#(credentials()),"external_id":"S-1"}"#), 509, notFound)
    }

    @Test func anotherMerchantsCashoutIs509() throws {
        let sandbox = try startSandbox(merchants: [D24Merchant.sandboxDefault, otherMerchant])
        defer { sandbox.stop() }
        let theirs = try sandbox.createOK(externalID: "theirs", login: "other_login", pass: "other_pass", secret: "other_secret")
        expectError(try sandbox.statusOf(theirs), 509, notFound)
        expectError(try sandbox.status(#"{\#(credentials()),"external_id":"theirs"}"#), 509, notFound)
        // The owner sees it.
        expectOK(try sandbox.statusOf(theirs, login: "other_login", pass: "other_pass", secret: "other_secret"), pendingJSON)
    }

    @Test func sameExternalIDAtTwoMerchantsResolvesPerMerchant() throws {
        let sandbox = try startSandbox(merchants: [D24Merchant.sandboxDefault, otherMerchant])
        defer { sandbox.stop() }
        _ = try sandbox.createOK(externalID: "shared", extra: #","on_hold":true"#)
        _ = try sandbox.createOK(externalID: "shared", login: "other_login", pass: "other_pass", secret: "other_secret")
        expectOK(try sandbox.status(#"{\#(credentials()),"external_id":"shared"}"#), onHoldJSON)
        let other = #"{\#(credentials(login: "other_login", pass: "other_pass")),"external_id":"shared"}"#
        expectOK(try sandbox.status(other, signature: .valid(secret: "other_secret")), pendingJSON)
    }

    @Test func neitherIDIs300() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        _ = try sandbox.createOK(externalID: "s-1")
        expectError(try sandbox.status("{\(credentials())}"), 300, missingCashoutID)
    }

    @Test(arguments: [#""abc""#, #""""#, #""12a""#, "1.5", "true", "null", "[1]"])
    func nonNumericCashoutIDIs300(_ value: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        _ = try sandbox.createOK(externalID: "s-1")
        expectError(try sandbox.status(#"{\#(credentials()),"cashout_id":\#(value)}"#), 300, missingCashoutID)
    }

    @Test func defaultTimelineDeliversAfter5sAndCompletes10sLater() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "t-1")
        expectOK(try sandbox.statusOf(id), pendingJSON)
        try sandbox.advance("4s")
        expectOK(try sandbox.statusOf(id), pendingJSON)
        try sandbox.advance("1s")
        expectOK(try sandbox.statusOf(id), deliveredJSON)
        try sandbox.advance("9s")
        expectOK(try sandbox.statusOf(id), deliveredJSON)
        try sandbox.advance("1s")
        expectOK(try sandbox.statusOf(id), completedJSON)
        try sandbox.advance("1d")
        expectOK(try sandbox.statusOf(id), completedJSON)
        // A completed payout stays debited.
        #expect(try sandbox.balance() == "999983.00")
    }

    @Test func rejectedStatusCarriesTheRejectionCodeAndReason() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "r-1", amount: "100", currency: "USD")
        #expect(try sandbox.balance() == "999900.00")
        try sandbox.force(id, #"{"action":"deliver"}"#)
        expectOK(try sandbox.statusOf(id), deliveredJSON)
        try sandbox.force(id, #"{"action":"reject","rejection_code":801}"#)
        expectOK(try sandbox.statusOf(id),
                 #"{"cashout_status":3,"cashout_status_description":"Rejected","rejection_code":801,"rejection_reason":"ERROR_ACCOUNT_CLOSED"}"#)
        expectOK(try sandbox.status(#"{\#(credentials()),"external_id":"r-1"}"#),
                 statusJSON(3, "Rejected", rejectionCode: 801, rejectionReason: "ERROR_ACCOUNT_CLOSED"))
        // A rejection refunds the merchant.
        #expect(try sandbox.balance() == "1000000.00")
    }

    @Test(arguments: [(800, "ERROR_ACCOUNT_INCORRECT"), (808, "ERROR_OTHER"), (814, "INVALID_PIX_KEY")])
    func rejectionReasonNamesTheCode(_ code: Int, _ name: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "r-1")
        try sandbox.force(id, #"{"action":"deliver"}"#)
        try sandbox.force(id, #"{"action":"reject","rejection_code":\#(code)}"#)
        expectOK(try sandbox.statusOf(id), statusJSON(3, "Rejected", rejectionCode: code, rejectionReason: name))
    }

    @Test func lateRejectionAfterCompletionIsRejectedAndRefunded() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "late-1")
        try sandbox.advance("15s")
        expectOK(try sandbox.statusOf(id), completedJSON)
        #expect(try sandbox.balance() == "999983.00")
        try sandbox.force(id, #"{"action":"reject","rejection_code":826}"#)
        expectOK(try sandbox.statusOf(id), statusJSON(3, "Rejected", rejectionCode: 826, rejectionReason: "WITHDRAWAL_REVERSED"))
        #expect(try sandbox.balance() == "1000000.00")
    }

    @Test func bankReferenceAppearsOnceSet() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "b-1")
        expectOK(try sandbox.statusOf(id), pendingJSON)
        try sandbox.force(id, #"{"action":"deliver","bank_reference_id":"E352104102024022919987ScFRY3aab3"}"#)
        expectOK(try sandbox.statusOf(id),
                 #"{"bank_reference_id":"E352104102024022919987ScFRY3aab3","cashout_status":4,"cashout_status_description":"Delivered"}"#)
        try sandbox.force(id, #"{"action":"complete"}"#)
        expectOK(try sandbox.statusOf(id), statusJSON(1, "Completed", bankReference: "E352104102024022919987ScFRY3aab3"))
    }

    @Test func everyStatusHasItsNumberAndDescription() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let pending = try sandbox.createOK(externalID: "e-0")
        let completed = try sandbox.createOK(externalID: "e-1")
        let canceled = try sandbox.createOK(externalID: "e-2")
        let rejected = try sandbox.createOK(externalID: "e-3")
        let delivered = try sandbox.createOK(externalID: "e-4")
        let held = try sandbox.createOK(externalID: "e-5", extra: #","on_hold":true"#)
        try sandbox.force(completed, #"{"action":"deliver"}"#)
        try sandbox.force(completed, #"{"action":"complete"}"#)
        expectOK(try sandbox.cancel(#"{\#(credentials()),"cashout_id":\#(canceled),"external_id":"e-2"}"#), canceledJSON)
        try sandbox.force(rejected, #"{"action":"deliver"}"#)
        try sandbox.force(rejected, #"{"action":"reject","rejection_code":807}"#)
        try sandbox.force(delivered, #"{"action":"deliver"}"#)
        expectOK(try sandbox.statusOf(pending), statusJSON(0, "Pending"))
        expectOK(try sandbox.statusOf(completed), statusJSON(1, "Completed"))
        expectOK(try sandbox.statusOf(canceled), statusJSON(2, "Canceled"))
        expectOK(try sandbox.statusOf(rejected), statusJSON(3, "Rejected", rejectionCode: 807, rejectionReason: "ERROR_REJECTED_BY_BANK"))
        expectOK(try sandbox.statusOf(delivered), statusJSON(4, "Delivered"))
        expectOK(try sandbox.statusOf(held), statusJSON(5, "On Hold"))
    }

    @Test func statusLookupChangesNothing() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "n-1")
        for _ in 0 ..< 3 { expectOK(try sandbox.statusOf(id), pendingJSON) }
        #expect(try sandbox.balance() == "999983.00")
        let cashouts = try sandbox.admin("GET", "/sandbox/cashouts")["cashouts"]?.arrayValue
        #expect(cashouts?.count == 1)
    }
}
