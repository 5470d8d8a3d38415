import Synchronization

/// How webhook delivery attempts ended, counted as they happen with relaxed atomics (no lock):
/// the sender's part of `GET /sandbox/metrics`, made before the sender (and the bank it delivers
/// for), long before the router and its request counters.
final class WebhookCounts: Sendable {
    /// How a webhook delivery attempt ended (`cashout_sandbox_webhook_attempts_total{outcome=...}`).
    package enum Outcome: Int, CaseIterable {
        /// The receiver answered 2xx.
        case delivered
        /// The receiver answered, not 2xx (retried).
        case httpError
        /// No whole answer within the webhook timeout (retried).
        case timeout
        /// No answer: refused, unreachable, unknown host, connection broken, or not HTTP (retried).
        case connectionError
        /// Not sent: no notification URL, a URL the sandbox cannot send to (https: its client
        /// speaks plain HTTP), or the sandbox was stopping.
        case notSent

        var label: String {
            switch self {
            case .delivered: "delivered"
            case .httpError: "http_error"
            case .timeout: "timeout"
            case .connectionError: "connection_error"
            case .notSent: "not_sent"
            }
        }
    }

    private let counts: InlineArray<5, Atomic<UInt64>> = InlineArray { _ in Atomic(0) }

    init() {}

    package func count(_ outcome: Outcome) {
        counts[outcome.rawValue].wrappingAdd(1, ordering: .relaxed)
    }

    subscript(_ outcome: Outcome) -> UInt64 {
        counts[outcome.rawValue].load(ordering: .relaxed)
    }
}
