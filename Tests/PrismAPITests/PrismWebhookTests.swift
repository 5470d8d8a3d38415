import CashoutSandbox
import SandboxBank
import SandboxCrypto
import SandboxHTTP
import SandboxJSON
import SandboxPrism
import TestHelpers
import Testing

/// The signed JSON notifications to `webhook_url`, received by the built-in sink.
@Suite struct PrismWebhookTests {
    /// The sink's requests, read as a client reads them (GET /sandbox/sink/NAME).
    func sinkRequests(_ sandbox: Sandbox, _ name: String) throws -> [JSON] {
        let response = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/sink/\(name)")
        return try JSON.parse(response.body)["requests"]?.arrayValue ?? []
    }

    @Test func eachStatusChangeIsPostedAsSignedJSON() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        var request = createRequest("hook-1")
        request["webhook_url"] = .string("\(sandbox.baseURL)/sandbox/sink/prism")
        let created = try sandbox.prism("Create", request)
        #expect(created.status == "PENDING")
        sandbox.advance(by: .seconds(15))
        let requests = try sinkRequests(sandbox, "prism")
        #expect(requests.count == 2)
        let id = created.connectorPayoutID
        let expected = [
            #"{"connector_payout_id":"\#(id)","created_at":"2026-01-05T09:00:05Z","event_id":"evt_1","merchant_payout_id":"hook-1","#
            + #""payout_status":"INITIATED"}"#,
            #"{"connector_payout_id":"\#(id)","created_at":"2026-01-05T09:00:15Z","event_id":"evt_2","merchant_payout_id":"hook-1","#
            + #""payout_status":"SUCCESS"}"#,
        ]
        #expect(requests.compactMap { $0["body"]?.stringValue } == expected)
        for (received, body) in zip(requests, expected) {
            #expect(received["content_type"] == "application/json")
            #expect(received["method"] == "POST")
            let signature = "sha256=" + Hex.lowercase(HMACSHA256.authenticationCode(for: body, key: DefaultMerchant.apiKey))
            #expect(received["headers"]?["x-webhook-signature"]?.stringValue == signature)
            #expect(signature == PrismWebhook.signature(body, apiKey: "sandbox_prism_key"))
        }
    }

    @Test func aFailedPayoutsNotificationCarriesItsError() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        var request = createRequest("hook-f", holder: "FAIL Ana")
        request["webhook_url"] = .string("\(sandbox.baseURL)/sandbox/sink/failing")
        _ = try sandbox.prism("Create", request)
        sandbox.advance(by: .seconds(15))
        let last = try #require(try sinkRequests(sandbox, "failing").last)
        let body = try JSON.parse(Array((last["body"]?.stringValue ?? "").utf8))
        #expect(body["payout_status"] == "FAILED")
        #expect(body["error"]?["connector_details"]?["code"] == "account_closed")
        #expect(body["error"]?["unified_details"]?["code"] == "account_closed")
        #expect(body["merchant_payout_id"] == "hook-f")
    }

    @Test func aNotificationIsRetriedOnTheCommonSchedule() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let sink = "\(sandbox.baseURL)/sandbox/sink/flaky"
        #expect(try TestHTTP.send(method: "PUT", url: sink, body: Array(#"{"answers":[500]}"#.utf8)).status == 204)
        var request = createRequest("hook-r")
        request["webhook_url"] = .string(sink)
        _ = try sandbox.prism("Create", request)
        sandbox.advance(by: .seconds(5))  // INITIATED: answered 500
        sandbox.advance(by: .seconds(300))  // retried 5 minutes later (SUCCESS meanwhile)
        let requests = try sinkRequests(sandbox, "flaky")
        let first = requests.first { $0["answered"]?.numberText == "500" }
        let retry = requests.last { $0["body"] == first?["body"] }
        #expect(first != nil && retry?["answered"]?.numberText == "200")
        #expect(retry?["headers"]?["x-webhook-signature"] == first?["headers"]?["x-webhook-signature"])
    }

    @Test func noWebhookURLSendsNothing() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        _ = try sandbox.prism("Create", createRequest("quiet"))
        sandbox.advance(by: .seconds(15))
        let journal = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/webhooks").body)
        #expect(journal["webhooks"]?[0]?["state"] == "not_sent")
    }
}
