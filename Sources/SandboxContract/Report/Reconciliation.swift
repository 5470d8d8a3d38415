public import SandboxBank
public import SandboxSupport

/// How one payout API's app writes its ledger (the Testing your app guide, "Reconciliation"):
/// the key of its reference for a payout, that reference, and its words for the statuses.
package struct LedgerTerms: Sendable {
    /// `external_id`, `merchant_payout_id`, `cashout_id`.
    package let referenceKey: String
    /// What that reference is, for the documents (`the merchant's reference`).
    package let referenceMeaning: String
    /// The reference the app knows a payout by (its own, or the id the API answered).
    package let reference: @Sendable (Payout) -> String?

    package init(referenceKey: String, meaning: String = "the merchant's reference", reference: @escaping @Sendable (Payout) -> String?) {
        self.referenceKey = referenceKey
        self.referenceMeaning = meaning
        self.reference = reference
    }
}

/// The app's ledger compared with the bank: one mismatch per payout where they disagree about
/// money (the Testing your app guide, "Reconciliation"), for the report's `ledger_mismatch`.
///
/// A status is compared by where it leaves the money: paid (completed), not paid (rejected,
/// reversed, cancelled, expired) or not yet decided (every other status). The app's word, read
/// in its API's words (any case), must say the same as the bank's status now.
///
/// ```swift
/// let outcome = Reconciliation.make(ledger: json, source: "http://127.0.0.1:8000/ledger", payouts: bank.payouts(),
///                                   terms: ["d24": terms], statusWords: ["d24": words], account: nil, at: clock.now)
/// ```
public struct Reconciliation: Sendable {
    /// One payout where the app and the bank disagree.
    public struct Mismatch: Sendable {
        package let dialect: String
        package let account: String
        /// What the app and the bank disagree on: `fate`, `count`, `amount` or `existence`.
        package let kind: String
        package let occurrence: Occurrence
    }

    /// Where the ledger was read (a URL, a file, `the request body`).
    public let source: String
    /// The accounts compared, as `dialect/account`.
    public let accounts: Set<String>
    /// How many of the ledger's entries were compared.
    public let entries: Int
    public let mismatches: [Mismatch]
    public let at: VirtualTime
    /// What the ledger says of a payout (its word for the status), the bank's word when it was read, and whether the
    /// two agree about the money (the same fate): a timeline's ledger read.
    package struct Said: Sendable, Equatable {
        package let word: String
        package let bank: String
        package let agrees: Bool
    }

    /// What the ledger says of each payout it names, by cashout id.
    package var said: [Int: Said] = [:]
    /// When it was read, in wall-clock milliseconds.
    package var readAt = VirtualClock.wallMilliseconds()
    /// The ledger as the app gave it, and the one account compared (nil: every account): what a run's record keeps to make
    /// it again (`cashout-sandbox show`).
    package var ledger: JSON = .null
    package var account: String?

    /// `{"ok", "source", "entries", "cashouts", "mismatches": [{"account", "cashouts", "summary", "evidence"}], "at"}`.
    public var json: JSON {
        ["ok": .bool(mismatches.isEmpty), "source": .string(source), "entries": .number(entries), "at": .string(at.iso8601),
         "mismatches": .array(mismatches.map { mismatch in
             ["account": .string(mismatch.account), "dialect": .string(mismatch.dialect),
              "cashouts": .array(mismatch.occurrence.cashouts.map { .number($0) }), "summary": .string(mismatch.occurrence.summary),
              "evidence": .array(mismatch.occurrence.evidence.map(\.json))]
         })]
    }

    /// The mismatches' summaries, one a line: a failed step's message.
    public var summary: String {
        mismatches.map(\.occurrence.summary).joined(separator: "; ")
    }

    /// The occurrences of `account` of `dialect`, nil when this reconciliation did not compare it.
    package func occurrences(dialect: String, account: String) -> [Occurrence]? {
        guard accounts.contains(dialect + "/" + account) else { return nil }
        return mismatches.filter { $0.dialect == dialect && $0.account == account }.map(\.occurrence)
    }

    /// A ledger the sandbox cannot compare: where it was read and what was wrong.
    public struct Problem: Error, Sendable, Equatable {
        package let message: String
        /// Nothing listens where the ledger was to be read (a connection refused): the app serves
        /// none, rather than a broken one.
        package let unserved: Bool

