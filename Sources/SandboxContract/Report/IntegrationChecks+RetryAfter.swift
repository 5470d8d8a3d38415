import SandboxBank
import SandboxSupport

extension IntegrationChecks {
    /// `retried_before_retry_after`: a request sent again before the wait its answer asked for
    /// had passed (a `rate_limit` fault's `Retry-After`, gRPC's `grpc-retry-pushback-ms`), by the
    /// wall clock: the app's waits are real ones, whatever the virtual clock does meanwhile. The
    /// wait is counted from the first request's arrival, so an app that waits it out after the
    /// answer came is never found early.
    package static func retriedBeforeRetryAfter(_ terms: ReportTerms) -> IntegrationCheck {
        IntegrationCheck(id: "retried_before_retry_after", severity: .warning, advice: """
            When an answer asks for a wait (HTTP 429 or 503 with Retry-After, in seconds; gRPC RESOURCE_EXHAUSTED with \
            grpc-retry-pushback-ms), wait at least that long before sending the request again, and longer if your own \
            backoff says so: a client that comes back sooner is refused again, and a gateway may hold it off for longer.
            """, description: "a request sent again before the wait its answer asked for (Retry-After, grpc-retry-pushback-ms) "
                + "had passed, by the wall clock; exercised by an answer that asked for a wait (a rate_limit fault)",
            since: SandboxVersion(0, 3, 0)) { evidence in
            var exercised = false
            var early: [Occurrence] = []
            for (index, asked) in evidence.requests.enumerated() {
                guard let wait = asked.exchange.retryAfter else { continue }
                exercised = true
                guard let again = evidence.requests[(index + 1)...].first(where: { sameRequest($0, as: asked, evidence) }) else { continue }
                let waited = again.receivedAt - asked.receivedAt
                let asksFor = wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000
                guard waited < asksFor else { continue }
                early.append(Occurrence(cashouts: evidence.payoutID(of: asked).map { [$0] } ?? [],
                                        summary: "\(asked.exchange.method) \(asked.exchange.path) was sent again \(waited) ms after an "
                                            + "answer that asked for a wait of \(DurationText.format(wait))",
                                        evidence: [asked.evidence("asked to wait \(DurationText.format(wait))"), again.evidence()]))
            }
            return IntegrationCheck.outcome(exercised: exercised, early)
        }
    }

    /// Whether `later` asks again what `request` asked: the same operation of the same account; a create with the same
    /// reference (the same content when it has none), anything else about the same payout (or about none: a listing).
    private static func sameRequest(_ later: ReportedRequest, as request: ReportedRequest, _ evidence: AccountEvidence) -> Bool {
        guard later.exchange.route == request.exchange.route, later.facts.account == request.facts.account else { return false }
        guard case .create = request.facts.action else { return evidence.payoutID(of: later) == evidence.payoutID(of: request) }
        return request.facts.reference.map { later.facts.reference == $0 } ?? (later.facts.action == request.facts.action)
    }
}
