package import SandboxBank
import SandboxSupport
import SandboxContract
import SandboxWire

// PayoutService notifications (the PayoutService guide, "Webhooks").
// Prism itself has no outgoing webhook for payouts; the sandbox's decision is a JSON POST to the
// Create's `webhook_url` on each status change:
//
//   {"connector_payout_id":"42","created_at":"2026-01-05T09:00:05Z","event_id":"evt_7",
//    "merchant_payout_id":"order-1","payout_status":"INITIATED"}
//
// keys sorted (the sandbox's JSON writer), `merchant_payout_id` null for a payout created without
// one, `error` only for FAILED and REVERSED (as the `ErrorInfo` of the gRPC responses, by proto
// field names), `event_id` the notification's id (the same on every retry and redelivery, so a
// receiver can drop duplicates), `created_at` when the status changed on the virtual clock. Header
// `X-Webhook-Signature: sha256=<hex>`: the lowercase hex HMAC-SHA256 of the body's bytes keyed
// with the merchant's API key.

/// The PayoutService wire format of a status notification.
package enum PrismWebhook {
    /// The signature header's name.
    package static let signatureHeader = "X-Webhook-Signature"

    /// The notification (`forged`: signed with a wrong key): nil when its merchant is gone.
    static func rendered(_ notification: StatusNotification, bank: Bank, forged: Bool = false) -> RenderedNotification? {
        guard let apiKey = bank.account(id: notification.account).map({ PrismMerchant($0).apiKey }) else { return nil }
        let key = HMACSHA256.Key(forged ? RenderedNotification.forgedKey(apiKey) : apiKey)
        // The reason of a FAILED or REVERSED payout: both are final, so the payout's reason is
        // the one this change brought whenever the body is rendered.
        let reason = bank.payout(id: notification.payoutID).flatMap { payout in
            PrismPayout.failure(notification.status, code: payout.reasonCode, reason: payout.reason)
        }
        return RenderedNotification(contentType: "application/json", headers: { body in [signatureHeader: signature(body, key: key)] }) {
            body(notification, reason: reason)
        }
    }

    /// The JSON body.
    package static func body(_ notification: StatusNotification, reason: (code: String, message: String)?) -> String {
        var members: [String: JSON] = [
            "merchant_payout_id": notification.reference.map(JSON.string) ?? .null,
            "connector_payout_id": .string(String(notification.payoutID)),
            "payout_status": .string(PrismPayout.status(notification.status)),
            "event_id": .string(eventID(notification.id)),
            "created_at": .string(notification.changedAt.iso8601),
        ]
        if let reason { members["error"] = error(code: reason.code, message: reason.message) }
        return JSON.object(members).serializedString()
    }

    /// What a merchant's handler can tell from a body it received: the payout, whether the
    /// signature header is the merchant's, and the status (the notification `event_id` names).
    /// Its identity is `event_id`. nil when it is not a PayoutService notification.
    static func read(_ received: ReceivedRequest, bank: Bank) -> ReceivedNotification? {
        guard received.contentType?.hasPrefix("application/json") == true,
              case .object(let members)? = try? JSON.parse(Array(received.body.utf8)),
              let event = members["event_id"]?.stringValue, let payoutID = members["connector_payout_id"]?.stringValue else { return nil }
        guard let id = Int(payoutID), let payout = bank.payout(id: id), payout.dialect == PrismDialect.name,
              let apiKey = bank.account(id: payout.account).map({ PrismMerchant($0).apiKey }) else {
            return ReceivedNotification(payoutID: Int(payoutID) ?? 0, status: nil, identity: event, problem: "no PayoutService payout \(payoutID)")
        }
        let status = (event.hasPrefix("evt_") ? Int(event.dropFirst(4)) : nil).flatMap { bank.notification(id: $0) }
            .flatMap { $0.payoutID == id ? $0.status : nil }
        let expected = signature(received.body, apiKey: apiKey)
        let problem: String? = switch received.headers[signatureHeader] {
        case nil: "no \(signatureHeader) header"
        case let sent? where constantTimeEquals(sent, expected): nil
        case let sent?: "\(signatureHeader) \(sent) is not the merchant's signature of the body: expected \(expected)"
        }
        return ReceivedNotification(payoutID: id, status: status, identity: event, problem: problem)
    }

    /// `evt_` and the notification's id.
    static func eventID(_ notificationID: Int) -> String { "evt_\(notificationID)" }

    /// `sha256=` and the lowercase hex HMAC-SHA256 of `body` keyed with the API key.
    package static func signature(_ body: String, apiKey: String) -> String { signature(body, key: HMACSHA256.Key(apiKey)) }

    /// The same over a body's exact bytes (`cashout-sandbox sign --api prism`, the testing library's check).
    package static func signature(of body: some Collection<UInt8>, apiKey: String) -> String {
        "sha256=" + Hex.lowercase(HMACSHA256.authenticationCode(for: body, key: HMACSHA256.Key(apiKey)))
    }

    static func signature(_ body: String, key: HMACSHA256.Key) -> String {
        "sha256=" + Hex.lowercase(HMACSHA256.authenticationCode(for: body, key: key))
    }

    /// `ErrorInfo` as JSON: `connector_details {code, message, reason}`, `unified_details {code, message}`.
    static func error(code: String, message: String) -> JSON {
        ["connector_details": ["code": .string(code), "message": .string(message), "reason": .string(message)],
         "unified_details": ["code": .string(code), "message": .string(message)]]
    }
}
