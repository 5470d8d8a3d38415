import SandboxSupport
/// A payout (a "cashout") as the bank keeps it: what was asked, where it stands, and how it got
/// there.
///
/// A bank holds a million of them, each with a few notifications, so it is kept small: what
/// changes rarely (`Shared`: the request, where notifications go, the bank's reference) is one
/// object that the payout's notifications share with it, and a change to it makes a new one, so
/// that each notification keeps what was true when it was made.
package struct Payout: Sendable, Equatable {
    /// All but the status and its history: fixed once made, shared by the payout and its
    /// notifications (see `Payout`).
    package final class Shared: Sendable {
        let id: Int
        let origin: Origin
        let reference: String?
        let amount: Money
        let settlementAmount: Money
        let createdAt: VirtualTime
        /// The request's fields, but for the value of the one that is the reference (most APIs
        /// send it among the fields too), left empty: payouts made from one template share it
        /// (`fieldTemplates`).
        private let fieldTemplate: Fields
        /// The bank's reference and status detail, nil while it gave neither.
        let bank: BankWords?
        /// The place of the reference's field in `fieldTemplate`; -1 for none.
        private let referencePlace: Int32

        convenience init(id: Int, origin: Origin, reference: String?, amount: Money, settlementAmount: Money, createdAt: VirtualTime,
                         fields: Fields, callbackURL: String?, bankReference: String?, statusDetail: String?) {
            let (template, place) = Self.template(of: fields, reference: reference)
            self.init(id: id, origin: origin, reference: reference, amount: amount, settlementAmount: settlementAmount, createdAt: createdAt,
                      fieldTemplate: template, referencePlace: place, callbackURL: callbackURL, bankReference: bankReference,
                      statusDetail: statusDetail)
        }

        private init(id: Int, origin: Origin, reference: String?, amount: Money, settlementAmount: Money, createdAt: VirtualTime,
                     fieldTemplate: Fields, referencePlace: Int32, callbackURL: String?, bankReference: String?, statusDetail: String?) {
            self.id = id
            self.origin = origin.callbackURL == callbackURL ? origin : origin.with(callbackURL: callbackURL)
            self.reference = reference
            self.amount = amount
            self.settlementAmount = settlementAmount
            self.createdAt = createdAt
            self.fieldTemplate = fieldTemplate
            self.referencePlace = referencePlace
            bank = bankReference == nil && statusDetail == nil ? nil : BankWords(reference: bankReference, detail: statusDetail)
        }

        static let fieldTemplates = SharedValues<Fields.Exact>(capacity: 4096)

        /// `fields` with the reference's value left out, shared (`fieldTemplates`), and its place.
        private static func template(of fields: Fields, reference: String?) -> (Fields, Int32) {
            guard let (place, cut) = reference.flatMap(fields.place(ofValue:)) else {
                return (fieldTemplates.intern(Fields.Exact(fields: fields)).fields, -1)
            }
            // Most creates repeat the template before theirs: it is compared first, without making one.
            let template = fieldTemplates.intern(unlessLast: { fields.isEmptied(as: $0.fields, at: cut) }) {
                Fields.Exact(fields: fields.emptied(at: cut))
            }
            return (template.fields, Int32(place))
        }

        var fields: Fields {
            guard let reference, referencePlace >= 0 else { return fieldTemplate }
            return fieldTemplate.filling(reference, at: Int(referencePlace))
        }

        var callbackURL: String? { origin.callbackURL }
        var bankReference: String? { bank?.reference }
        var statusDetail: String? { bank?.detail }

        /// A copy with other values for what changes after creation; itself when they are the same.
        package func with(fields: Fields? = nil, callbackURL: String?? = nil, bankReference: String?? = nil, statusDetail: String?? = nil) -> Shared {
            let (url, reference, detail) = (callbackURL ?? self.callbackURL, bankReference ?? self.bankReference, statusDetail ?? self.statusDetail)
            if fields.map({ $0 == self.fields }) ?? true, url == self.callbackURL, reference == self.bankReference, detail == self.statusDetail {
                return self
            }
            // Unchanged fields keep their template as it is, rather than being put together and taken apart again.
            let (template, place) = fields.map { Self.template(of: $0, reference: self.reference) } ?? (fieldTemplate, referencePlace)
            return Shared(id: id, origin: origin, reference: self.reference, amount: amount, settlementAmount: settlementAmount,
                          createdAt: createdAt, fieldTemplate: template, referencePlace: place, callbackURL: url, bankReference: reference,
                          statusDetail: detail)
        }
    }

    /// Where a payout comes from, what it is in and where its notifications go: the same for
    /// many payouts, so shared by them (`origins`).
    final class Origin: Hashable, Sendable {
        let dialect: String
        let account: String
        let currency: String
        let country: String?
        let callbackURL: String?

        init(dialect: String, account: String, currency: String, country: String?, callbackURL: String?) {
            self.dialect = dialect
            self.account = account
            self.currency = currency
            self.country = country
            self.callbackURL = callbackURL
        }

        /// The shared origin like this one but for where notifications go.
        func with(callbackURL: String?) -> Origin {
            origins.intern(Origin(dialect: dialect, account: account, currency: currency, country: country, callbackURL: callbackURL))
        }

        static func == (lhs: Origin, rhs: Origin) -> Bool {
            lhs.dialect == rhs.dialect && lhs.account == rhs.account && lhs.currency == rhs.currency && lhs.country == rhs.country
                && lhs.callbackURL == rhs.callbackURL
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(account)
            hasher.combine(currency)
            hasher.combine(country)
            hasher.combine(callbackURL)
        }
    }

    static let origins = SharedValues<Origin>(capacity: 4096)

    /// What the bank said of a payout beyond its status.
    final class BankWords: Sendable {
        let reference: String?
        let detail: String?

        init(reference: String?, detail: String?) {
            self.reference = reference
            self.detail = detail
        }
    }

    package private(set) var shared: Shared

    /// The sandbox's id, unique across accounts.
    package var id: Int { shared.id }
    /// The API that created it (`PayoutRequest.dialect`).
    package var dialect: String { shared.origin.dialect }
    /// The account it is paid from.
    package var account: String { shared.origin.account }
    /// The caller's own id for it, unique per account; nil when the API gives none.
    package var reference: String? { shared.reference }
    /// Where it is paid to, when the API says.
    package var country: String? { shared.origin.country }
    /// The currency of `amount`.
    package var currency: String { shared.origin.currency }
    /// The amount asked for, in `currency`.
    package var amount: Money { shared.amount }
    /// What was debited, in the account's settlement currency.
    package var settlementAmount: Money { shared.settlementAmount }
    package var createdAt: VirtualTime { shared.createdAt }
    /// The request's own fields, by their wire names, for display and scenario matching.
    package internal(set) var fields: Fields {
        get { shared.fields }
        set { shared = shared.with(fields: newValue) }
    }
    /// Where notifications go; nil for none.
    package internal(set) var callbackURL: String? {
        get { shared.callbackURL }
        set { shared = shared.with(callbackURL: .some(newValue)) }
    }
    /// The bank's own reference for the transfer, once it gives one.
    package internal(set) var bankReference: String? {
        get { shared.bankReference }
        set { shared = shared.with(bankReference: .some(newValue)) }
    }
    /// The last explanation the bank gave with a status.
    package internal(set) var statusDetail: String? {
        get { shared.statusDetail }
        set { shared = shared.with(statusDetail: .some(newValue)) }
    }
    package internal(set) var status: PayoutStatus
    /// `occurrence`, kept beside the status (where there would be padding), not in `shared`: a bank
    /// restored from a snapshot counts them again without unsharing what its notifications share.
    private var storedOccurrence: Int32
    package internal(set) var history: [StatusChange]
    /// Why the bank rejected or returned it: a code and a reason in the words of the scenario or
    /// the admin, which the payout's dialect renders (or replaces with its own default). Each
    /// change carries the payout's reason as it then was, so these are its last change's.
    package var reasonCode: String? { history.last?.reasonCode }
    package var reason: String? { history.last?.reason }

    /// Which payout of its content (`contentKey`, over the bank's `Configuration.contentFields`) it
    /// is, counted from 1 in the order they were made: an app that pays the same beneficiary the same
    /// amount twice (a retry under a new reference, a payment again after a rejection) makes the
    /// 1st and the 2nd of that content. With its content, what a draw is keyed on and what a rule's
    /// `occurrence` tests.
    package var occurrence: Int { Int(storedOccurrence) }

    /// What the payout is, as the same app would ask for it again in another run: its API, account,
    /// currency, amount and its fields named in `contentFields` (its API's rule fields: what it
    /// asked for), but for its reference and URLs (which an app makes anew each run, and which point
    /// at a port of the run's), as a stable hash. Random draws keyed on it and its `occurrence`
    /// (fates, webhook chaos, faults) do not depend on the order payouts were made in, nor on the
    /// ids the app made.
    package func contentKey(_ contentFields: Set<String>) -> UInt64 {
        Self.contentKey(dialect: dialect, account: account, currency: currency, amount: amount, fields: fields, reference: reference,
                        contentFields)
    }

    /// `contentKey` of a payout of these parts.
    static func contentKey(dialect: String, account: String, currency: String, amount: Money, fields: Fields, reference: String?,
                                   _ contentFields: Set<String>) -> UInt64 {
        var hash = StableHash()
        hash.combine(dialect)
        hash.combine(account)
        hash.combine(currency)
        hash.combine(amount.description)
        // The few fields that count, sorted: not every field (a create is hashed under the bank's lock).
        let counted = fields.filter { contentFields.contains($0.name) && $0.value != reference && !isURL($0.value) }
        for field in counted.sorted(by: { $0.name < $1.name }) {
            hash.combine(field.name)
            hash.combine(field.value)
        }
        return hash.value
    }

    /// The payout, as the `occurrence`th of its content.
    mutating func setOccurrence(_ occurrence: Int) {
        storedOccurrence = Int32(clamping: occurrence)
    }

    /// An `http://` or `https://` URL.
    package static func isURL(_ value: String) -> Bool {
        value.hasPrefix("http://") || value.hasPrefix("https://")
    }

    package init(id: Int, dialect: String, account: String, reference: String?, country: String?, currency: String, amount: Money,
         settlementAmount: Money, fields: Fields, callbackURL: String?, createdAt: VirtualTime, status: PayoutStatus,
         history: [StatusChange], bankReference: String? = nil, statusDetail: String? = nil, occurrence: Int = 1) {
        let origin = Self.origins.intern(Origin(dialect: dialect, account: account, currency: currency, country: country,
                                                callbackURL: callbackURL))
        shared = Shared(id: id, origin: origin, reference: reference, amount: amount, settlementAmount: settlementAmount, createdAt: createdAt,
                        fields: fields, callbackURL: callbackURL, bankReference: bankReference, statusDetail: statusDetail)
        storedOccurrence = Int32(clamping: occurrence)
        self.status = status
        self.history = history
    }

    package static func == (lhs: Payout, rhs: Payout) -> Bool {
        let (a, b) = (lhs.shared, rhs.shared)
        return (a === b || (a.id == b.id && a.origin == b.origin && a.reference == b.reference && a.amount == b.amount
                            && a.settlementAmount == b.settlementAmount && a.createdAt == b.createdAt && a.fields == b.fields
                            && a.callbackURL == b.callbackURL && a.bankReference == b.bankReference && a.statusDetail == b.statusDetail))
            && lhs.status == rhs.status && lhs.history == rhs.history && lhs.storedOccurrence == rhs.storedOccurrence
    }
}

