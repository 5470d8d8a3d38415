import SandboxBank
import SandboxContract
import SandboxWire

/// A notification of one status change, as the merchant's server receives it: the signed
/// D24 form, or PayoutService's signed JSON, and how each delivery went.
public struct Webhook: Sendable {
    /// The status the change was to (API names).
    public let status: Cashout.Status
    /// The form fields sent (`date`, `bank_reference_id`, `comments`, `external_id`, `control`,
    /// `cashout_id`, `status_reason`); for a JSON body, its members' strings and numbers as text
    /// (PayoutService's `payout_status`, `event_id`...).
    public let form: [String: String]
    /// The body as it was sent, byte for byte (D24's form, PayoutService's JSON with its keys
    /// sorted); empty when its account is gone.
    public let body: String
    /// The body's media type: `application/x-www-form-urlencoded` (D24), `application/json`
    /// (PayoutService).
    public let contentType: String
    /// The header fields the API adds to the request, by name as sent: PayoutService's
    /// `X-Webhook-Signature`; none for D24, which signs inside the form (`control`).
    public let headers: [String: String]
    /// Delivery attempts, oldest first (empty when the cashout has no notification URL).
    public let attempts: [DeliveryAttempt]
    /// Whether an attempt got a 2xx answer.
    public let delivered: Bool

    /// `rendered`: the notification as it is sent (`Sandbox.notification`).
    init(_ notification: StatusNotification, rendered: RenderedNotification?) {
        status = Cashout.Status(notification.status)
        let body = rendered?.body() ?? ""
        form = rendered.map { ReceivedRequest.fields(contentType: $0.contentType, body: body) } ?? [:]
        self.body = body
        contentType = rendered?.contentType ?? ""
        headers = rendered.map { Dictionary($0.headers(body).fields, uniquingKeysWith: { first, _ in first }) } ?? [:]
        attempts = Array(notification.attempts)
        delivered = notification.state == .delivered
    }
}
