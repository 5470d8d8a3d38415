@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxPrism
import TestHelpers
import Testing
import Foundation

/// A CreateLink request: the Create request's fields without a method.
func createLinkRequest(_ merchantPayoutID: String = "link-1", minor: Int64 = 4000, webhook: String? = nil) -> ProtoMessage {
    let create = createRequest(merchantPayoutID, minor: minor, withMethod: false)
    var request = prismRegistry.message("types.PayoutServiceCreateLinkRequest")
    for name in ["merchant_payout_id", "amount", "destination_currency"] { request[name] = create[name] }
    if let webhook { request["webhook_url"] = .string(webhook) }
    return request
}

/// CreateLink: REQUIRES_PAYOUT_METHOD_DATA, the recipient's page, then the payout goes on or expires.
@Suite struct PrismLinkTests {
    func link(_ sandbox: Sandbox, _ answer: PrismAnswer) throws -> String {
        let url = try #require(answer.response.headers["x-payout-link"])
        #expect(url.hasPrefix("http://"))
        return url
    }

    /// The link as this sandbox serves it (the test's calls carry no Host: `localhost`).
    func local(_ sandbox: Sandbox, _ url: String) -> String {
        "\(sandbox.baseURL)" + url[url.range(of: "/prism/payout-links/")!.lowerBound...]
    }

    @Test func theRecipientsDetailsOnThePageExecuteThePayout() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let created = try sandbox.prism("CreateLink", createLinkRequest(webhook: "\(sandbox.baseURL)/sandbox/sink/links"))
        #expect(created.code == 0 && created.status == "REQUIRES_PAYOUT_METHOD_DATA")
        #expect(created.body?.string("merchant_payout_id") == "link-1")
        #expect(sandbox.balance() == Money("1000000.00"))  // no debit yet
        let url = try link(sandbox, created)
        #expect(url.contains("/prism/payout-links/lnk_"))

        // The admin API's payout record shows the link.
        let record = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/cashouts/\(created.connectorPayoutID)").body)
        #expect(record["fields"]?["payout_link"]?.stringValue == url)
        #expect(record["fields"]?["payout_link_expires_at"] == "2026-01-06T09:00:00Z")

        let page = try TestHTTP.send(method: "GET", url: local(sandbox, url))
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.bodyText.contains("<form method=\"post\" action=\"\(url[url.range(of: "/prism/payout-links/")!.lowerBound...])\""))
        #expect(page.bodyText.contains("USD 40.00") && page.bodyText.contains("name=\"holder_name\""))

        let missing = try TestHTTP.send(method: "POST", url: local(sandbox, url), headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                        body: Array("method=card".utf8))
        #expect(missing.status == 400)
        let sent = try TestHTTP.send(method: "POST", url: local(sandbox, url), headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                     body: Array("method=sepa&holder_name=Ana+Lima&account=DE89370400440532013000".utf8))
        #expect(sent.status == 200 && sent.bodyText.contains("Payout on its way"))
        #expect(sandbox.balance() == Money("999960.00"))
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "link-1")).status == "PENDING")
        sandbox.advance(by: .seconds(15))
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "link-1")).status == "SUCCESS")
        #expect(try TestHTTP.send(method: "GET", url: local(sandbox, url)).status == 410)  // used
        #expect(try sandbox.sinkNotifications("links").map { $0["payout_status"] } == ["PENDING", "INITIATED", "SUCCESS"])
    }

    @Test func aLinkNotUsedWithinADayExpires() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let created = try sandbox.prism("CreateLink", createLinkRequest(webhook: "\(sandbox.baseURL)/sandbox/sink/expiry"))
        let url = try link(sandbox, created)
        let record = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/cashouts/\(created.connectorPayoutID)").body)
        #expect(record["scheduled"]?[0]?["status"] == "EXPIRED" && record["scheduled"]?[0]?["at"] == "2026-01-06T09:00:00Z")
        #expect(record["scheduled"]?.arrayValue?.count == 1)
        sandbox.advance(by: .seconds(24 * 3600 - 1))
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "link-1")).status == "REQUIRES_PAYOUT_METHOD_DATA")
        sandbox.advance(by: .seconds(1))
        // The bank expires it on time, and says so, without anyone looking at it.
        #expect(sandbox.bank.payout(account: DefaultMerchant.id, reference: "link-1")?.status == .expired)
        let bodies = try sandbox.sinkRequests("expiry").compactMap { $0["body"]?.stringValue }
        #expect(bodies == [#"{"connector_payout_id":"\#(created.connectorPayoutID)","created_at":"2026-01-06T09:00:00Z","event_id":"evt_1","#
                           + #""merchant_payout_id":"link-1","payout_status":"EXPIRED"}"#])
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "link-1")).status == "EXPIRED")
        #expect(try TestHTTP.send(method: "GET", url: local(sandbox, url)).status == 410)
        let late = try TestHTTP.send(method: "POST", url: local(sandbox, url), headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                     body: Array("method=card&holder_name=Ana&account=4111111111111111".utf8))
        #expect(late.status == 410)
        #expect(sandbox.balance() == Money("1000000.00"))
    }

    @Test func anExpiredLinksPageIsGone() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let url = try link(sandbox, try sandbox.prism("CreateLink", createLinkRequest()))
        sandbox.advance(by: .seconds(25 * 3600))
        #expect(try TestHTTP.send(method: "GET", url: local(sandbox, url)).status == 410)
        #expect(sandbox.bank.payout(account: DefaultMerchant.id, reference: "link-1")?.status == .expired)
    }

    @Test func createLinkIsIdempotentAndUnknownLinksAreNotFound() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let first = try sandbox.prism("CreateLink", createLinkRequest())
        let second = try sandbox.prism("CreateLink", createLinkRequest(minor: 1))
        #expect(second.connectorPayoutID == first.connectorPayoutID)
        #expect(second.response.headers["x-payout-link"] == first.response.headers["x-payout-link"])
        #expect(try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/prism/payout-links/lnk_nope").status == 404)
        #expect(try sandbox.prism("Transfer", lookup("Transfer", merchant: "link-1")).code == 9)  // not staged
        #expect(try sandbox.prism("Void", lookup("Void", merchant: "link-1")).status == "CANCELLED")
        #expect(try TestHTTP.send(method: "GET", url: local(sandbox, first.response.headers["x-payout-link"] ?? "")).status == 410)
    }
}
