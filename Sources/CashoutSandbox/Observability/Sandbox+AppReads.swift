import SandboxBank
import SandboxHTTP
import SandboxReport

// What the app under test has read of its payouts, as a run beside it stops the clock for it (the
// Testing your app guide, "Real time and virtual time"): each answered request that showed payouts'
// statuses (a create's answer, a status query, a listing such as Mannco's history), with its turn
// (`AppActivity`), so that a read is known to have come after a change or a delivery.

extension Sandbox {
    /// A request that showed the app the status of `payoutIDs`, and its turn.
    package struct AppRead: Sendable {
        package let turn: Int
        package let payoutIDs: [Int]
    }

    /// The reads among the logged requests after `checked` (a request log id), oldest first, and the
    /// newest id looked at, where the next look starts. A suite's steps' own requests (sent with
    /// the sandbox's `User-Agent`, `HTTPClient.userAgent`) are not the app's.
    package func appReads(after checked: Int) -> (reads: [AppRead], checked: Int) {
        let log = requestLog
        let entries = log.entries(after: checked)
        let reads = entries.compactMap { entry -> AppRead? in
            guard entry.request.headers["User-Agent"] != HTTPClient.userAgent,
                  let dialect = entry.dialect.flatMap({ dialects[$0] as? any ReportingDialect }) else { return nil }
            let exchange = log.exchange(entry)
            guard exchange.succeeded, let facts = dialect.reportFacts(exchange, bank: bank) else { return nil }
            var shown = facts.listed
            switch facts.action {
            case .create, .statusQuery:
                if let id = facts.payoutID ?? facts.reference.flatMap({ reference in
                    facts.account.flatMap { bank.payout(account: $0, reference: reference)?.id }
                }) {
                    shown.append(id)
                }
            case .other:
                break
            }
            return shown.isEmpty ? nil : AppRead(turn: entry.turn, payoutIDs: shown)
        }
        return (reads, entries.last?.id ?? checked)
    }

    /// Whether the payout's notifications go to the app (a URL that is not one of the sandbox's
    /// own sinks): then the app hears of its changes; else it must read them.
    package func notifiesApp(_ payout: Payout) -> Bool {
        payout.callbackURL.map { !sender.isOwnSink($0) } ?? false
    }
}
