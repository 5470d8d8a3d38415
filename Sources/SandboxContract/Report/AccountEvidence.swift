package import SandboxBank
import SandboxSupport

/// What the sandbox observed of one account: the requests that named it, its payouts and the
/// notifications of their changes sent to the app (not those to the built-in sink, which is the
/// sandbox's own receiver). Checks read it; nothing here is stored.
package struct AccountEvidence: Sendable {
    package let account: String
    package let dialect: String
    /// Whether the bank has the account (a request may name one it does not).
    let known: Bool
    /// Oldest first.
    package let requests: [ReportedRequest]
    package let payouts: [Payout]
    /// Oldest first, of `payouts`, to the app's own URLs.
    let notifications: [StatusNotification]
    /// The virtual time the report was made at: a window still open decides nothing.
    package let now: VirtualTime
    /// The API's own word for a status (D24's `REJECTED`, PayoutService's `SUCCESS`).
    package let statusWord: @Sendable (PayoutStatus) -> String
    /// What the last reconciliation of the app's ledger found on this account (``Reconciliation``):
    /// nil when none compared it.
    package var ledgerMismatches: [Occurrence]?

    package init(account: String, dialect: String, known: Bool, requests: [ReportedRequest], payouts: [Payout],
                notifications: [StatusNotification], now: VirtualTime, statusWord: @escaping @Sendable (PayoutStatus) -> String) {
        self.account = account
        self.dialect = dialect
        self.known = known
        self.requests = requests
        self.payouts = payouts
        self.notifications = notifications
        self.now = now
        self.statusWord = statusWord
        // Indexed once, so that a check costs what the evidence costs: a report over 100,000
        // requests asks for a payout's queries thousands of times.
        let byReference = Dictionary(payouts.compactMap { payout in payout.reference.map { ($0, payout) } }) { first, _ in first }
        payoutsByReference = byReference
        creates = requests.filter { request in
            guard case .create = request.facts.action else { return false }
            return request.refusal == nil
        }
        var queries: [Int: [ReportedRequest]] = [:], lost: [Int: [ReportedRequest]] = [:]
        for request in requests where request.facts.action == .statusQuery && (request.exchange.succeeded || request.exchange.fault != nil) {
            guard let id = request.facts.payoutID ?? request.facts.reference.flatMap({ byReference[$0]?.id }) else { continue }
            if request.exchange.succeeded { queries[id, default: []].append(request) } else { lost[id, default: []].append(request) }
        }
        queriesByPayout = queries
        lostQueriesByPayout = lost
    }

    /// The creates that passed authentication (a refused one says nothing of what the app pays), oldest first.
    package let creates: [ReportedRequest]
    private let payoutsByReference: [String: Payout]
    private let queriesByPayout: [Int: [ReportedRequest]]
    private let lostQueriesByPayout: [Int: [ReportedRequest]]

    /// The account's payout with this merchant id.
    package func payout(reference: String) -> Payout? {
        payoutsByReference[reference]
    }

    /// The payout a request is about: by the id it names, else by its reference.
    package func payoutID(of request: ReportedRequest) -> Int? {
        request.facts.payoutID ?? request.facts.reference.flatMap { payout(reference: $0)?.id }
    }

    /// The status queries about `payoutID` that were answered, oldest first.
    func statusQueries(of payoutID: Int) -> [ReportedRequest] {
        queriesByPayout[payoutID] ?? []
    }

    /// The status queries about `payoutID` that a scenario's fault answered instead of the API
    /// (their answers lost, or an error), oldest first: the app asked, and learnt nothing.
    func lostStatusQueries(of payoutID: Int) -> [ReportedRequest] {
        lostQueriesByPayout[payoutID] ?? []
    }

    /// `{"kind": "delivery", "notification": 3, "cashout": 1000001, "status": "REJECTED", "attempt": 1,
    /// "copy_of": null, "at": …, "answered": 200, "error": null, "chaos": null}`. `attempt` counts the
    /// notification's own attempts only, as "failed on all 6 attempts" does; a chaos copy has none,
    /// and `copy_of` is the own attempt it copies.
    func evidence(_ notification: StatusNotification, _ attempt: DeliveryAttempt) -> Evidence {
        let own = notification.ownNumber
        let copy = attempt.chaos?.kind.isCopy == true
        return Evidence(at: attempt.at, json: [
            "kind": "delivery", "notification": .number(notification.id), "cashout": .number(notification.payoutID),
            "status": .string(statusWord(notification.status)), "attempt": copy ? .null : own(attempt.number).map { .number($0) } ?? .null,
            "copy_of": copy ? attempt.chaos?.copyOf.flatMap(own).map { .number($0) } ?? .null : .null, "at": .string(attempt.at.iso8601),
            "answered": attempt.outcome.status.map { .number($0) } ?? .null, "error": attempt.outcome.error.map(JSON.string) ?? .null,
            "chaos": attempt.chaos.map { .string($0.kind.rawValue) } ?? .null,
        ])
    }
}

extension StatusNotification {
    /// Its own attempts (the retry schedule's and redeliveries), not chaos's copies.
    var ownAttempts: [DeliveryAttempt] { attempts.filter { $0.chaos?.kind.isCopy != true } }

    /// The number among its own attempts of the attempt numbered `number` among all of them (the
    /// admin API's numbering, copies included); nil for a copy or no such attempt.
    func ownNumber(_ number: Int) -> Int? {
        guard attempts.indices.contains(number - 1), attempts[attempts.startIndex + number - 1].chaos?.kind.isCopy != true else { return nil }
        return attempts.prefix(number).filter { $0.chaos?.kind.isCopy != true }.count
    }

    /// Its first own attempt the app answered 2xx.
    var acknowledgement: DeliveryAttempt? { ownAttempts.first { $0.outcome.succeeded } }

    /// A reversal after completion: the late rejection an app must not miss.
    var isLateRejection: Bool { status == .returned }
}
