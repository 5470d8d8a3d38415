@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxSupport
@testable import SandboxWire
@testable import SandboxPrism
import TestHelpers
import Testing

/// Webhook chaos in PayoutService's format: a forged notification carries a wrong
/// `X-Webhook-Signature` over the same body, which the sink scripted as a handler refuses; a
/// duplicate is the same `event_id`, which it answers without processing again.
@Suite struct PrismWebhookChaosTests {
    @Test func aForgedCopyIsRefusedAndADuplicateIgnoredByACarefulHandler() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let sink = "\(sandbox.baseURL)/sandbox/sink/careful"
        #expect(try TestHTTP.send(method: "PUT", url: sink, body: Array(#"{"check_signatures":true,"deduplicate":true}"#.utf8)).status == 204)
        var request = createRequest("chaos-1")
        request["webhook_url"] = .string(sink)
        let created = try sandbox.prism("Create", request)
        sandbox.advance(by: .seconds(5))
        for kind in ["forged", "duplicate"] {
            let sent = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/webhooks/1/chaos",
                                         body: Array(#"{"kind":"\#(kind)"}"#.utf8))
            #expect(sent.status == 200)
        }
        let requests = try JSON.parse(TestHTTP.send(method: "GET", url: sink).body)["requests"]?.arrayValue ?? []
        try #require(requests.count == 3)
        // The same body each time; the forged one signed with the API key followed by ".stale".
        let body = try #require(requests[0]["body"]?.stringValue)
        #expect(requests.map { $0["body"]?.stringValue } == [body, body, body])
        #expect(requests[1]["headers"]?["x-webhook-signature"]?.stringValue == PrismWebhook.signature(body, apiKey: "sandbox_prism_key.stale"))
        #expect(requests.map { $0["verdict"]?.stringValue } == ["processed", "refused", "duplicate"])
        #expect(requests.map { $0["answered"]?.numberText } == ["200", "401", "200"])
        #expect(requests[1]["reason"]?.stringValue == "X-Webhook-Signature \(PrismWebhook.signature(body, apiKey: "sandbox_prism_key.stale")) "
            + "is not the merchant's signature of the body: expected \(PrismWebhook.signature(body, apiKey: "sandbox_prism_key"))")
        #expect(requests.allSatisfy { $0["cashout_id"]?.numberText == created.connectorPayoutID && $0["status"] == "DELIVERED" })
        // The journal has the handler's answers.
        let webhook = try JSON.parse(TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/webhooks").body)["webhooks"]?[0]
        let attempts = webhook?["attempts"]?.arrayValue ?? []
        #expect(attempts.map { $0["chaos"]?["kind"]?.stringValue } == [nil, "forged", "duplicate"])
        #expect(attempts[1]["response_body"] == .string(#"{"reason":"\#(requests[1]["reason"]?.stringValue ?? "")","received":true,"#
                                                        + #""verdict":"refused"}"#))
        #expect(webhook?["state"] == "delivered")
    }
}
