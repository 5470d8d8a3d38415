import SandboxBank
import SandboxSupport
import SandboxContract
import SandboxWire

// Notifications (D24's Cashouts docs (docs.d24.com), "Notifications"): a form-encoded POST with date, bank_reference_id, comments,
// external_id, control, cashout_id and status_reason, in that order; the status itself is not
// sent (the merchant asks for it). `control`: `D24Signature.control` (the same page).

/// The D24 wire format of a status notification.
enum D24Notification {
    /// The form body (`comments` from the payout's fields), with the merchant's API signature prepared as an HMAC key, e.g.
    /// `date=2020-03-12%2020%3A26%3A11&bank_reference_id=&comments=&external_id=cashoutV35381&control=A4CF...&cashout_id=60067&status_reason=`.
    static func formBody(_ notification: StatusNotification, key: HMACSHA256.Key) -> String {
        let externalID = notification.reference ?? ""
        return FormURLEncoding.encode([
            ("date", date(notification.changedAt)),
            ("bank_reference_id", notification.bankReference ?? ""),
            ("comments", notification.fields[D24Field.comments.wireName] ?? ""),
            ("external_id", externalID),
            ("control", D24Signature.control(externalID: externalID, key: key)),
            ("cashout_id", String(notification.payoutID)),
            ("status_reason", notification.statusDetail ?? ""),
        ], spaceAsPlus: false)
    }

    /// What a merchant's handler can tell from a form it received: the cashout, whether `control`
    /// is the merchant's, and the status it reports (the payout's change at `date`: the form does
    /// not name it; of two changes in the same second, the later). Its identity is the whole form
    /// (a duplicate or a replay is the same form). nil when it is not a D24 notification.
    static func read(_ received: ReceivedRequest, bank: Bank, keys: D24SigningKeys) -> ReceivedNotification? {
        guard received.contentType?.hasPrefix("application/x-www-form-urlencoded") == true else { return nil }
        let fields = received.fields
        guard let control = fields["control"], let cashoutID = fields["cashout_id"] else { return nil }
        guard let id = Int(cashoutID), let payout = bank.payout(id: id), payout.dialect == D24Dialect.name,
              let secret = bank.account(id: payout.account, { D24Merchant($0).secret }) else {
            return ReceivedNotification(payoutID: Int(cashoutID) ?? 0, status: nil, identity: received.body, problem: "no D24 cashout \(cashoutID)")
        }
        let expected = D24Signature.control(externalID: fields["external_id"] ?? "", key: keys.key(secret: secret))
        let status = payout.history.dropFirst().last { date($0.at) == fields["date"] }?.status
        return ReceivedNotification(payoutID: id, status: status, identity: received.body, problem: constantTimeEquals(control, expected)
            ? nil : "control \(control) is not the merchant's for external_id \(fields["external_id"] ?? ""): expected \(expected)")
    }

    /// `YYYY-MM-DD HH:MM:SS` in GMT.
    static func date(_ time: VirtualTime) -> String {
        let iso = time.iso8601
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8))
    }
}
