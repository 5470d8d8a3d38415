@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxPrism
import TestHelpers
import Testing
import Foundation

/// A Stage request: `minor` USD cents for `customer`, under `quote`.
func stageRequest(_ quote: String? = "quote-1", minor: Int64 = 2500, customer: String = "Ana Lima") -> ProtoMessage {
    var request = prismRegistry.message("types.PayoutServiceStageRequest")
    if let quote { request["merchant_quote_id"] = .string(quote) }
    var money = prismRegistry.message("types.Money")
    money["minor_amount"] = .int(minor)
    money["currency"] = .string("USD")
    request["amount"] = .message(money)
    var person = prismRegistry.message("types.Customer")
    if person.schema.field(named: "name") != nil { person["name"] = .string(customer) }
    request["customer"] = .message(person)
    return request
}

/// Stage (no debit, REQUIRES_FULFILLMENT), then Transfer (the debit, PENDING, the timeline).
@Suite struct PrismStageTests {
    @Test func stageDebitsNothingAndTransferExecutes() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let staged = try sandbox.prism("Stage", stageRequest())
        #expect(staged.code == 0 && staged.status == "REQUIRES_FULFILLMENT")
        #expect(staged.body?.string("merchant_payout_id") == "quote-1")
        #expect(Int(staged.connectorPayoutID) != nil)
        #expect(sandbox.balance() == Money("1000000.00"))
        sandbox.advance(by: .seconds(60))  // no timeline while staged
        #expect(try sandbox.prism("Get", lookup("Get", connector: staged.connectorPayoutID)).status == "REQUIRES_FULFILLMENT")
        #expect(try sandbox.prism("Stage", stageRequest(minor: 9999)).connectorPayoutID == staged.connectorPayoutID)  // idempotent

        let transferred = try sandbox.prism("Transfer", lookup("Transfer", connector: staged.connectorPayoutID))
        #expect(transferred.code == 0 && transferred.status == "PENDING")
        #expect(transferred.connectorPayoutID == staged.connectorPayoutID)
        #expect(sandbox.balance() == Money("999975.00"))
        sandbox.advance(by: .seconds(15))
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "quote-1")).status == "SUCCESS")
    }

    @Test func transferByMerchantPayoutIDOrQuoteID() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        _ = try sandbox.prism("Stage", stageRequest("q-a"))
        #expect(try sandbox.prism("Transfer", lookup("Transfer", merchant: "q-a")).status == "PENDING")
        let second = try sandbox.prism("Stage", stageRequest("q-b"))
        var byQuote = lookup("Transfer")
        byQuote["connector_quote_id"] = .string(second.connectorPayoutID)
        #expect(try sandbox.prism("Transfer", byQuote).status == "PENDING")
        _ = try sandbox.prism("Stage", stageRequest("q-c"))
        var byOwnQuote = lookup("Transfer")
        byOwnQuote["connector_quote_id"] = "q-c"  // the merchant's own quote id
        #expect(try sandbox.prism("Transfer", byOwnQuote).status == "PENDING")
        #expect(sandbox.balance() == Money("999925.00"))
    }

    @Test func transferOfAnUnknownPayoutIsNotFound() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let unknown = try sandbox.prism("Transfer", lookup("Transfer", connector: "4242"))
        #expect(unknown.code == 5 && unknown.message == PrismMessage.payoutNotFound("4242"))
        #expect(try sandbox.prism("Transfer", lookup("Transfer", merchant: "nope")).code == 5)
        #expect(try sandbox.prism("Transfer", lookup("Transfer")).code == 3)
    }

    @Test func transferOfAPayoutNotStagedIsAFailedPrecondition() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let created = try sandbox.prism("Create", createRequest())
        let notStaged = try sandbox.prism("Transfer", lookup("Transfer", connector: created.connectorPayoutID))
        #expect(notStaged.code == 9 && notStaged.message == PrismMessage.notStaged("PENDING"))
        _ = try sandbox.prism("Stage", stageRequest())
        _ = try sandbox.prism("Transfer", lookup("Transfer", merchant: "quote-1"))
        let again = try sandbox.prism("Transfer", lookup("Transfer", merchant: "quote-1"))
        #expect(again.code == 9 && again.message == PrismMessage.notStaged("PENDING"))
        #expect(sandbox.balance() == Money("999965.00"))  // 10.00 + 25.00, each debited once
    }

    @Test func aStagedPayoutIsVoidedWithoutARefund() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        _ = try sandbox.prism("Stage", stageRequest())
        #expect(try sandbox.prism("Void", lookup("Void", merchant: "quote-1")).status == "CANCELLED")
        #expect(try sandbox.prism("Transfer", lookup("Transfer", merchant: "quote-1")).code == 9)
        #expect(sandbox.balance() == Money("1000000.00"))
    }

    @Test func aTransferTheBalanceRefusesIsADeclineAndStaysStaged() throws {
        let sandbox = try startPrismSandbox(extra: [PrismMerchant.account(id: "poor", apiKey: "poor_key", balance: Money("5.00")!)])
        defer { sandbox.stop() }
        let poor: HTTPHeaders = ["x-connector": "sandbox", "x-auth": "header-key", "x-api-key": "poor_key", "x-merchant-id": "poor"]
        let staged = try sandbox.prism("Stage", stageRequest(), headers: poor)
        #expect(staged.status == "REQUIRES_FULFILLMENT")  // no debit, so no balance check yet
        let refused = try sandbox.prism("Transfer", lookup("Transfer", merchant: "quote-1"), headers: poor)
        #expect(refused.code == 0 && refused.status == "REQUIRES_FULFILLMENT")
        #expect(refused.body?.uint("status_code") == 400)
        #expect(refused.body?.message("error")?.message("connector_details")?.string("message") == PrismMessage.insufficientFunds)
        #expect(sandbox.balance("poor") == Money("5.00"))
    }
}

