import CashoutSandbox
import SandboxBank

/// A cashout as the sandbox reports it: its ids, amount, and status under the sandbox's names
/// (`PayoutStatus.name`: a late rejection after completion is REJECTED, as in the D24 API).
public struct Cashout: Sendable, Equatable {
    /// The statuses the sandbox reports, by their names (`rawValue`: `PayoutStatus.name`, "ON_HOLD").
    public enum Status: Sendable, Equatable, CaseIterable, RawRepresentable {
        /// `STAGED`: created without a debit, waiting to be executed (PayoutService's Stage; its Transfer executes it).
        case staged
        /// `AWAITING_DETAILS`: created without a debit, waiting for the recipient's details; executed once they come.
        case awaitingDetails
        /// `PENDING`: accepted and debited, not yet sent to the bank.
        case pending
        /// `ON_HOLD`: held by the account; not processed until released.
        case onHold
        /// `DELIVERED`: sent to the bank, which is processing it.
        case delivered
        /// `COMPLETED`: the money reached the account.
        case completed
        /// `REJECTED`: refused by the bank, and refunded; also a return after completion (``Cashout/returnedAfterCompletion``).
        case rejected
        /// `CANCELLED`: cancelled by the account before it was sent; refunded when it had been debited.
        case cancelled
        /// `EXPIRED`: never executed; its time ran out while staged or awaiting details.
        case expired

        init(_ status: PayoutStatus) {
            self = Self.allCases.first { $0.payoutStatus == (status == .returned ? .rejected : status) }!
        }

        /// The bank's status of that name (a rejection after completion is `rejected` too).
        var payoutStatus: PayoutStatus {
            switch self {
            case .staged: .staged
            case .awaitingDetails: .awaitingDetails
            case .pending: .pending
            case .onHold: .onHold
            case .delivered: .delivered
            case .completed: .completed
            case .rejected: .rejected
            case .cancelled: .cancelled
            case .expired: .expired
            }
        }

        /// Its name in upper case: `"ON_HOLD"`, `"COMPLETED"`.
        public var rawValue: String { payoutStatus.name }

        /// The status of that name; nil for any other text.
        ///
        /// - Parameters:
        ///   - rawValue: A status's name, as ``rawValue`` gives it, in upper case: `"ON_HOLD"`, `"COMPLETED"`.
        public init?(rawValue: String) {
            guard let status = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
            self = status
        }
    }

    /// The sandbox's id of the payout: D24's `cashout_id`, PayoutService's `connectorPayoutId`, Mannco's `cashout_id`.
    public let id: Int
    /// The caller's own id (D24's `external_id`, PayoutService's `merchant_payout_id`); nil for APIs without one.
    public let externalID: String?
    /// The account that made it: a D24 login, a PayoutService merchant, a Mannco user.
    public let merchant: String
    /// The payout's country (`"BR"`); nil for an API without one.
    public let country: String?
    /// The payout's currency (`"BRL"`).
    public let currency: String
    /// The amount paid out, as a decimal: never a `Double`.
    public let amount: Money
    /// Where it stands in the bank's lifecycle.
    public let status: Status
    /// The status in its API's own words: D24's `COMPLETED`, PayoutService's `SUCCESS` or
    /// `REVERSED`, Mannco's `completed` (nil for an API without a word for it).
    public let apiStatus: String?
    /// The rejection's code as the scenario or the admin gave it (D24: "801").
    public let rejectionCode: String?
    /// The bank's reference of the payment, once the bank made one.
    public let bankReferenceID: String?
    /// Whether it was rejected after it had completed (and the merchant refunded).
    public let returnedAfterCompletion: Bool
    /// Every status it went through, oldest first.
    public let history: [Status]
    /// What decided its fate: a scenario's rule, a magic value, the default timeline or the
    /// admin (`decidedBy.summary` says it in words, as the admin API's `decided_by` does).
    public let decidedBy: DecidedBy
    /// The bank's full record.
    package let payout: Payout

    init(_ payout: Payout, decidedBy: DecidedBy, apiStatus: String?) {
        id = payout.id
        externalID = payout.reference
        merchant = payout.account
        country = payout.country
        currency = payout.currency
        amount = payout.amount
        status = Status(payout.status)
        self.apiStatus = apiStatus
        rejectionCode = payout.reasonCode
        bankReferenceID = payout.bankReference
        returnedAfterCompletion = payout.status == .returned
        history = payout.history.map { Status($0.status) }
        self.decidedBy = decidedBy
        self.payout = payout
    }
}
