@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxPrism
import TestHelpers
import Testing

/// Create, Get and Void on the bank's lifecycle, over gRPC through the sandbox's router.
@Suite struct PrismPayoutTests {
    @Test func createIsPendingThenTheDefaultTimelineTakesItToSuccess() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        var headers = defaultAuth
        headers.add("x-request-id", "req-42")
        let created = try sandbox.prism("Create", createRequest(), headers: headers)
        #expect(created.code == 0)
        #expect(created.response.headers["x-request-id"] == "req-42")
        let body = try #require(created.body)
        #expect(body.string("merchant_payout_id") == "order-1")
        #expect(created.status == "PENDING")
        #expect(Int(created.connectorPayoutID) != nil)
        #expect(body.uint("status_code") == 200)
        #expect(!body.has("error"))
        #expect(sandbox.balance() == Money("999990.00"))

        sandbox.advance(by: .seconds(5))
        #expect(try sandbox.prism("Get", lookup("Get", connector: created.connectorPayoutID)).status == "INITIATED")
        sandbox.advance(by: .seconds(10))
        let got = try sandbox.prism("Get", lookup("Get", merchant: "order-1"))
        #expect(got.code == 0 && got.status == "SUCCESS")
        #expect(got.connectorPayoutID == created.connectorPayoutID)
        #expect(got.body?.string("merchant_payout_id") == "order-1")
        #expect(sandbox.balance() == Money("999990.00"))
    }

    @Test func createIsIdempotentOnMerchantPayoutID() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let first = try sandbox.prism("Create", createRequest("order-7"))
        sandbox.advance(by: .seconds(5))
        let second = try sandbox.prism("Create", createRequest("order-7", minor: 5000))
        #expect(second.code == 0)
        #expect(second.connectorPayoutID == first.connectorPayoutID)
        #expect(second.status == "INITIATED")  // the payout as it stands, unchanged
        #expect(sandbox.balance() == Money("999990.00"))  // one debit
        let other = try sandbox.prism("Create", createRequest("order-8"))
        #expect(other.connectorPayoutID != first.connectorPayoutID)
        #expect(sandbox.balance() == Money("999980.00"))
    }

    @Test func createNeedsAnAmountAndAMethod() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let noAmount = try sandbox.prism("Create", createRequest(withAmount: false))
        #expect(noAmount.code == 3 && noAmount.message == PrismMessage.missing("amount"))
        #expect(noAmount.message == "Missing required field: amount")
        let noMethod = try sandbox.prism("Create", createRequest(withMethod: false))
        #expect(noMethod.code == 3 && noMethod.message == "Missing required field: payout_method_data")
        let zero = try sandbox.prism("Create", createRequest(minor: 0))
        #expect(zero.code == 3 && zero.message == "Invalid data format: amount")
        #expect(sandbox.balance() == Money("1000000.00"))
    }

    @Test func anAmountInAnotherCurrencyIsConvertedToTheMerchants() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let euros = try sandbox.prism("Create", createRequest("order-eur", minor: 1250, currency: "EUR"))
        #expect(euros.code == 0 && euros.status == "PENDING")
        #expect(sandbox.balance() == Money("999986.41"))  // 12.50 EUR at 0.92 per USD: 13.59 USD
        let yen = try sandbox.prism("Create", createRequest("order-jpy", minor: 1500, currency: "JPY"))
        #expect(yen.code == 0 && sandbox.balance() == Money("999976.41"))  // 1500 JPY (no minor units) at 150: 10.00 USD
        let unknown = try sandbox.prism("Create", createRequest("order-afn", minor: 100, currency: "AFN"))
        #expect(unknown.status == "FAILED")
        #expect(unknown.body?.message("error")?.message("connector_details")?.string("code") == "unsupported_currency")
    }

    @Test func getOfAnUnknownPayoutIsNotFound() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let byConnector = try sandbox.prism("Get", lookup("Get", connector: "999"))
        #expect(byConnector.code == 5 && byConnector.message == "Payout not found: 999")
        let byMerchant = try sandbox.prism("Get", lookup("Get", merchant: "nope"))
        #expect(byMerchant.code == 5 && byMerchant.message == PrismMessage.payoutNotFound("nope"))
        let none = try sandbox.prism("Get", lookup("Get"))
        #expect(none.code == 3 && none.message == "Missing required field: connector_payout_id")
    }

    @Test func voidBeforeSendingCancelsAndRefunds() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        var request = createRequest()
        request["webhook_url"] = .string("\(sandbox.baseURL)/sandbox/sink/void")
        let created = try sandbox.prism("Create", request)
        #expect(sandbox.balance() == Money("999990.00"))
        let voided = try sandbox.prism("Void", lookup("Void", connector: created.connectorPayoutID))
        #expect(voided.code == 0 && voided.status == "CANCELLED")
        #expect(voided.body?.string("merchant_payout_id") == "order-1")
        #expect(sandbox.balance() == Money("1000000.00"))
        #expect(try sandbox.prism("Void", lookup("Void", merchant: "order-1")).status == "CANCELLED")  // again: as it is
        sandbox.advance(by: .seconds(60))
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "order-1")).status == "CANCELLED")
        #expect(try sandbox.sinkNotifications("void").map { $0["payout_status"] } == ["CANCELLED"])
    }

    @Test func voidAfterSuccessIsAFailedPrecondition() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let created = try sandbox.prism("Create", createRequest())
        sandbox.advance(by: .seconds(5))
        let sending = try sandbox.prism("Void", lookup("Void", connector: created.connectorPayoutID))
        #expect(sending.code == 9 && sending.message == PrismMessage.forbidden("void", status: "INITIATED"))
        sandbox.advance(by: .seconds(10))
        let voided = try sandbox.prism("Void", lookup("Void", connector: created.connectorPayoutID))
        #expect(voided.code == 9)
        #expect(voided.message == "You cannot void this payout because it has status SUCCESS")
        #expect(voided.message == PrismMessage.forbidden("void", status: "SUCCESS"))
        #expect(sandbox.balance() == Money("999990.00"))
        #expect(try sandbox.prism("Void", lookup("Void", merchant: "nope")).code == 5)
    }

    @Test func magicRecipientNamesFailAndDecline() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let failing = try sandbox.prism("Create", createRequest("f-1", holder: "FAIL Ana"))
        #expect(failing.status == "PENDING")
        sandbox.advance(by: .seconds(15))
        let failed = try sandbox.prism("Get", lookup("Get", merchant: "f-1"))
        #expect(failed.status == "FAILED")
        let details = failed.body?.message("error")?.message("connector_details")
        #expect(details?.string("code") == "account_closed")
        #expect(sandbox.balance() == Money("1000000.00"))  // refunded

        let declined = try sandbox.prism("Create", createRequest("d-1", holder: "DECLINE"))
        #expect(declined.code == 0)  // a processor decline comes back inside an OK response
        #expect(declined.status == "FAILED")
        #expect(declined.body?.uint("status_code") == 400)
        #expect(declined.body?.message("error")?.message("connector_details")?.string("code") == "card_declined")
        #expect(declined.connectorPayoutID.isEmpty)
        #expect(sandbox.balance() == Money("1000000.00"))
        // The admin API's balance is the ledger's: its last entry's balance_after.
        let merchants = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/prism-merchants").body)["merchants"]
        #expect(merchants?.arrayValue?.first { $0["merchant_id"] == .string(DefaultMerchant.id) }?["balance"] == "1000000.00")
        let ledger = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/ledger?merchant=\(DefaultMerchant.id)").body)
        #expect(ledger["entries"]?.arrayValue?.last?["balance_after"] == "1000000.00")
    }

    @Test func theMagicNameNeverLeavesThePayoutPendingUntilItIsVoided() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let created = try sandbox.prism("Create", createRequest("n-1", holder: PrismExample.pendingHolder))
        #expect(created.status == "PENDING")
        sandbox.advance(by: .seconds(86_400))
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "n-1")).status == "PENDING")
        #expect(try sandbox.prism("Void", lookup("Void", merchant: "n-1")).status == "CANCELLED")
        #expect(sandbox.balance() == Money("1000000.00"))  // refunded
    }

    @Test func insufficientFundsIsADecline() throws {
        let sandbox = try startPrismSandbox(extra: [PrismMerchant.account(id: "poor", apiKey: "poor_key", balance: Money("5.00")!)])
        defer { sandbox.stop() }
        let answer = try sandbox.prism("Create", createRequest(), headers: ["x-connector": "stripe", "x-auth": "header-key",
                                                                            "x-api-key": "poor_key", "x-merchant-id": "poor"])
        #expect(answer.code == 0 && answer.status == "FAILED")
        #expect(answer.body?.message("error")?.message("connector_details")?.string("message") == PrismMessage.insufficientFunds)
        #expect(sandbox.balance("poor") == Money("5.00"))
    }

    @Test func merchantsSeeOnlyTheirOwnPayouts() throws {
        let sandbox = try startPrismSandbox(extra: [PrismMerchant.account(id: "acme", apiKey: "acme_key", balance: Money("100.00")!)])
        defer { sandbox.stop() }
        let created = try sandbox.prism("Create", createRequest())
        let acme: HTTPHeaders = ["x-connector": "sandbox", "x-auth": "header-key", "x-api-key": "acme_key", "x-merchant-id": "acme"]
        #expect(try sandbox.prism("Get", lookup("Get", connector: created.connectorPayoutID), headers: acme).code == 5)
        #expect(try sandbox.prism("Void", lookup("Void", merchant: "order-1"), headers: acme).code == 5)
        let own = try sandbox.prism("Create", createRequest(), headers: acme)  // the same merchant_payout_id, another merchant
        #expect(own.code == 0 && own.connectorPayoutID != created.connectorPayoutID)
        #expect(sandbox.balance("acme") == Money("90.00"))
    }
}
