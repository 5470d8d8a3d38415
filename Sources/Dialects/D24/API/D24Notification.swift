import SandboxBank
import SandboxCrypto
import SandboxD24Rules
import SandboxHTTP

// Notifications of spec §5: a form-encoded POST with date, bank_reference_id, comments,
// external_id, control, cashout_id and status_reason, in that order; the status itself is not
// sent (the merchant asks for it). `control`: `D24Signature.control` (spec §2.4).

/// The D24 wire format of a status notification.
public enum D24Notification {
    /// The form body (`comments` from the payout's fields), with the merchant's API signature prepared as an HMAC key, e.g.
    /// `date=2020-03-12%2020%3A26%3A11&bank_reference_id=&comments=&external_id=cashoutV35381&control=A4CF...&cashout_id=60067&status_reason=`.
    public static func formBody(_ notification: StatusNotification, key: HMACSHA256.Key) -> String {
        let externalID = notification.reference ?? ""
        return FormURLEncoding.encode([
            ("date", date(notification.changedAt)),
            ("bank_reference_id", notification.bankReference ?? ""),
            ("comments", notification.fields[D24Field.comments.jsonKey] ?? ""),
            ("external_id", externalID),
            ("control", D24Signature.control(externalID: externalID, key: key)),
            ("cashout_id", String(notification.payoutID)),
            ("status_reason", notification.statusDetail ?? ""),
        ], spaceAsPlus: false)
    }

    /// `YYYY-MM-DD HH:MM:SS` in GMT.
    static func date(_ time: VirtualTime) -> String {
        let iso = time.iso8601
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8))
    }
}