        package init(_ source: String, _ what: String, unserved: Bool = false) {
            message = "ledger \(source): \(what)"
            self.unserved = unserved
        }
    }

    /// Where a status leaves the money.
    enum Fate: Equatable {
        case paid, unpaid, undecided

        init(_ status: PayoutStatus) {
            switch status {
            case .completed: self = .paid
            case .rejected, .returned, .cancelled, .expired: self = .unpaid
            case .staged, .awaitingDetails, .pending, .onHold, .delivered: self = .undecided
            }
        }
    }

    private struct Entry {
        let index: Int
        let reference: String
        let word: String
        let fate: Fate
        let amount: Money
    }

    /// Compares `ledger` (`{"payouts": [{REFERENCE_KEY, "status", "amount"}]}`) with `payouts`:
    /// those of `account` when given, else those of every account whose dialect has `terms`.
    /// `statusWords`: each dialect's word for a status; `explanations`: what explains a mismatch of a
    /// cashout, said after it. A ledger of the wrong shape, with a word its API does not use, or
    /// naming a payout the bank did not make is a `Problem`.
    package static func make(ledger: JSON, source: String, payouts allPayouts: [Payout], terms: [String: LedgerTerms],
                            statusWords: [String: @Sendable (PayoutStatus) -> String], account: String?,
                            explanations: [Int: String] = [:], at now: VirtualTime) -> Result<Reconciliation, Problem> {
        let payouts = allPayouts.filter { payout in terms[payout.dialect] != nil && (account.map { payout.account == $0 } ?? true) }
        let keys = Set(terms.values.map(\.referenceKey)).sorted()
        let exampleKey = keys.contains("external_id") ? "external_id" : keys.first ?? "external_id"
        let example = #"{"payouts": [{"\#(exampleKey)": "order-1", "status": "COMPLETED", "amount": "100.00"}]}"#
        guard case .object(let top) = ledger, case .array(let items)? = top["payouts"] else {
            return .failure(Problem(source, "expected an object such as \(example), got \(excerpt(ledger))"))
        }
        // The bank's payouts by the reference the app knows them by.
        var byReference: [String: [Payout]] = [:]
        for payout in payouts {
            guard let terms = terms[payout.dialect], let reference = terms.reference(payout) else { continue }
            byReference[terms.referenceKey + " " + reference, default: []].append(payout)
        }
        var entries: [String: [Entry]] = [:]
        var order: [String] = []
        for (index, item) in items.enumerated() {
            let at = "payouts[\(index)]"
            guard case .object(let fields) = item else { return .failure(Problem(source, "\(at): expected an object, got \(excerpt(item))")) }
            let named = keys.filter { fields[$0] != nil }
            guard named.count == 1, let key = named.first else {
                return .failure(Problem(source, "\(at): expected exactly one of \(keys.joined(separator: ", "))"))
            }
            guard let reference = fields[key]?.stringValue ?? fields[key]?.numberText, !reference.isEmpty else {
                return .failure(Problem(source, "\(at).\(key): expected a string, got \(excerpt(fields[key]!))"))
            }
            guard let found = byReference[key + " " + reference], let dialect = found.first?.dialect else {
                let whose = account.map { " of account \($0)" } ?? ""
                return .failure(Problem(source, "\(at).\(key): \"\(reference)\" names no cashout the bank made\(whose)"))
            }
            let words = statusWords[dialect] ?? { $0.name }
            let known = PayoutStatus.allCases.map { (words($0), $0) }
            // Which cashout the entry is, for the timeline that follows the failure.
            let entry = " (the entry of \(key) \(JSON.string(reference).serializedString()): cashout "
                + found.map { String($0.id) }.joined(separator: ", ") + ")"
            guard let word = fields["status"]?.stringValue, let status = known.first(where: { $0.0.lowercased() == word.lowercased() })?.1 else {
                var seen = Set<String>()
                let list = known.map(\.0).filter { seen.insert($0).inserted }.joined(separator: ", ")
                return .failure(Problem(source, "\(at).status: expected one of \(list), got \(fields["status"].map(excerpt) ?? "none")" + entry))
            }
            guard let text = fields["amount"]?.stringValue ?? fields["amount"]?.numberText, let amount = Money(text) else {
                return .failure(Problem(source, "\(at).amount: expected an amount with at most two decimals, such as \"100.00\", got "
                                        + (fields["amount"].map(excerpt) ?? "none") + entry))
            }
            let slot = key + " " + reference
            if entries[slot] == nil { order.append(slot) }
            entries[slot, default: []].append(Entry(index: index, reference: reference, word: word, fate: Fate(status), amount: amount))
        }
        var mismatches: [Mismatch] = []
        var said: [Int: Said] = [:]
        func note(_ payouts: [Payout], _ known: [Entry]) {
            let words = Array(Set(known.map(\.word))).sorted().joined(separator: ", ")
            for payout in payouts {
                let bankWord = (statusWords[payout.dialect] ?? { $0.name })(payout.status)
                said[payout.id] = Said(word: words, bank: bankWord, agrees: known.allSatisfy { $0.fate == Fate(payout.status) })
            }
        }
        func add(_ kind: String, _ payouts: [Payout], _ summary: String) {
            guard let first = payouts.first else { return }
            // A cashout missing or counted otherwise that a finding explains (`IntegrationChecks.lostAnswerExplanations`)
            // names it after it.
            let explained = payouts.count == 1 && (kind == "existence" || kind == "count") ? explanations[first.id] : nil
            let summary = summary + (explained.map { ": " + $0 } ?? "")
            let words = statusWords[first.dialect] ?? { $0.name }
            let evidence = payouts.flatMap { payout in
                payout.history.map { change in
                    Evidence(at: change.at, sequence: payout.id, json: [
                        "kind": "status", "cashout": .number(payout.id), "status": .string(words(change.status)),
                        "at": .string(change.at.iso8601), "by": .string(change.by),
                    ])
                }
            }
            mismatches.append(Mismatch(dialect: first.dialect, account: first.account, kind: kind,
                                       occurrence: Occurrence(cashouts: payouts.map(\.id), summary: summary, evidence: evidence)))
        }
        for slot in order {
            let known = entries[slot]!, made = byReference[slot]!
            let first = known[0]
            note(made, known)
            let key = String(slot.prefix { $0 != " " })
            let name = "\(key) \(JSON.string(first.reference).serializedString())"
            let ids = made.map { String($0.id) }.joined(separator: ", ")
            if known.count > 1 {
                let places = known.map { String($0.index) }.joined(separator: "], payouts[")
                add("count", made, "the app's ledger has \(name) \(known.count) times (payouts[\(places)]); "
                    + "the bank made \(made.count == 1 ? "one cashout" : "\(made.count) cashouts"), \(ids)")
                continue
            }
            if made.count > 1 {
                add("count", made, "the bank made \(made.count) cashouts for \(name) (\(ids)); the app's ledger has one")
                continue
            }
            let payout = made[0]
            let words = statusWords[payout.dialect] ?? { $0.name }
            if first.fate != Fate(payout.status) {
                let reversed = payout.status == .returned ? " (reversed after it completed)" : ""
                add("fate", made,
                    "the app believes cashout \(payout.id) (\(name)) is \(first.word); the bank's is \(words(payout.status))\(reversed)")
            }
            if first.amount != payout.amount {
                add("amount", made, "the app has \(first.amount) \(payout.currency) for cashout \(payout.id) (\(name)); "
                    + "the bank's is \(payout.amount) \(payout.currency)")
            }
        }
        for payout in payouts {
            guard let terms = terms[payout.dialect], let reference = terms.reference(payout) else { continue }
            guard entries[terms.referenceKey + " " + reference] == nil else { continue }
            let words = statusWords[payout.dialect] ?? { $0.name }
            add("existence", [payout], "cashout \(payout.id) (\(terms.referenceKey) \(JSON.string(reference).serializedString()), "
                + "\(payout.amount) \(payout.currency), \(words(payout.status))) is not in the app's ledger")
        }
        var compared = Set<String>()
        for payout in payouts { compared.insert(payout.dialect + "/" + payout.account) }
        if let account {
            for (dialect, _) in terms { compared.insert(dialect + "/" + account) }
        }
        var reconciliation = Reconciliation(source: source, accounts: compared, entries: items.count, mismatches: mismatches, at: now, said: said)
        (reconciliation.ledger, reconciliation.account) = (ledger, account)
        return .success(reconciliation)
    }

    /// A value as a message shows it: its JSON, cut at 80 characters.
    static func excerpt(_ value: JSON) -> String {
        let text = value.serializedString()
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }
}