/// What a Transfer or a link page adds to a payout: its method, recipient and webhook URL, which
/// the scenario's rules (the magic names) then see; the admin API's `decided_by` then names them.
@Suite struct PrismExecutionDetailsTests {
    static let magicFail: JSON = [
        "kind": "magic_value", "scenario": "PayoutService magic recipient names", "rule": "FAIL", "index": 0, "outcome": .null,
        "summary": #"magic value "FAIL" (bank.rules[0] of the built-in scenario "PayoutService magic recipient names")"#,
    ]

    private func decidedBy(_ sandbox: Sandbox, _ id: String) throws -> JSON? {
        try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/cashouts/\(id)").body)["decided_by"]
    }

    @Test func aTransfersMethodRecipientAndWebhookURLJoinTheStagedPayout() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let staged = try sandbox.prism("Stage", stageRequest("quote-9"))
        #expect(try decidedBy(sandbox, staged.connectorPayoutID)?["kind"] == "default")
        var transfer = lookup("Transfer", connector: staged.connectorPayoutID)
        transfer["webhook_url"] = .string("\(sandbox.baseURL)/sandbox/sink/transfer")
        transfer["payout_method_data"] = createRequest(holder: "FAIL Bo Ek")["payout_method_data"]
        let transferred = try sandbox.prism("Transfer", transfer)
        #expect(transferred.code == 0 && transferred.status == "PENDING")
        let payout = try #require(sandbox.bank.payout(id: Int(staged.connectorPayoutID) ?? 0))
        #expect(payout.fields["method"] == "card")
        #expect(payout.fields["recipient_name"] == "FAIL Bo Ek")
        #expect(payout.callbackURL == "\(sandbox.baseURL)/sandbox/sink/transfer")
        #expect(try decidedBy(sandbox, staged.connectorPayoutID) == Self.magicFail)  // chosen again when the Transfer named the recipient
        #expect(payout.fields["transfer_request"]?.contains("\"webhookUrl\"") == true)
        sandbox.advance(by: .seconds(15))
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "quote-9")).status == "FAILED")  // the FAIL magic name
        #expect(try sandbox.sinkNotifications("transfer").map { $0["payout_status"] } == ["PENDING", "INITIATED", "FAILED"])
    }

    @Test func aDeclineRuleSeesTheTransfersAndThePagesRecipient() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let staged = try sandbox.prism("Stage", stageRequest("quote-d"))
        var transfer = lookup("Transfer", connector: staged.connectorPayoutID)
        transfer["payout_method_data"] = createRequest(holder: "DECLINE Bo")["payout_method_data"]
        let declined = try sandbox.prism("Transfer", transfer)
        #expect(declined.code == 0 && declined.status == "REQUIRES_FULFILLMENT")  // declined, and still staged
        #expect(declined.body?.uint("status_code") == 400)
        #expect(declined.body?.message("error")?.message("connector_details")?.string("code") == "card_declined")
        #expect(sandbox.balance() == Money("1000000.00"))
        #expect(sandbox.bank.payout(id: Int(staged.connectorPayoutID) ?? 0)?.fields["recipient_name"] == "Ana Lima")  // nothing added

        let link = try sandbox.prism("CreateLink", createLinkRequest())
        let url = try #require(link.response.headers["x-payout-link"])
        let local = "\(sandbox.baseURL)" + url[url.range(of: "/prism/payout-links/")!.lowerBound...]
        let refused = try TestHTTP.send(method: "POST", url: local, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                        body: Array("method=card&holder_name=DECLINE+Ana&account=4111111111111111".utf8))
        #expect(refused.status == 402)
        #expect(refused.bodyText.contains("The payout cannot be made now: The connector declined the payout."))
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "link-1")).status == "REQUIRES_PAYOUT_METHOD_DATA")
    }

    @Test func theNameEnteredOnALinkPageDecidesTheOutcome() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let created = try sandbox.prism("CreateLink", createLinkRequest())
        let url = try #require(created.response.headers["x-payout-link"])
        let local = "\(sandbox.baseURL)" + url[url.range(of: "/prism/payout-links/")!.lowerBound...]
        let sent = try TestHTTP.send(method: "POST", url: local, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                     body: Array("method=ach&holder_name=FAIL+Ana&account=123456789".utf8))
        #expect(sent.status == 200)
        let payout = try #require(sandbox.bank.payout(id: Int(created.connectorPayoutID) ?? 0))
        #expect(payout.fields["method"] == "ach" && payout.fields["recipient_name"] == "FAIL Ana")
        #expect(try decidedBy(sandbox, created.connectorPayoutID) == Self.magicFail)
        sandbox.advance(by: .seconds(15))
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "link-1")).status == "FAILED")
    }
}

/// The admin API's list filters by every status the bank has, by its name or the API's word.
@Suite struct PrismAdminFilterTests {
    @Test func stagedPayoutsAreListedByTheSandboxsNameOrPayoutServicesWord() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let staged = try sandbox.prism("Stage", stageRequest())
        _ = try sandbox.prism("Create", createRequest())
        func listed(_ status: String) throws -> [String] {
            let response = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/cashouts?status=\(status)")
            #expect(response.status == 200, "\(status): \(response.bodyText)")
            return try JSON.parse(response.body)["cashouts"]?.arrayValue?.compactMap { $0["cashout_id"]?.numberText } ?? []
        }
        #expect(try listed("STAGED") == [staged.connectorPayoutID])
        #expect(try listed("REQUIRES_FULFILLMENT") == [staged.connectorPayoutID])
        #expect(try listed("PENDING").count == 1)
        #expect(try listed("EXPIRED").isEmpty)
        let refused = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/cashouts?status=DONE")
        #expect(refused.status == 400)
        #expect(refused.bodyText.contains("REQUIRES_FULFILLMENT") && refused.bodyText.contains("STAGED"))
    }
}
