package import SandboxBank
package import SandboxContract
import SandboxWire

// What the app under test asked of its payouts, as a run beside it stops the clock for it (the
// Testing your app guide, "App shapes and what the clock waits for"): each request with its turns
// (`AppActivity`), so that it is known to have come after a change, a delivery or a fault's answer;
// what it was (its operation, account and subject: what a retry of it is the same in); what its
// answer showed (a create's answer, a status query, a listing such as Mannco's history); and
// whether a scenario's fault answered it instead of the API, which the app then owes a retry.

extension Sandbox {
    /// A request of the app's to a payout API.
    package struct AppRequest: Sendable {
        /// Its turn as it began, and the last turn given when it was answered: a request whose turn is
        /// greater than `answeredTurn` began after this one was answered (it can be its retry).
        package let turn: Int
        package let answeredTurn: Int
        /// When it arrived, in wall-clock milliseconds.
        package let receivedAt: Int64
        /// Its operation's route (`POST /v3/cashout/status`): what a retry of it sends again.
        package let name: String
        /// Its API and account (`d24 sandbox_login`).
        package let account: String
        package let role: RequestFacts.Action
        /// The merchant's own id of the payout it names or asks for (`external_id`, `merchant_payout_id`).
        package let reference: String?
        /// For a create: whom it pays and how much (`RequestFacts.Action.create`), as one text.
        package let content: String?
        /// For a create: what it asks for (`109.00`, as its API words an amount), for a note.
        package let amount: String?
        /// The payouts it names or made (not those a listing shows).
        package let payoutIDs: [Int]
        /// The payouts whose status its answer showed the app (a 2xx answer).
        package let read: [Int]
        /// For a read a fault answered: the payouts its answer would have shown (a listing's: the
        /// account's payouts made before it).
        package let meantToRead: [Int]
        /// It lists the account's payouts (Mannco's history) rather than asking for one.
        package let isListing: Bool
        /// The kind of the scenario's fault that answered instead of the API; nil when the API answered.
        package let fault: FaultKind?
        /// The API answered it with a 2xx (and for gRPC an OK status).
        package let succeeded: Bool
        /// The wait the answer asked for before the request is sent again (a `rate_limit` fault's
        /// `Retry-After`, or gRPC's `grpc-retry-pushback-ms`); nil when it asked for none.
        package var retryAfter: Duration? = nil

        /// It asks for a payout (`content` is a create's).
        package var isCreate: Bool { content != nil }
    }

    /// The app's requests among the logged requests after `checked` (a request log id), oldest
    /// first, and the newest id looked at, where the next look starts. A suite's steps' own
    /// requests (sent with the sandbox's `User-Agent`, `HTTPClient.userAgent`) are not the app's.
    package func appRequests(after checked: Int) -> (requests: [AppRequest], checked: Int) {
        let log = requestLog
        let entries = log.entries(after: checked)
        let requests = entries.compactMap { entry -> AppRequest? in
            guard entry.request.headers["User-Agent"] != HTTPClient.userAgent,
                  let name = entry.dialect, let dialect = dialects[name]?.asReportingDialect else { return nil }
            let exchange = log.exchange(entry, bodies: false)
            guard let facts = log.facts(entry, api: dialect, bank: bank) else { return nil }
            var content: String?, amount: String?
            if case .create(let beneficiary, let asked) = facts.action {
                content = "\(beneficiary) \(asked)"
                amount = asked
            }
            let named = payoutMade(facts)?.id
            let payoutIDs = named.map { [$0] } ?? []
            var read = exchange.succeeded ? facts.listed : []
            if exchange.succeeded, facts.action != .other, let named { read.append(named) }
            var meantToRead: [Int] = []
            if entry.response.fault != nil, facts.action == .statusQuery {
                meantToRead = facts.isListing ? facts.listable(in: bank, dialect: name, at: entry.at).map(\.id) : payoutIDs
            }
            return AppRequest(turn: entry.turn, answeredTurn: entry.answeredTurn, receivedAt: entry.receivedAt,
                              name: entry.route ?? "\(entry.request.method) \(entry.request.path)",
                              account: "\(name) \(facts.account ?? "")", role: facts.action, reference: facts.reference, content: content,
                              amount: amount, payoutIDs: payoutIDs, read: read, meantToRead: meantToRead, isListing: facts.isListing,
                              fault: entry.response.fault?.kind, succeeded: exchange.succeeded,
                              retryAfter: entry.response.fault == nil ? nil : entry.response.retryAfter)
        }
        return (requests, entries.last?.id ?? checked)
    }

    /// Whether the payout's notifications go to the app (a URL that is not one of the sandbox's
    /// own sinks): then the app hears of its changes; else it must read them.
    package func notifiesApp(_ payout: Payout) -> Bool {
        payout.callbackURL.map { !sender.isOwnSink($0) } ?? false
    }
}
