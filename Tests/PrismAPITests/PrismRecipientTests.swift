@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxPrism
import TestHelpers
import Testing

/// A CreateRecipient request for a customer named `name`.
func createRecipientRequest(name: String, type: String = "INDIVIDUAL") -> ProtoMessage {
    var customer = prismRegistry.message("types.Customer")
    customer["name"] = .string(name)
    var request = prismRegistry.message("types.PayoutServiceCreateRecipientRequest")
    request["merchant_payout_id"] = "recipient-order"
    request["customer"] = .message(customer)
    request["recipient_type"] = .string(type)
    return request
}

/// An EnrollDisburseAccount request for a SEPA account of `recipient` (a CreateRecipient's id).
func enrollRequest(recipient: String?, withMethod: Bool = true) -> ProtoMessage {
    var request = prismRegistry.message("types.PayoutServiceEnrollDisburseAccountRequest")
    if withMethod {
        var sepa = prismRegistry.message("types.SepaBankTransferPayout")
        var iban = prismRegistry.message("types.SecretString")
        iban["value"] = "DE89370400440532013000"
        sepa["iban"] = .message(iban)
        var method = prismRegistry.message("types.PayoutMethod")
        method["sepa"] = .message(sepa)
        request["payout_method_data"] = .message(method)
    }
    if let recipient {
        var customer = prismRegistry.message("types.Customer")
        customer["connector_customer_id"] = .string(recipient)
        request["customer"] = .message(customer)
    }
    return request
}

/// CreateRecipient → EnrollDisburseAccount → Create, Prism's sample flow; the merchants' admin
/// API; `require_auth: false`; the INELIGIBLE magic name; the request kept on the payout.
@Suite struct PrismRecipientTests {
    @Test func aRecipientsEnrolledAccountIsWhatALaterCreatePaysOutTo() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let recipient = try sandbox.prism("CreateRecipient", createRecipientRequest(name: "FAIL Ana Lima"))
        #expect(recipient.code == 0)
        #expect(recipient.connectorPayoutID == "rcp_000001")
        #expect(recipient.status == "REQUIRES_VENDOR_ACCOUNT_CREATION")
        #expect(recipient.body?.string("merchant_payout_id") == "recipient-order")
        #expect(recipient.body?.uint("status_code") == 200)
        #expect(try sandbox.prism("CreateRecipient", createRecipientRequest(name: "Bo")).connectorPayoutID == "rcp_000002")
        #expect(sandbox.balance() == Money("1000000.00"))  // no money moves

        let noMethod = try sandbox.prism("EnrollDisburseAccount", enrollRequest(recipient: "rcp_000001", withMethod: false))
        #expect(noMethod.code == 3 && noMethod.message == "Missing required field: payout_method_data")
        let enrolled = try sandbox.prism("EnrollDisburseAccount", enrollRequest(recipient: "rcp_000001"))
        #expect(enrolled.code == 0)
        #expect(enrolled.connectorPayoutID == "pm_000001")
        #expect(enrolled.status == "REQUIRES_CREATION")

