import SandboxBank
import SandboxHTTP
import SandboxReport

// What the app under test asked of its payouts, as a run beside it stops the clock for it (the
// Testing your app guide, "Real time and virtual time"): each request with its turn
// (`AppActivity`), so that it is known to have come after a change or a delivery; what its
// answer showed (a create's answer, a status query, a listing such as Mannco's history); and
// whether a scenario's fault answered it instead of the API, which the app then owes a retry.

extension Sandbox {
    /// A request of the app's to a payout API.
    package struct AppRequest: Sendable {
        package let turn: Int
        /// The payouts whose status its answer showed the app (a 2xx answer).
        package let read: [Int]
        /// What it is about, as a retry of it is too (``AppRequest/about(payoutID:)``...): each payout it
        /// names or made; a create's account, beneficiary and amount; the account whose payouts a create
        /// adds to or a listing shows (Mannco's history shows the cashout of a create whose answer was lost).
        package let about: Set<String>
        /// The payouts it names or made (not those a listing shows).
        package let payoutIDs: [Int]
        /// The kind of the scenario's fault that answered instead of the API (`drop_after_commit`,
        /// `error`, `close`); nil when the API answered.
        package let fault: String?
        /// Its route (`POST /v3/cashout/status`), or method and path.
        package let name: String
        /// For a create: what it asks for (`109.00`, as its API words an amount), for a note.
        package let amount: String?

        /// It asks for a payout or about one: a fault's answer to it leaves the app owing itself a
        /// retry (a listing's is not: the app reads the list again when it polls).
        package var concernsPayouts: Bool { amount != nil || !payoutIDs.isEmpty }

        /// What a request about payout `id` is about.
        package static func about(payoutID id: Int) -> String { "payout \(id)" }
    }

    /// The app's requests among the logged requests after `checked` (a request log id), oldest
    /// first, and the newest id looked at, where the next look starts. A suite's steps' own
    /// requests (sent with the sandbox's `User-Agent`, `HTTPClient.userAgent`) are not the app's.
    package func appRequests(after checked: Int) -> (requests: [AppRequest], checked: Int) {
        let log = requestLog
        let entries = log.entries(after: checked)
        let requests = entries.compactMap { entry -> AppRequest? in
            guard entry.request.headers["User-Agent"] != HTTPClient.userAgent,
                  let name = entry.dialect, let dialect = dialects[name] as? any ReportingDialect else { return nil }
            let exchange = log.exchange(entry)
            guard let facts = dialect.reportFacts(exchange, bank: bank) else { return nil }
            let account = "\(name) \(facts.account ?? "")"
            var about: Set<String> = []
            var amount: String?
            let named = payoutMade(facts)?.id
            if case .create(let beneficiary, let asked) = facts.action {
                about = ["create \(account) \(beneficiary) \(asked)", "account \(account)"]
                amount = asked
            } else if !facts.listed.isEmpty || (facts.action == .statusQuery && facts.payoutID == nil && facts.reference == nil) {
                about = ["account \(account)"]
            }
            let payoutIDs = named.map { [$0] } ?? []
            about.formUnion((payoutIDs + facts.listed).map(AppRequest.about(payoutID:)))
            var read = exchange.succeeded ? facts.listed : []
            if exchange.succeeded, facts.action != .other, let named { read.append(named) }
            return AppRequest(turn: entry.turn, read: read, about: about, payoutIDs: payoutIDs, fault: entry.response.fault?.kind,
                              name: entry.route ?? "\(entry.request.method) \(entry.request.path)", amount: amount)
        }
        return (requests, entries.last?.id ?? checked)
    }

    /// Whether the payout's notifications go to the app (a URL that is not one of the sandbox's
    /// own sinks): then the app hears of its changes; else it must read them.
    package func notifiesApp(_ payout: Payout) -> Bool {
        payout.callbackURL.map { !sender.isOwnSink($0) } ?? false
    }
}
