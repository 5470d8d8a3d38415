package import SandboxBank
package import SandboxSupport

/// What a request was, in its API's terms: whose, about which payout, and what it asked.
package struct RequestFacts: Sendable {
    package enum Action: Sendable, Equatable {
        /// A payout created (or asked for: refused, or its answer lost): to whom and how much,
        /// as one comparable text each.
        case create(beneficiary: String, amount: String)
        /// A query of a payout's status.
        case statusQuery
        /// Anything else (a login, a listing, a cancel).
        case other
    }

    /// The account it names (a D24 login, a Mannco user, a PayoutService merchant), known or not.
    package var account: String?
    package var action: Action
    /// The payout it is about, by the sandbox's id, when the request or its answer says it.
    package var payoutID: Int?
    /// The payout it is about, by the merchant's own id (`external_id`, `merchant_payout_id`).
    package var reference: String?
    /// What authenticated it (a token), when the API's checks need to tell one from another.
    package var credential: String?
    /// The API's own words for a refusal that is not about credentials ("Cooldown period").
    package var refusal: String?
    /// The payouts whose status a listing answered (Mannco's cashout history), by the sandbox's ids.
    package var listed: [Int] = []
    /// What the answer said that a reader of a timeline needs, in the API's own words: a status and
    /// its code (`Rejected 808`, `pending`, `SUCCESS`), a refusal (`code 302`, `Cooldown period`);
    /// nil when it says nothing more than its status. For a listing, ``listedWords`` instead.
    package var answerWords: String?
    /// What a listing said of each payout it shows (Mannco's history: `processing`), by the sandbox's ids.
    package var listedWords: [Int: String] = [:]
    /// For a create: the members of its body that say what it pays and to whom, as sent (never its
    /// reference or a URL, which an app makes anew each run): what tells the same create in another
    /// run of the same app (`explore` pins a fault on one by them).
    package var content: [String: JSON] = [:]

    package init(account: String?, action: Action = .other, payoutID: Int? = nil, reference: String? = nil, credential: String? = nil,
                refusal: String? = nil) {
        self.account = account
        self.action = action
        self.payoutID = payoutID
        self.reference = reference
        self.credential = credential
        self.refusal = refusal
    }
}

extension RequestFacts {
    /// It lists the account's payouts (Mannco's history) rather than naming one: a status query of no payout.
    package var isListing: Bool { action == .statusQuery && payoutID == nil && reference == nil }

    /// The payouts of `dialect` a listing of these facts' account made at `at` would show (one a fault answered showed
    /// none); none without an account.
    package func listable(in bank: Bank, dialect: String, at: VirtualTime) -> [Payout] {
        guard let account else { return [] }
        return bank.payouts(account: account).filter { $0.dialect == dialect && $0.createdAt <= at }
    }

    /// The payout these facts name in `bank`: the id the request or its answer gave, else the account's payout of the
    /// reference (a create whose answer was lost, found as the app's lookup would find it).
    package func payout(in bank: Bank) -> Payout? {
        payoutID.flatMap { bank.payout(id: $0) }
            ?? reference.flatMap { reference in account.flatMap { bank.payout(account: $0, reference: reference) } }
    }
}
