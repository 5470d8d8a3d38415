import CashoutSandbox
import SandboxBank

/// A cashout as the sandbox reports it: its ids, amount, and status under the sandbox's names
/// (`PayoutStatus.name`: a late rejection after completion is REJECTED, as in the D24 API).
public struct Cashout: Sendable, Equatable {
    /// The statuses the sandbox reports, by their names.
    public enum Status: String, Sendable, Equatable {
        case staged = "STAGED", awaitingDetails = "AWAITING_DETAILS", pending = "PENDING", onHold = "ON_HOLD"
        case delivered = "DELIVERED", completed = "COMPLETED", rejected = "REJECTED", cancelled = "CANCELLED", expired = "EXPIRED"

        init(_ status: PayoutStatus) {
            self.init(rawValue: status.name)!
        }
    }

    public let id: Int
    /// The caller's own id (D24's `external_id`); nil for APIs without one.
    public let externalID: String?
    public let merchant: String
    public let country: String?
    public let currency: String
    public let amount: Money
    public let status: Status
    /// The rejection's code as the scenario or the admin gave it (D24: "801").
    public let rejectionCode: String?
    public let bankReferenceID: String?
    /// Whether it was rejected after it had completed (and the merchant refunded).
    public let returnedAfterCompletion: Bool
    /// Every status it went through, oldest first.
    public let history: [Status]
    /// What decided its fate: a scenario's rule, a magic value, the default timeline or the
    /// admin (`decidedBy.summary` says it in words, as the admin API's `decided_by` does).
    public let decidedBy: DecidedBy
    /// The bank's full record.
    public let payout: Payout

    init(_ payout: Payout, decidedBy: DecidedBy) {
        id = payout.id
        externalID = payout.reference
        merchant = payout.account
        country = payout.country
        currency = payout.currency
        amount = payout.amount
        status = Status(payout.status)
        rejectionCode = payout.reasonCode
        bankReferenceID = payout.bankReference
        returnedAfterCompletion = payout.status == .returned
        history = payout.history.map { Status($0.status) }
        self.decidedBy = decidedBy
        self.payout = payout
    }
}