/// A movement of an account's balance.
public struct LedgerEntry: Sendable, Equatable {
    /// Which way the balance moved.
    public enum Kind: String, Sendable {
        /// A payout took its amount from the balance.
        case debit
        /// A payout that failed, was cancelled or was returned gave its amount back.
        case refund
    }
    /// Its place in the bank's ledger of every account, from 1.
    public let id: Int
    /// The account whose balance moved: a D24 login, a PayoutService merchant, a Mannco user.
    public let account: String
    /// The id of the payout that moved it (its `cashout_id`).
    public let payoutID: Int
    /// A debit or a refund.
    public let kind: Kind
    /// Signed: negative for debits.
    public let amount: Money
    /// The account's balance once this entry was made.
    public let balanceAfter: Money
    /// When it was made, in virtual time.
    public let at: VirtualTime
}

/// A ledger entry as the bank keeps it (32 bytes): its account is its payout's, its id its place.
struct LedgerRecord: Sendable {
    let at: VirtualTime
    let amount: Money
    let balanceAfter: Money
    /// The payout's place in the bank's table (its id minus the first id).
    let payoutIndex: Int32
    let kind: LedgerEntry.Kind
}

extension Bank.State {
    /// Records a movement of `payout`'s account.
    package mutating func appendLedger(_ payout: Payout, _ kind: LedgerEntry.Kind, amount: Money, balanceAfter: Money, at: VirtualTime) {
        ledger.append(LedgerRecord(at: at, amount: amount, balanceAfter: balanceAfter, payoutIndex: Int32(payout.id - payouts.firstID), kind: kind))
    }

    /// The ledger's entries, in order.
    package var ledgerEntries: some Collection<LedgerEntry> {
        ledger.indices.lazy.map { index in
            let record = ledger[index]
            let payoutID = payouts.firstID + Int(record.payoutIndex)
            return LedgerEntry(id: index + 1, account: payouts[payoutID]!.account, payoutID: payoutID, kind: record.kind, amount: record.amount,
                               balanceAfter: record.balanceAfter, at: record.at)
        }
    }
}
