public import SandboxBank
import SandboxSupport

/// "You will receive email notifications at each stage" (Mannco.store's API docs, "Cashout"): the emails of a cashout,
/// one per status it enters (pending, processing, completed, failed, cancelled), read from the
/// bank's record of its changes, so the outbox survives a restart with the payouts.
public struct ManncoEmail: Sendable, Equatable {
    /// The address it went to: the cashout request's email, or else the user's.
    public let to: String
    /// `Your cashout #42 is complete`.
    public let subject: String
    /// The text: the amount, the payment method and what became of the cashout.
    public let body: String
    /// The cashout's id (`cashoutId`).
    public let cashoutID: Int
    /// The Mannco status the cashout entered.
    public let status: String
    /// When it was sent, in virtual time.
    public let at: VirtualTime

    /// The emails of Mannco's cashouts among `payouts`, in the order they were sent (by time, then
    /// by cashout).
    package static func outbox(of payouts: [Payout]) -> [ManncoEmail] {
        // Sorted with each email's place as the last key: a cashout's emails of one instant keep their order.
        payouts.filter { $0.dialect == ManncoDialect.name }.flatMap(emails).enumerated()
            .sorted { ($0.element.at, $0.element.cashoutID, $0.offset) < ($1.element.at, $1.element.cashoutID, $1.offset) }.map(\.element)
    }

    /// The emails of `payout` (a Mannco cashout), oldest first. A status entered again (a held
    /// cashout released is `pending` again) sends none.
    static func emails(of payout: Payout) -> [ManncoEmail] {
        let cashout = ManncoCashout(payout: payout)
        var emails: [ManncoEmail] = []
        for change in payout.history {
            let status = ManncoCashout.status(change.status)
            if emails.last?.status == status { continue }
            let (subject, text) = words(cashout, status: status, reason: change.reason)
            emails.append(ManncoEmail(to: cashout.email, subject: subject, body: text, cashoutID: payout.id, status: status, at: change.at))
        }
        return emails
    }

    private static func words(_ cashout: ManncoCashout, status: String, reason: String?) -> (subject: String, body: String) {
        let id = cashout.payout.id
        let amount = "$\(cashout.payout.amount)", method = cashout.method.provider.title
        let net = "$\(Money(hundredths: cashout.cents - cashout.fee))", fee = "$\(Money(hundredths: cashout.fee))"
        switch status {
        case "pending":
            let due = cashout.method.estimatedCompletion(from: cashout.payout.createdAt).day
            return ("We received your cashout request #\(id)",
                    "Your cashout of \(amount) to \(method) was requested. After the \(fee) fee you will receive \(net), by \(due).")
        case "processing":
            return ("Your cashout #\(id) is being processed", "\(method) is processing your cashout of \(amount). You will receive \(net).")
        case "completed":
            return ("Your cashout #\(id) is complete", "\(method) paid \(net) of your \(amount) cashout.")
        case "failed":
            return ("Your cashout #\(id) failed",
                    "\(method) could not pay your cashout of \(amount)\(reason.map { " (\($0))" } ?? ""). \(amount) was returned to your balance.")
        default:
            return ("Your cashout #\(id) was cancelled", "Your cashout of \(amount) was cancelled. \(amount) was returned to your balance.")
        }
    }

    /// As `GET /sandbox/emails` shows it.
    var json: JSON {
        ["to": .string(to), "subject": .string(subject), "body": .string(body), "cashout_id": .number(cashoutID),
         "status": .string(status), "at": .string(at.iso8601)]
    }
}
