package import SandboxBank
package import SandboxContract
package import SandboxWire

/// The D24 Cashouts API v3 on the dialect seam: its endpoints (`D24API`), its signed form
/// notifications (`D24Notification`), the create fields scenario rules match, and the built-in
/// scenario with its magic values.
package struct D24Dialect: Dialect {
    /// What its payouts record as their dialect.
    package static let name = "d24"
    package var name: String { Self.name }
    package var operations: [APIOperation] { D24Operation.all }
    /// Prepared HMAC keys, shared by the endpoints and the notifications.
    let keys = D24SigningKeys()

    package init() {}

    package func register(in router: inout Router, bank: Bank) {
        D24API(bank: bank, keys: keys).register(in: &router)
    }

    package func notification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification? {
        rendered(notification, bank: bank, forged: false)
    }

    /// Its `control` made with a wrong secret.
    package func forgedNotification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification? {
        rendered(notification, bank: bank, forged: true)
    }

    private func rendered(_ notification: StatusNotification, bank: Bank, forged: Bool) -> RenderedNotification? {
        guard let secret = bank.account(id: notification.account, { D24Merchant($0).secret }) else { return nil }
        let keys = keys
        return RenderedNotification(contentType: "application/x-www-form-urlencoded") {
            D24Notification.formBody(notification, key: keys.key(secret: forged ? RenderedNotification.forgedKey(secret) : secret))
        }
    }

    /// A form with `control` and `cashout_id`: its control checked against the merchant's.
    package func readNotification(_ received: ReceivedRequest, bank: Bank) -> ReceivedNotification? {
        D24Notification.read(received, bank: bank, keys: keys)
    }

    /// 807 ERROR_REJECTED_BY_BANK, or 826 WITHDRAWAL_REVERSED after completion; a given code's name on D24's "API Codes" page.
    package func forcedRejection(code: String?, afterCompletion: Bool) -> (code: String, reason: String)? {
        let number = code.flatMap { Int($0) } ?? (afterCompletion ? 826 : 807)
        return (String(number), D24RejectionCodes.name(number))
    }

    package func answeredRejection(code: String?, reason: String?) -> (code: String?, reason: String?) {
        let (code, reason) = D24Status.rejection(code: code, reason: reason)
        return (code, reason)
    }

    /// Its merchants: the `merchants` section, `/sandbox/accounts/d24/{login}`.
    package var accounts: AccountKind? { D24Merchant.kind }
}
