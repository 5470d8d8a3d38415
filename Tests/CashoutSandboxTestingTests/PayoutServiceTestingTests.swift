import CashoutSandboxTesting
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The testing library's PayoutService side, as a Swift team uses it: a real Create over Connect
/// JSON (HTTP/1.1, as curl and Postman call it), then the clock, the typed payout, its webhooks as
/// the sink received them, their signature check, the balance and the ledger.
struct PayoutServiceTestingTests {
    /// A Connect JSON call to `types.PayoutService/METHOD` as `merchant` (x-merchant-id) with its API
    /// key: the HTTP status and the body.
    static func call(_ sandbox: Sandbox, _ method: String, _ body: String, merchant: String = "DefaultMerchantId",
                     apiKey: String = "sandbox_prism_key") async throws -> (status: Int, body: String) {
        var request = URLRequest(url: sandbox.baseURL.appendingPathComponent("types.PayoutService/\(method)"))
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        for (name, value) in ["Content-Type": "application/json", "x-connector": "sandbox", "x-auth": "header-key",
                              "x-api-key": apiKey, "x-merchant-id": merchant] {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// A Create's JSON: 10.00 USD to a card held by `holder` (a magic name decides the outcome).
    static func create(_ id: String, holder: String = "Ana Lima", webhookURL: String? = nil) -> String {
        #"{"merchant_payout_id":"\#(id)","amount":{"minor_amount":1000,"currency":"USD"},"destination_currency":"USD","#
            + #""payout_method_data":{"card":{"card_number":{"value":"4111111111111111"},"card_holder_name":{"value":"\#(holder)"}}}"#
            + (webhookURL.map { #","webhook_url":"\#($0)""# } ?? "") + "}"
    }

    /// What the built-in sink received: each request's body and `X-Webhook-Signature`.
    static func sink(_ sandbox: Sandbox, _ name: String) async throws -> [(body: String, signature: String?)] {
        let (data, _) = try await URLSession.shared.data(from: sandbox.baseURL.appendingPathComponent("sandbox/sink/\(name)"))
        let answer = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (answer?["requests"] as? [[String: Any]] ?? []).map { request in
            (request["body"] as? String ?? "", (request["headers"] as? [String: Any])?["x-webhook-signature"] as? String)
        }
    }

    @Test func aPayoutIsSeenThroughTheTypedAPIWithItsWebhooksAsSent() async throws {
        let sandbox = try await Sandbox.start()
        defer { sandbox.stop() }
        #expect(sandbox.payoutService.balance() == Money("1000000.00"))
        let created = try await Self.call(sandbox, "Create", Self.create("order-1", webhookURL: "\(sandbox.baseURL)/sandbox/sink/shop"))
        #expect(created.status == 200)
        #expect(created.body == #"{"connectorPayoutId":"1000001","merchantPayoutId":"order-1","payoutStatus":"PENDING","statusCode":200}"#)
        #expect(sandbox.payoutService.balance() == Money("999990.00"))
        #expect(sandbox.payoutService.payout(merchantPayoutID: "order-1")?.apiStatus == "PENDING")

        #expect(await sandbox.advance(by: .seconds(15)) == 4)  // two bank steps, two deliveries
        let payout = try #require(sandbox.payoutService.payout(merchantPayoutID: "order-1"))
        #expect(payout.id == 1_000_001 && payout.externalID == "order-1" && payout.merchant == "DefaultMerchantId")
        #expect(payout.amount == Money("10.00") && payout.currency == "USD")
        #expect(payout.status == .completed && payout.apiStatus == "SUCCESS")
        #expect(payout.history == [.pending, .delivered, .completed])
        #expect(sandbox.payoutService.payouts().map(\.externalID) == ["order-1"])

        // The webhooks as the sandbox sent them: the sink received these bodies and headers.
        let webhooks = sandbox.payoutService.webhooks(to: "order-1")
        let bodies = [
            #"{"connector_payout_id":"1000001","created_at":"2026-01-05T09:00:05Z","event_id":"evt_1","merchant_payout_id":"order-1","#
                + #""payout_status":"INITIATED"}"#,
            #"{"connector_payout_id":"1000001","created_at":"2026-01-05T09:00:15Z","event_id":"evt_2","merchant_payout_id":"order-1","#
                + #""payout_status":"SUCCESS"}"#,
        ]
        #expect(webhooks.map(\.body) == bodies)
        #expect(webhooks.map(\.status) == [.delivered, .completed])
        #expect(webhooks.map { $0.form["payout_status"] } == ["INITIATED", "SUCCESS"])
        #expect(webhooks.allSatisfy { $0.delivered && $0.attempts.count == 1 && $0.contentType == "application/json" })
        // printf %s "$BODY" | openssl dgst -sha256 -hmac sandbox_prism_key
        #expect(webhooks.first?.headers == ["X-Webhook-Signature": "sha256=303e0a01845d88325e0ae2fc1b70c01469f80434490bbcb0727fc9580ed0dd19"])
        let received = try await Self.sink(sandbox, "shop")
        #expect(received.map(\.body) == bodies)
        #expect(received.map(\.signature) == webhooks.map { $0.headers["X-Webhook-Signature"] })

        for webhook in webhooks {
            try sandbox.payoutService.verifyWebhook(body: Array(webhook.body.utf8), headers: webhook.headers)
        }
        try sandbox.payoutService.verifyWebhook(body: Data(bodies[0].utf8), headers: ["x-webhook-signature": received[0].signature ?? ""])
        #expect(try sandbox.payoutService.signature(for: Array(bodies[1].utf8)) == received[1].signature)
        #expect(sandbox.payoutService.ledger().map(\.kind) == [.debit])
    }

    @Test func aReversedPayoutIsRefundedAndSaysREVERSED() async throws {
        let sandbox = try await Sandbox.start()
        defer { sandbox.stop() }
        let created = try await Self.call(sandbox, "Create", Self.create("order-r", holder: "REVERSE Bo"))
        #expect(created.status == 200)
        await sandbox.advance(by: .days(3))
        let payout = try #require(sandbox.payoutService.payout(merchantPayoutID: "order-r"))
        #expect(payout.status == .rejected && payout.returnedAfterCompletion && payout.apiStatus == "REVERSED")
        #expect(payout.history == [.pending, .delivered, .completed, .rejected])
        #expect(sandbox.payoutService.balance() == Money("1000000.00"))
        #expect(sandbox.payoutService.ledger().map(\.kind) == [.debit, .refund])
        // No webhook_url: the notifications are made, and none was delivered.
        let webhooks = sandbox.payoutService.webhooks(to: "order-r")
        #expect(webhooks.map { $0.form["payout_status"] } == ["INITIATED", "SUCCESS", "REVERSED"])
        #expect(webhooks.allSatisfy { !$0.delivered && $0.attempts.isEmpty })
        #expect(webhooks.last?.body.contains(#""error":{"connector_details":"#) == true)
    }

    /// A scenario's merchant: its own balance, payouts and key; the default merchant's reads do
    /// not see them, and an id of another API is no PayoutService merchant.
    @Test func anotherMerchantsPayoutsAndKeyAreItsOwn() async throws {
        let sandbox = try await Sandbox.start(scenario: .json("""
            {"prism_merchants": [{"merchant_id": "globex", "api_key": "globex_key", "balance": {"USD": "50.00"}}]}
            """))
        defer { sandbox.stop() }
        let created = try await Self.call(sandbox, "Create", Self.create("g-1", webhookURL: "\(sandbox.baseURL)/sandbox/sink/globex"),
                                          merchant: "globex", apiKey: "globex_key")
        #expect(created.status == 200, "\(created.body)")
        await sandbox.advance(by: .seconds(5))
        #expect(sandbox.payoutService.balance(of: "globex") == Money("40.00"))
        #expect(sandbox.payoutService.payout(merchantPayoutID: "g-1", merchant: "globex")?.apiStatus == "INITIATED")
        #expect(sandbox.payoutService.payout(merchantPayoutID: "g-1") == nil)
        #expect(sandbox.payoutService.webhooks(to: "g-1").isEmpty)
        let webhook = try #require(sandbox.payoutService.webhooks(to: "g-1", merchant: "globex").first)
        try sandbox.payoutService.verifyWebhook(body: Array(webhook.body.utf8), headers: webhook.headers, merchant: "globex")
        // Checked with the default merchant's key, globex's webhook is not the sandbox's.
        let expected = try sandbox.payoutService.signature(for: Array(webhook.body.utf8))
        let wrongKey = #expect(throws: WebhookVerificationFailure.self) {
            try sandbox.payoutService.verifyWebhook(body: Array(webhook.body.utf8), headers: webhook.headers)
        }
        #expect(wrongKey?.reason == .wrongSignature(received: webhook.headers["X-Webhook-Signature"] ?? "", expected: expected))
        // The D24 merchant and the Mannco user are accounts, but not PayoutService merchants.
        #expect(sandbox.payoutService.balance(of: "sandbox_login") == nil)
        #expect(sandbox.payoutService.balance(of: "76561198000000001") == nil)
        #expect(sandbox.payoutService.payouts(of: "sandbox_login").isEmpty)
        #expect(sandbox.payoutService.ledger(of: "sandbox_login").isEmpty)
    }

    @Test func unknownPayoutsAndMerchantsReadAsNothing() async throws {
        let sandbox = try await Sandbox.start()
        defer { sandbox.stop() }
        _ = try await Self.call(sandbox, "Create", Self.create("order-1"))
        #expect(sandbox.payoutService.payout(merchantPayoutID: "order-2") == nil)
        #expect(sandbox.payoutService.payout(merchantPayoutID: "order-1", merchant: "nobody") == nil)
        #expect(sandbox.payoutService.webhooks(to: "order-2").isEmpty)
        #expect(sandbox.payoutService.webhooks(to: "order-1", merchant: "nobody").isEmpty)
        #expect(sandbox.payoutService.payouts(of: "nobody").isEmpty)
        #expect(sandbox.payoutService.balance(of: "nobody") == nil)
        let unsigned = #expect(throws: UnknownMerchant.self) { try sandbox.payoutService.signature(for: Array("{}".utf8), merchant: "nobody") }
        #expect(unsigned?.description == #"no merchant "nobody" in this sandbox"#)
        #expect(throws: UnknownMerchant.self) { try sandbox.payoutService.signature(for: Array("{}".utf8), merchant: "sandbox_login") }
        // A D24 read of a PayoutService id finds nothing either: the payout is not the D24 merchant's.
        #expect(sandbox.cashout(externalID: "order-1") == nil)
        #expect(sandbox.cashout(id: 1_000_001)?.apiStatus == "PENDING")
    }

    /// The check refuses what a receiver under test must refuse: a tampered body, a missing
    /// header, a signature of another key, and says why.
    @Test func aTamperedOrUnsignedWebhookFailsTheCheck() async throws {
        let sandbox = try await Sandbox.start()
        defer { sandbox.stop() }
        _ = try await Self.call(sandbox, "Create", Self.create("order-1", webhookURL: "\(sandbox.baseURL)/sandbox/sink/shop"))
        await sandbox.advance(by: .seconds(5))
        let webhook = try #require(sandbox.payoutService.webhooks(to: "order-1").first)
        let signature = try #require(webhook.headers["X-Webhook-Signature"])
        let tampered = webhook.body.replacingOccurrences(of: "INITIATED", with: "SUCCESS")
        #expect(tampered != webhook.body)
        let failure = #expect(throws: WebhookVerificationFailure.self) {
            try sandbox.payoutService.verifyWebhook(body: Array(tampered.utf8), headers: webhook.headers)
        }
        // printf %s "$TAMPERED" | openssl dgst -sha256 -hmac sandbox_prism_key
        let expected = "sha256=" + "f5268c65ccc00df75346461429bfe50e5680d12ea044cfb598348904d25aa251"
        #expect(failure?.merchant == "DefaultMerchantId")
        #expect(failure?.reason == .wrongSignature(received: signature, expected: expected))
        #expect(failure?.description == "X-Webhook-Signature \(signature) is not merchant DefaultMerchantId's signature of the body: "
                                        + "expected \(expected)")
        #expect(throws: WebhookVerificationFailure(merchant: "DefaultMerchantId", reason: .missingSignature)) {
            try sandbox.payoutService.verifyWebhook(body: Array(webhook.body.utf8), headers: ["Content-Type": "application/json"])
        }
        #expect(WebhookVerificationFailure(merchant: "DefaultMerchantId", reason: .missingSignature).description == "no X-Webhook-Signature header")
        let forged = PayoutServiceMerchants.signature(for: Array(webhook.body.utf8), apiKey: "sandbox_prism_key.stale")
        #expect(throws: WebhookVerificationFailure.self) {
            try sandbox.payoutService.verifyWebhook(body: Array(webhook.body.utf8), headers: ["X-Webhook-Signature": forged])
        }
        // Uppercase hex is another signature: the sandbox sends lowercase.
        #expect(throws: WebhookVerificationFailure.self) {
            try sandbox.payoutService.verifyWebhook(body: Array(webhook.body.utf8), headers: ["X-Webhook-Signature": signature.uppercased()])
        }
        let unknown = #expect(throws: WebhookVerificationFailure.self) {
            try sandbox.payoutService.verifyWebhook(body: Array(webhook.body.utf8), headers: webhook.headers, merchant: "nobody")
        }
        #expect(unknown?.reason == .unknownMerchant)
        #expect(unknown?.description == #"no PayoutService merchant "nobody" in this sandbox"#)
    }

    @Test func signaturesMatchOpenSSL() {
        // printf %s '{}' | openssl dgst -sha256 -hmac sandbox_prism_key
        #expect(PayoutServiceMerchants.signature(for: Array("{}".utf8), apiKey: "sandbox_prism_key")
            == "sha256=08ca03ff4d1ae723677aa20aa9a557f638d81dbfa3ead5428b09dd3a4d10643a")
        #expect(PayoutServiceMerchants.defaultMerchantID == "DefaultMerchantId")
    }
}
