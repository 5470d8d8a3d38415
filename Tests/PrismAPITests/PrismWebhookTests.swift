@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxSupport
@testable import SandboxWire
@testable import SandboxPrism
import TestHelpers
import Testing

/// The signed JSON notifications to `webhook_url`, received by the built-in sink.
@Suite struct PrismWebhookTests {
    @Test func eachStatusChangeIsPostedAsSignedJSON() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        var request = createRequest("hook-1")
        request["webhook_url"] = .string("\(sandbox.baseURL)/sandbox/sink/prism")
        let created = try sandbox.prism("Create", request)
        #expect(created.status == "PENDING")
        sandbox.advance(by: .seconds(15))
        let requests = try sandbox.sinkRequests("prism")
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

    /// A FAILED payout's notification, and a late REVERSED one's, carry their error; event ids are
    /// the sandbox's, one each, across payouts.
    @Test func aFailedOrReversedPayoutsNotificationCarriesItsError() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        for (id, holder) in [("hook-f", "FAIL Ana"), ("hook-r", "REVERSE Ana")] {
            var request = createRequest(id, holder: holder)
            request["webhook_url"] = .string("\(sandbox.baseURL)/sandbox/sink/\(id)")
            _ = try sandbox.prism("Create", request)
        }
        sandbox.advance(by: .seconds(15))
        sandbox.advance(by: .seconds(2 * 24 * 3600))
        let failing = try sandbox.sinkNotifications("hook-f"), reversing = try sandbox.sinkNotifications("hook-r")
        #expect(failing.map { $0["payout_status"] } == ["INITIATED", "FAILED"])
        #expect(reversing.map { $0["payout_status"] } == ["INITIATED", "SUCCESS", "REVERSED"])
        for (last, code) in [(failing.last, "account_closed"), (reversing.last, "payout_returned")] {
            let body = try #require(last)
            #expect(body.objectValue.map { Set($0.keys) }
                    == ["merchant_payout_id", "connector_payout_id", "payout_status", "event_id", "created_at", "error"])
            #expect(body["error"]?["connector_details"]?["code"]?.stringValue == code)
            #expect(body["error"]?["unified_details"]?["code"]?.stringValue == code)
        }
        #expect(failing.last?["merchant_payout_id"] == "hook-f")
        let events = (failing + reversing).compactMap { $0["event_id"]?.stringValue }
        #expect(events.count == 5 && Set(events).count == 5)
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
        let requests = try sandbox.sinkRequests("flaky")
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
