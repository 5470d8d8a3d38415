/// A payout (a "cashout") as the bank keeps it: what was asked, where it stands, and how it got
/// there.
public struct Payout: Sendable, Equatable {
    /// The sandbox's id, unique across merchants.
    public let id: Int
    /// The API that created it (`PayoutRequest.dialect`).
    public let dialect: String
    /// The merchant's login.
    public let merchant: String
    /// The merchant's own id, unique per merchant.
    public let reference: String
    public let country: String
    /// The currency of `amount`.
    public let currency: String
    /// The amount asked for, in `currency`.
    public let amount: Money
    /// What was debited, in the merchant's settlement currency.
    public let settlementAmount: Money
    /// The request's own fields, by their wire names, for display and scenario matching.
    public let fields: PayoutFields
    /// Where notifications go; nil for none.
    public let callbackURL: String?
    public let createdAt: VirtualTime
    public internal(set) var status: PayoutStatus
    public internal(set) var history: [StatusChange]
    /// Set by the bank when it rejects or returns the payout.
    public internal(set) var rejectionCode: Int?
    public internal(set) var rejectionReason: String?
    public internal(set) var bankReferenceID: String?
    public internal(set) var statusReason: String?
}

/// One change of a payout's status.
public struct StatusChange: Sendable, Equatable {
    public let status: PayoutStatus
    public let at: VirtualTime
    /// Who made it: `merchant` (API), `bank` (timeline), `admin` (forced), `create`.
    public let by: String
    public let rejectionCode: Int?
    public let rejectionReason: String?
}

/// A movement of a merchant's balance.
public struct LedgerEntry: Sendable, Equatable {
    public enum Kind: String, Sendable { case debit, refund }
    public let id: Int
    public let merchant: String
    public let payoutID: Int
    public let kind: Kind
    /// Signed: negative for debits.
    public let amount: Money
    public let balanceAfter: Money
    public let at: VirtualTime
}
