@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxD24
import TestHelpers
import Testing

let invalidTransition = "Invalid status transition"

func updateBody(id: String, status: String) -> String {
    #"{\#(credentials()),"cashout_id":\#(id),"status":"\#(status)"}"#
}

@Suite struct UpdateStatusTests {
    @Test func pendingToOnHoldAndBack() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "u-1")
        let hold = try sandbox.updateStatus(updateBody(id: id, status: "ON_HOLD"))
        expectOK(hold, #"{"cashout_status":5,"cashout_status_description":"On Hold"}"#)
        #expect(hold.headers["Content-Type"]?.hasPrefix("application/json") == true)
        expectOK(try sandbox.statusOf(id), onHoldJSON)
        expectOK(try sandbox.updateStatus(updateBody(id: id, status: "PENDING")),
                 #"{"cashout_status":0,"cashout_status_description":"Pending"}"#)
        expectOK(try sandbox.statusOf(id), pendingJSON)
        // Holding keeps the amount reserved; nothing is refunded or debited twice.
        #expect(try sandbox.balance() == "999983.00")
    }

    /// A hold names its cashout by `cashout_id`: a fault aimed at that payout takes it, and it is on the payout's
    /// timeline (`GET /sandbox/cashouts/{id}/timeline`).
    @Test func aHoldIsAboutItsCashoutForFaultsAndTheTimeline() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "u-1", amount: "104.00")
        let fault = #"{"faults": [{"when": {"endpoint": "PUT /v3/cashout/status", "payout": {"amount": "104.00"}}, "every": 1, "#
            + #""kind": "error", "status": 503, "body": "{}"}]}"#
        _ = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/scenario", body: Array(fault.utf8))
        #expect(try sandbox.updateStatus(updateBody(id: id, status: "ON_HOLD")).status == 503)
        let timeline = try JSON.parse(try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/cashouts/\(id)/timeline").body)
        let texts = timeline["entries"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
        #expect(texts.contains("the suite's step: PUT /v3/cashout/status: injected fault error: answered 503")
                    || texts.contains("PUT /v3/cashout/status: injected fault error: answered 503"), "\(texts)")
    }

    @Test func createdOnHoldCanBeReleased() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "u-1", extra: #","on_hold":true"#)
        expectOK(try sandbox.updateStatus(updateBody(id: id, status: "PENDING")), pendingJSON)
        expectOK(try sandbox.statusOf(id), pendingJSON)
    }

    @Test func heldCashoutDoesNotProgressUntilReleased() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "u-1")
        expectOK(try sandbox.updateStatus(updateBody(id: id, status: "ON_HOLD")), onHoldJSON)
        try sandbox.advance("1h")
        expectOK(try sandbox.statusOf(id), onHoldJSON)
        expectOK(try sandbox.updateStatus(updateBody(id: id, status: "PENDING")), pendingJSON)
        try sandbox.advance("1h")
        expectOK(try sandbox.statusOf(id), completedJSON)
    }

    @Test func idsWorkAsInTheStatusEndpoint() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "u-1")
        let other = try sandbox.createOK(externalID: "u-2")
        // By external_id alone.
        expectOK(try sandbox.updateStatus(#"{\#(credentials()),"external_id":"u-1","status":"ON_HOLD"}"#), onHoldJSON)
        // By cashout_id as a string.
        expectOK(try sandbox.updateStatus(#"{\#(credentials()),"cashout_id":"\#(id)","status":"PENDING"}"#), pendingJSON)
        // cashout_id decides when both are sent.
        expectOK(try sandbox.updateStatus(#"{\#(credentials()),"cashout_id":\#(other),"external_id":"u-1","status":"ON_HOLD"}"#), onHoldJSON)
        expectOK(try sandbox.statusOf(other), onHoldJSON)
        expectOK(try sandbox.statusOf(id), pendingJSON)
    }

    @Test func missingStatusIs300() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "u-1")
        expectError(try sandbox.updateStatus(#"{\#(credentials()),"cashout_id":\#(id)}"#), 300, "status: Invalid or missing Status")
        expectOK(try sandbox.statusOf(id), pendingJSON)
    }

    @Test(arguments: ["FOO", "PAUSED", "HOLD", "ONHOLD"])
    func unknownStatusIs521(_ word: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "u-1")
        expectError(try sandbox.updateStatus(updateBody(id: id, status: word)), 521, "Status \(word) not supported for this type of request")
        expectOK(try sandbox.statusOf(id), pendingJSON)
    }

    @Test(arguments: ["COMPLETED", "CANCELLED", "REJECTED", "DELIVERED", "PENDING"])
    func otherKnownStatusesFromPendingAre510(_ target: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "u-1")
        expectError(try sandbox.updateStatus(updateBody(id: id, status: target)), 510, invalidTransition)
        expectOK(try sandbox.statusOf(id), pendingJSON)
        #expect(try sandbox.balance() == "999983.00")
    }

    @Test(arguments: ["ON_HOLD", "COMPLETED", "CANCELLED", "REJECTED", "DELIVERED"])
    func otherKnownStatusesFromOnHoldAre510(_ target: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "u-1", extra: #","on_hold":true"#)
        expectError(try sandbox.updateStatus(updateBody(id: id, status: target)), 510, invalidTransition)
        expectOK(try sandbox.statusOf(id), onHoldJSON)
    }

    @Test(arguments: ["ON_HOLD", "PENDING"])
    func deliveredCashoutCannotBeUpdated(_ target: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "u-1")
        try sandbox.advance("5s")
        expectOK(try sandbox.statusOf(id), deliveredJSON)
        expectError(try sandbox.updateStatus(updateBody(id: id, status: target)), 510, invalidTransition)
        expectOK(try sandbox.statusOf(id), deliveredJSON)
    }

    @Test(arguments: ["ON_HOLD", "PENDING"])
    func finalCashoutsCannotBeUpdated(_ target: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let completed = try sandbox.createOK(externalID: "u-1")
        try sandbox.advance("15s")
        let cancelled = try sandbox.createOK(externalID: "u-2")
        expectOK(try sandbox.cancel(#"{\#(credentials()),"cashout_id":\#(cancelled),"external_id":"u-2"}"#), canceledJSON)
        let rejected = try sandbox.createOK(externalID: "u-3")
        try sandbox.force(rejected, #"{"action":"deliver"}"#)
        try sandbox.force(rejected, #"{"action":"reject","rejection_code":801}"#)
        expectError(try sandbox.updateStatus(updateBody(id: completed, status: target)), 510, invalidTransition)
        expectError(try sandbox.updateStatus(updateBody(id: cancelled, status: target)), 510, invalidTransition)
        expectError(try sandbox.updateStatus(updateBody(id: rejected, status: target)), 510, invalidTransition)
        expectOK(try sandbox.statusOf(completed), completedJSON)
        expectOK(try sandbox.statusOf(cancelled), canceledJSON)
        #expect(try sandbox.balance() == "999983.00")
    }

    @Test func unknownOrForeignCashoutIs509() throws {
        let sandbox = try startSandbox(merchants: [D24Merchant.sandboxDefault, otherMerchant])
        defer { sandbox.stop() }
        expectError(try sandbox.updateStatus(updateBody(id: "1000001", status: "ON_HOLD")), 509, notFound)
        let theirs = try sandbox.createOK(externalID: "theirs", login: "other_login", pass: "other_pass", secret: "other_secret")
        expectError(try sandbox.updateStatus(updateBody(id: theirs, status: "ON_HOLD")), 509, notFound)
        expectError(try sandbox.updateStatus(#"{\#(credentials()),"external_id":"theirs","status":"ON_HOLD"}"#), 509, notFound)
        expectOK(try sandbox.statusOf(theirs, login: "other_login", pass: "other_pass", secret: "other_secret"), pendingJSON)
    }

    @Test func missingOrNonNumericIDIs300() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        _ = try sandbox.createOK(externalID: "u-1")
        expectError(try sandbox.updateStatus(#"{\#(credentials()),"status":"ON_HOLD"}"#), 300, missingCashoutID)
        expectError(try sandbox.updateStatus(#"{\#(credentials()),"cashout_id":"abc","status":"ON_HOLD"}"#), 300, missingCashoutID)
    }
}
