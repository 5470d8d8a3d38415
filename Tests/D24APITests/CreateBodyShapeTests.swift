@testable import CashoutSandbox
import Testing
import Foundation
@testable import SandboxSupport

/// How a create reads its body's members: JSON types, null, and keys sent twice (the last value
/// counts, as in a JSON object).
@Suite struct CreateBodyShapeTests {
    @Test func theFirstFieldOfAnotherJSONTypeInTheDocumentedOrderIsRefused() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        // bank_account comes first in the body, after amount in the documented order.
        let body = #"{"bank_account":true,"#
            + createBody(amount: "{}").replacingOccurrences(of: #""bank_account":"3423422-7","#, with: "").dropFirst()
        expectError(try sandbox.create(body), 300, "amount: Invalid or missing Amount")
        expectError(try sandbox.create(createBody(extra: #","comments":["a"]"#)), 300, "comments: Invalid or missing Comments")
    }

    /// Text fields are JSON strings, as the provider's field table types them; only `amount` and
    /// `bank_code` are read from a number too (Behaviour and choices, "D24 text fields are JSON strings").
    @Test func aNumberInATextFieldIsRefusedExternalIDIncluded() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.create(createBody(extra: #","external_id":7"#)), 300, "externalId: Invalid or missing External ID")
        expectError(try sandbox.create(createBody(extra: #","document_id":1716001340"#)), 300, "documentId: Invalid or missing Document ID")
        expectError(try sandbox.status("{" + credentials() + #","external_id":7}"#), 300, "externalId: Invalid or missing External ID")
        #expect(try sandbox.admin("GET", "/sandbox/cashouts")["cashouts"]?.arrayValue == [])
        expectOK(try sandbox.create(createBody(externalID: "7", amount: "100.5")), #"{"cashout_id":"1000001"}"#)
    }

    @Test func nullIsAbsent() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.create(createBody(extra: #","bank_account":null"#)), 300, "bankAccount: Invalid or missing Bank account")
        expectOK(try sandbox.create(createBody(extra: #","comments":null,"notification_url":null"#)), #"{"cashout_id":"1000001"}"#)
    }

    @Test func aKeySentTwiceHasItsLastValue() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectOK(try sandbox.create(createBody(externalID: "t-1", amount: "[1]", extra: #","amount":"100""#)), #"{"cashout_id":"1000001"}"#)
        expectError(try sandbox.create(createBody(externalID: "t-2", extra: #","amount":[1]"#)), 300, "amount: Invalid or missing Amount")
        expectError(try sandbox.create(createBody(externalID: "t-3", extra: #","bank_account":"1""#)), 300,
                    "bankAccount: Invalid or missing Bank account")
        expectOK(try sandbox.create(createBody(externalID: "t-4", login: "nobody", extra: #","login":"sandbox_login""#)),
                 #"{"cashout_id":"1000002"}"#)
        let cashouts = try sandbox.admin("GET", "/sandbox/cashouts")["cashouts"]?.arrayValue ?? []
        #expect(cashouts.compactMap { $0["amount"]?.stringValue } == ["100.00", "100.00"])
    }
}
