import SandboxContract
import SandboxBank
import SandboxWire
import SandboxPersistence
import SandboxSupport
import Synchronization

/// What `GET /sandbox/metrics` reports, in Prometheus text format 0.0.4: the server's requests
/// (``HTTPMetrics``), gRPC calls by method and status (``GRPCMetrics``), cashouts by status, webhook delivery attempts by outcome
/// (``WebhookCounts``), and the build.
///
/// Made once the router knows every route (the request counters are by route), from parts made
/// before: requests, gRPC calls and webhook attempts are counted as they happen, with relaxed
/// atomics (no lock); cashouts are counted when scraped, from the bank.
struct SandboxMetrics: Sendable {
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    let http: HTTPMetrics
    let grpc: GRPCMetrics
    let webhooks: WebhookCounts

    init(http: HTTPMetrics, grpc: GRPCMetrics, webhooks: WebhookCounts) {
        self.http = http
        self.grpc = grpc
        self.webhooks = webhooks
    }

    /// The whole exposition.
    func render(bank: Bank, journal: StateJournal? = nil) -> String {
        var text = ""
        http.render(into: &text)
        grpc.render(into: &text)
        var counts: [String: Int] = [:]
        for (status, count) in bank.payoutCounts() { counts[status.name, default: 0] += count }
        HTTPMetrics.family("cashout_sandbox_cashouts", "gauge",
                           "Cashouts by current status (a late return counts as REJECTED).", into: &text)
        for name in PayoutStatus.names {
            text += "cashout_sandbox_cashouts{status=\"\(name)\"} \(counts[name] ?? 0)\n"
        }
        HTTPMetrics.family("cashout_sandbox_webhook_attempts_total", "counter",
                           "Webhook delivery attempts (retries and redeliveries included), by outcome.", into: &text)
        for outcome in WebhookCounts.Outcome.allCases {
            text += "cashout_sandbox_webhook_attempts_total{outcome=\"\(outcome.label)\"} \(webhooks[outcome])\n"
        }
        if let journal {
            let histogram = journal.journal.syncHistogram
            HTTPMetrics.family("cashout_sandbox_journal_fsync_seconds", "histogram",
                               "How long each journal fdatasync took (one per group commit).", into: &text)
            var cumulative: UInt64 = 0
            for (index, bound) in Journal.SyncHistogram.bounds.enumerated() {
                cumulative += histogram.counts[index]
                text += "cashout_sandbox_journal_fsync_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
            }
            text += "cashout_sandbox_journal_fsync_seconds_bucket{le=\"+Inf\"} \(histogram.count)\n"
            text += "cashout_sandbox_journal_fsync_seconds_sum \(histogram.sum)\n"
            text += "cashout_sandbox_journal_fsync_seconds_count \(histogram.count)\n"
            HTTPMetrics.family("cashout_sandbox_journal_bytes", "gauge", "The journal file's size.", into: &text)
            text += "cashout_sandbox_journal_bytes \(journal.journal.size)\n"
            HTTPMetrics.family("cashout_sandbox_journal_compactions_total", "counter",
                               "Times the journal was rewritten as a snapshot since the start.", into: &text)
            text += "cashout_sandbox_journal_compactions_total \(journal.compactions.load(ordering: .relaxed))\n"
            let health = journal.journal.health
            HTTPMetrics.family("cashout_sandbox_journal_failing", "gauge",
                               "1 while the journal cannot write (changes are refused with 503), else 0.", into: &text)
            text += "cashout_sandbox_journal_failing \(health.failure == nil ? 0 : 1)\n"
            HTTPMetrics.family("cashout_sandbox_journal_failed_writes_total", "counter",
                               "Journal writes and syncs that failed since the start (each failed batch, each failed retry).", into: &text)
            text += "cashout_sandbox_journal_failed_writes_total \(health.failedWrites)\n"
            HTTPMetrics.family("cashout_sandbox_journal_failing_seconds_total", "counter",
                               "Seconds the journal has spent unable to write since the start.", into: &text)
            text += "cashout_sandbox_journal_failing_seconds_total \(health.failingSeconds)\n"
        }
        HTTPMetrics.family("cashout_sandbox_build_info", "gauge", "The sandbox's version.", into: &text)
        text += "cashout_sandbox_build_info{version=\"\(HTTPMetrics.escape(SandboxVersion.current.description))\"} 1\n"
        return text
    }
}
