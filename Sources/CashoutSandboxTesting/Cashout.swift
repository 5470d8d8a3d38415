import SandboxBank

/// A cashout as the D24 API reports it: its ids, amount, and status under the API's names
/// (a late rejection after completion is REJECTED there, as it is here).
public struct Cashout: Sendable, Equatable {
    /// The statuses the API reports.
    public enum Status: String, Sendable, Equatable {
        case pending = "PENDING", onHold = "ON_HOLD", delivered = "DELIVERED", completed = "COMPLETED"
        case rejected = "REJECTED", cancelled = "CANCELLED"
    }

    public let id: Int
    public let externalID: String
    public let merchant: String
    public let country: String
    public let currency: String
    public let amount: Money
    public let status: Status
    public let rejectionCode: Int?
    public let bankReferenceID: String?
    /// Whether it was rejected after it had completed (and the merchant refunded).
    public let returnedAfterCompletion: Bool
    /// Every status it went through, oldest first.
    public let history: [Status]
    /// The bank's full record.
    public let payout: Payout

    init(_ payout: Payout) {
        id = payout.id
        externalID = payout.reference
        merchant = payout.merchant
        country = payout.country
        currency = payout.currency
        amount = payout.amount
        status = Status(payout.status)
        rejectionCode = payout.rejectionCode
        bankReferenceID = payout.bankReferenceID
        returnedAfterCompletion = payout.status == .returned
        history = payout.history.map { Status($0.status) }
        self.payout = payout
    }
}

extension Cashout.Status {
    init(_ status: PayoutStatus) {
        switch status {
        case .pending: self = .pending
        case .onHold: self = .onHold
        case .delivered: self = .delivered
        case .completed: self = .completed
        case .rejected, .returned: self = .rejected  // the API reports a return as REJECTED
        case .cancelled: self = .cancelled
        }
    }
}
