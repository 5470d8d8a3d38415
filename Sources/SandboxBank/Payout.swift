/// A payout (a "cashout") as the bank keeps it: what was asked, where it stands, and how it got
/// there.
public struct Payout: Sendable, Equatable {
    /// The sandbox's id, unique across accounts.
    public let id: Int
    /// The API that created it (`PayoutRequest.dialect`).
    public let dialect: String
    /// The account it is paid from.
    public let account: String
    /// The caller's own id for it, unique per account; nil when the API gives none.
    public let reference: String?
    /// Where it is paid to, when the API says.
    public let country: String?
    /// The currency of `amount`.
    public let currency: String
    /// The amount asked for, in `currency`.
    public let amount: Money
    /// What was debited, in the account's settlement currency.
    public let settlementAmount: Money
    /// The request's own fields, by their wire names, for display and scenario matching.
    public internal(set) var fields: Fields
    /// Where notifications go; nil for none.
    public internal(set) var callbackURL: String?
    public let createdAt: VirtualTime
    public internal(set) var status: PayoutStatus
    public internal(set) var history: [StatusChange]
    /// Why the bank rejected or returned it: a code and a reason in the words of the scenario or
    /// the admin, which the payout's dialect renders (or replaces with its own default).
    public internal(set) var reasonCode: String?
    public internal(set) var reason: String?
    /// The bank's own reference for the transfer, once it gives one.
    public internal(set) var bankReference: String?
    /// The last explanation the bank gave with a status.
    public internal(set) var statusDetail: String?
}

/// One change of a payout's status.
public struct StatusChange: Sendable, Equatable {
    public let status: PayoutStatus
    public let at: VirtualTime
    /// Who made it: `merchant` (API), `bank` (timeline), `admin` (forced), `create`.
    public let by: String
    public let reasonCode: String?
    public let reason: String?
}

/// A movement of an account's balance.
public struct LedgerEntry: Sendable, Equatable {
    public enum Kind: String, Sendable { case debit, refund }
    public let id: Int
    public let account: String
    public let payoutID: Int
    public let kind: Kind
    /// Signed: negative for debits.
    public let amount: Money
    public let balanceAfter: Money
    public let at: VirtualTime
}
