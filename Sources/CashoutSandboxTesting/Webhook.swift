import SandboxBank

/// A notification of one status change, as the merchant's server receives it: the signed
/// D24 form and how each delivery went.
public struct Webhook: Sendable {
    /// The status the change was to (API names).
    public let status: Cashout.Status
    /// The form fields sent (`date`, `bank_reference_id`, `comments`, `external_id`, `control`,
    /// `cashout_id`, `status_reason`).
    public let form: [String: String]
    /// Delivery attempts, oldest first (empty when the cashout has no notification URL).
    public let attempts: [DeliveryAttempt]
    /// Whether an attempt got a 2xx answer.
    public let delivered: Bool

    /// `fields`: the notification's as it was sent (`Sandbox.notification`).
    init(_ notification: StatusNotification, fields: [String: String]) {
        status = Cashout.Status(notification.status)
        form = fields
        attempts = Array(notification.attempts)
        delivered = notification.state == .delivered
    }
}