        // The Create pays out to the enrolled SEPA account of "FAIL Ana Lima": the magic name fails it.
        var create = createRequest("order-enrolled", withMethod: false)
        create["connector_payout_method_id"] = "pm_000001"
        let created = try sandbox.prism("Create", create)
        #expect(created.code == 0 && created.status == "PENDING")
        #expect(sandbox.balance() == Money("999990.00"))
        let payout = try #require(sandbox.bank.payout(id: Int(created.connectorPayoutID) ?? 0))
        #expect(payout.fields["method"] == "sepa")
        #expect(payout.fields["recipient_name"] == "FAIL Ana Lima")
        #expect(payout.fields["connector_payout_method_id"] == "pm_000001")
        sandbox.advance(by: .seconds(15))
        #expect(try sandbox.prism("Get", lookup("Get", connector: created.connectorPayoutID)).status == "FAILED")
        #expect(sandbox.balance() == Money("1000000.00"))  // refunded
    }

    /// A connector refuses a method it never stored: an id the sandbox did not hand out, or one
    /// another merchant enrolled, is NOT_FOUND naming the id, on Create and on Transfer, and no
    /// money moves.
    @Test func aMethodIdNeverEnrolledForTheMerchantIsNotFound() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        var unknown = createRequest("order-unknown-method", withMethod: false)
        unknown["connector_payout_method_id"] = "pm_123"
        let refused = try sandbox.prism("Create", unknown)
        #expect(refused.code == 5 && refused.message == PrismMessage.payoutMethodNotFound("pm_123"))
        #expect(refused.message == "Payout method not found: pm_123")
        var withData = createRequest("order-data-and-unknown-method")  // payout_method_data does not excuse a wrong id
        withData["connector_payout_method_id"] = "pm_123"
        #expect(try sandbox.prism("Create", withData).code == 5)

        let put = try TestHTTP.send(method: "PUT", url: "\(sandbox.baseURL)/sandbox/prism-merchants/acme",
                                    body: Array(#"{"api_key":"acme_key","balance":"250.00"}"#.utf8))
        #expect(put.status == 201)
        var acme = defaultAuth
        acme["x-merchant-id"] = "acme"
        acme["x-api-key"] = "acme_key"
        #expect(try sandbox.prism("EnrollDisburseAccount", enrollRequest(recipient: nil), headers: acme).connectorPayoutID == "pm_000001")
        var others = createRequest("order-others-method", withMethod: false)
        others["connector_payout_method_id"] = "pm_000001"
        let notOurs = try sandbox.prism("Create", others)
        #expect(notOurs.code == 5 && notOurs.message == "Payout method not found: pm_000001")
        #expect(try sandbox.prism("Create", others, headers: acme).status == "PENDING")

        let staged = try sandbox.prism("Stage", stageRequest())
        #expect(staged.status == "REQUIRES_FULFILLMENT")
        var transfer = prismRegistry.message("types.PayoutServiceTransferRequest")
        transfer["connector_payout_id"] = .string(staged.connectorPayoutID)
        transfer["connector_payout_method_id"] = "pm_000001"
        let transferRefused = try sandbox.prism("Transfer", transfer)
        #expect(transferRefused.code == 5 && transferRefused.message == "Payout method not found: pm_000001")
        #expect(sandbox.bank.payout(id: Int(staged.connectorPayoutID) ?? 0)?.status == .staged)
        #expect(sandbox.balance() == Money("1000000.00"))
    }

    @Test func aMerchantKeepsAThousandRecipients() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        for _ in 0 ..< 1000 { _ = try sandbox.prism("CreateRecipient", createRecipientRequest(name: "Ana")) }
        let full = try sandbox.prism("CreateRecipient", createRecipientRequest(name: "Ana"))
        #expect(full.code == 8)
        #expect(full.message == "The sandbox keeps at most 1000 recipients per merchant: reset the sandbox or use another merchant")
        #expect(try sandbox.prism("EnrollDisburseAccount", enrollRequest(recipient: "rcp_001000")).connectorPayoutID == "pm_000001")
    }

    @Test func theAdminAPIShowsRecipientsAndAccountsAndMakesMerchants() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        _ = try sandbox.prism("CreateRecipient", createRecipientRequest(name: "Ana Lima", type: "COMPANY"))
        _ = try sandbox.prism("EnrollDisburseAccount", enrollRequest(recipient: "rcp_000001"))
        let listed = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/prism-merchants")
        #expect(listed.status == 200)
        let merchant = try #require(try JSON.parse(listed.body)["merchants"]?[0])
        #expect(merchant["merchant_id"] == "DefaultMerchantId")
        #expect(merchant["api_key"] == "sandbox_prism_key")
        #expect(merchant["balance"] == "1000000.00")
        #expect(merchant["require_auth"] == true)
        #expect(merchant["recipients"] == ["rcp_000001": ["name": "Ana Lima", "recipient_type": "COMPANY"]])
        #expect(merchant["payout_methods"] == ["pm_000001": ["method": "sepa", "recipient_name": "Ana Lima", "recipient": "rcp_000001"]])

        let url = "\(sandbox.baseURL)/sandbox/prism-merchants/acme"
        let made = try TestHTTP.send(method: "PUT", url: url, body: Array(#"{"api_key":"acme_key","balance":"250.00","currency":"EUR"}"#.utf8))
        #expect(made.status == 201)
        #expect(try JSON.parse(made.body)["balance"] == "250.00")
        var headers = defaultAuth
        headers["x-merchant-id"] = "acme"
        headers["x-api-key"] = "acme_key"
        let paid = try sandbox.prism("Create", createRequest(minor: 1000, currency: "EUR"), headers: headers)
        #expect(paid.code == 0 && paid.status == "PENDING")
        #expect(sandbox.balance("acme") == Money("240.00"))

        let limited = try TestHTTP.send(method: "PUT", url: url, body: Array(#"{"limits":{"transaction":"5.00"}}"#.utf8))
        let limitedJSON = try JSON.parse(limited.body)
        #expect(limited.status == 200 && limitedJSON["limits"]?["transaction"] == "5.00")
        let over = try sandbox.prism("Create", createRequest("order-big", minor: 600, currency: "EUR"), headers: headers)
        #expect(over.status == "FAILED" && over.body?.message("error")?.message("connector_details")?.string("code") == "limit_exceeded")
        let badLimit = try TestHTTP.send(method: "PUT", url: url, body: Array(#"{"limits":{"daily":"lots"}}"#.utf8))
        #expect(badLimit.status == 400 && badLimit.bodyText.contains("limits.daily: expected a decimal amount or null"))
        let unknown = try TestHTTP.send(method: "PUT", url: url, body: Array(#"{"apikey":"x"}"#.utf8))
        #expect(unknown.status == 400 && unknown.bodyText.contains("apikey: unknown field"))
        let keyless = try TestHTTP.send(method: "PUT", url: "\(sandbox.baseURL)/sandbox/prism-merchants/new", body: Array("{}".utf8))
        #expect(keyless.status == 400 && keyless.bodyText.contains("a new merchant needs \\\"api_key\\\""))
        let badFlag = try TestHTTP.send(method: "PUT", url: url, body: Array(#"{"require_auth":"no"}"#.utf8))
        #expect(badFlag.status == 400 && badFlag.bodyText.contains("require_auth: expected true or false"))
        let notOurs = try TestHTTP.send(method: "PUT", url: "\(sandbox.baseURL)/sandbox/prism-merchants/sandbox_login",
                                        body: Array("{}".utf8))
        #expect(notOurs.status == 400)
    }

    @Test func aMerchantThatRequiresNoAuthTakesCallsWithoutMetadata() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        #expect(try sandbox.prism("Get", lookup("Get", connector: "1000001"), headers: [:]).message == "Missing required field: x-connector")
        let opened = try TestHTTP.send(method: "PUT", url: "\(sandbox.baseURL)/sandbox/prism-merchants/DefaultMerchantId",
                                       body: Array(#"{"require_auth":false}"#.utf8))
        #expect(opened.status == 200)
        let created = try sandbox.prism("Create", createRequest(), headers: [:])
        #expect(created.code == 0 && created.connectorPayoutID == "1000001")
        #expect(sandbox.bank.payout(id: 1_000_001)?.fields["connector"] == "sandbox")
        let got = try sandbox.prism("Get", lookup("Get", connector: "1000001"), headers: [:])
        #expect(got.code == 0 && got.status == "PENDING")
        #expect(try sandbox.prism("Get", lookup("Get", connector: "1000001"), headers: ["x-connector": "nope"]).code == 3)
        let withStripe = try sandbox.prism("Create", createRequest("order-2"), headers: ["x-connector": "Stripe", "x-api-key": "wrong"])
        #expect(withStripe.code == 0)
        #expect(sandbox.bank.payout(id: 1_000_002)?.fields["connector"] == "stripe")
    }

    @Test func theIneligibleMagicNameIsAnIneligibleDeclineInsideAnOKResponse() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let answer = try sandbox.prism("Create", createRequest(holder: "INELIGIBLE Ana"))
        #expect(answer.code == 0)
        #expect(answer.status == "INELIGIBLE")
        #expect(answer.body?.uint("status_code") == 400)
        #expect(answer.body?.message("error")?.message("connector_details")?.string("code") == "payout_method_ineligible")
        #expect(sandbox.balance() == Money("1000000.00"))
    }

    @Test func fieldsTheSandboxDoesNotUseAreKeptOnThePayout() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        var request = createRequest()
        var browser = prismRegistry.message("types.BrowserInformation")
        browser["user_agent"] = "Mozilla/5.0"
        request["browser_info"] = .message(browser)
        let created = try sandbox.prism("Create", request)
        let record = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/cashouts/\(created.connectorPayoutID)").body)
        let kept = try JSON.parse(Array(try #require(record["fields"]?["request"]?.stringValue).utf8))
        #expect(kept["browserInfo"]?["userAgent"] == "Mozilla/5.0")
        #expect(kept["merchantPayoutId"] == "order-1")
        #expect(kept["amount"] == ["minorAmount": "1000", "currency": "USD"])
    }
}
