package import SandboxBank
package import SandboxContract
import SandboxWire

// What a scenario's `wait_for_request` looks for: the oldest logged request that matches a
// pattern and that no earlier wait took, and the cashout it created. Journaled requests do not
// change, so each poll reads only those that came since the last.

extension Sandbox {
    /// A logged request that matched, and the payout it created (or, its answer lost, committed).
    package struct MatchedRequest: Sendable {
        /// Its number in the request log (`GET /sandbox/requests`).
        public let id: Int
        /// `POST /v3/cashout answered 200`.
        public let summary: String
        /// The payout it created, or committed before its answer was lost; nil when it made none.
        public let payout: Payout?
        /// A create its API refused (any answer but a 2xx, a gRPC status but OK; not one whose
        /// answer was lost): what it answered, `{"code":511,...}` or `grpc-status ALREADY_EXISTS: ...`.
        /// It created nothing, whatever cashout its reference already names.
        public let refusal: String?
        /// A scenario's fault answered it (an error, a closed connection) before its API saw it:
        /// neither made nor refused, it waits for the app's retry.
        public let unhandled: Bool
        /// The answer's HTTP status (0: none, the connection closed).
        public let status: Int
        /// What it asked, in its API's terms: `the create of 101.00`, `POST /v3/cashout/status about cashout 1000003`.
        public let asked: String
        /// When it arrived, wall-clock milliseconds.
        public let receivedAt: Int64
        /// For one a fault answered before its API saw it (`unhandled`): what the fault answered, in a phrase that follows
        /// "was": `rate limited (429, Retry-After 1s)`, `answered 503 by an injected fault`.
        public let injected: String?
    }

    /// The oldest logged request after `checked` (a request log id: the requests up to it were
    /// looked at already) that matches `pattern` and whose id is not in `taken`; nil for none yet,
    /// with the newest id looked at, where the next look starts.
    package func firstRequest(matching pattern: RequestPattern, excluding taken: Set<Int>,
                              after checked: Int) -> (match: MatchedRequest?, checked: Int) {
        let log = requestLog
        let entries = log.entries(after: checked)
        guard let entry = entries.first(where: { !taken.contains($0.id) && pattern.differences(log.subject($0)).isEmpty }) else {
            return (nil, entries.last?.id ?? checked)
        }
        let request = entry.request, response = entry.response
        let answered = response.isDroppedConnection ? "had its answer dropped"
            : "answered \(entry.filteredStatus)" + (response.cutAfter.map { ", cut off after \($0) bytes of its body" } ?? "")
        var payout: Payout?
        var refusal: String?
        let exchange = log.exchange(entry, bodies: false)
        let facts = entry.dialect.flatMap { dialects[$0]?.asReportingDialect }.flatMap { log.facts(entry, api: $0, bank: bank) }
        if response.unhandled {
        } else if let facts, case .create = facts.action {
            if exchange.succeeded || exchange.dropped {
                // Its answer lost, by what it committed when its API's create carries no reference (Mannco's).
                payout = payoutMade(facts) ?? entry.dialect.flatMap { dialects[$0]?.asReportingDialect }
                    .flatMap { log.committedFacts(entry, api: $0, bank: bank) }.flatMap(payoutMade)
            } else if let status = response.grpcStatus, status != .ok {
                let message = response.trailers?["grpc-message"] ?? response.headers["grpc-message"]
                refusal = "grpc-status \(status.name)" + (message.map { ": " + GRPCStatus.percentDecoded($0) } ?? "")
            } else {
                let body = response.bodyText
                refusal = body.isEmpty ? "an empty body" : String(body.prefix(300))
            }
        }
        return (MatchedRequest(id: entry.id, summary: "\(request.method) \(request.path) \(answered)", payout: payout, refusal: refusal,
                               unhandled: response.unhandled, status: response.isDroppedConnection ? 0 : entry.filteredStatus,
                               asked: Self.asked(entry, facts), receivedAt: entry.receivedAt,
                               injected: response.unhandled ? Self.injected(response) : nil), entry.id)
    }

    /// `the create of 101.00` (in its API's words for an amount), `POST /v3/cashout/status about cashout 1000003`, or the route.
    private static func asked(_ entry: RequestLog.Entry, _ facts: RequestFacts?) -> String {
        let route = entry.route ?? "\(entry.request.method) \(entry.request.path)"
        if case .create(_, let amount)? = facts?.action { return "the create of \(amount)" }
        return route + (facts?.payoutID.map { " about cashout \($0)" } ?? "")
    }

    /// What a fault answered instead of the API, after "was" (``FaultKind/waitWords(_:)``). Only kinds that answer before
    /// the API sees a request come here; the others are worded all the same.
    private static func injected(_ response: HTTPResponse) -> String {
        guard let fault = response.fault else { return "answered \(response.status)" }
        return fault.kind.waitWords(response.faultAnswer(fault))
    }

    /// The payout a create committed (answered, or its answer lost), by its facts: the id it
    /// answered, else its reference.
    func payoutMade(_ facts: RequestFacts) -> Payout? {
        facts.payout(in: bank)
    }

    /// The payout logged request `id` made, if it was a create that committed.
    package func payoutMade(byRequest id: Int) -> Payout? {
        guard let entry = requestLog.entries(after: id - 1).first, entry.id == id else { return nil }
        return payoutMade(by: entry)
    }

    private func payoutMade(by entry: RequestLog.Entry) -> Payout? {
        guard !entry.response.unhandled, let dialect = entry.dialect.flatMap({ dialects[$0]?.asReportingDialect }) else { return nil }
        let exchange = requestLog.exchange(entry, bodies: false)
        guard exchange.succeeded || exchange.dropped, let facts = requestLog.facts(entry, api: dialect, bank: bank),
              case .create = facts.action else {
            return nil
        }
        return payoutMade(facts)
    }

    /// Whether two of `payoutIDs` were made by creates in flight at once: which of them the bank
    /// made first is then the order the two arrived in, not the app's doing.
    package func madeAtOnce(_ payoutIDs: Set<Int>) -> Bool {
        let creates = requestLog.entries(after: 0).filter { entry in payoutMade(by: entry).map { payoutIDs.contains($0.id) } ?? false }
        // The later of two began before the earlier was answered.
        return creates.contains { first in creates.contains { $0.turn > first.turn && $0.turn <= first.answeredTurn } }
    }
}
