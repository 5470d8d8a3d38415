import SandboxBank
import SandboxWire
public import SandboxSupport
package import SandboxContract

extension Sandbox {
    /// The newest requests the payout APIs received, newest first, at most `limit`, each as
    /// `GET /sandbox/requests` shows it: method, path, headers and body, the answer, the route and
    /// API, and why an authentication was refused (`diagnosis`) or a path was not found (`near_miss`).
    ///
    /// ```swift
    /// let refused = sandbox.requests(limit: 1).first
    /// print(refused?["diagnosis"]?["message"] ?? "")   // Payload-Signature does not match … uppercase hex …
    /// ```
    ///
    /// - Parameters:
    ///   - limit: The most to return; 100 by default.
    /// - Returns: The requests as JSON objects, newest first; no more than the journal keeps (`Configuration.requestJournalCapacity`).
    public func requests(limit: Int = 100) -> [JSON] {
        requestLog.entries(limit: limit).entries.map(requestLog.json)
    }

    /// The logged requests a scenario's fault answered (an error, a closed connection, an
    /// answer lost after commit), oldest first: which fault (its place in `faults`), and the
    /// request as `requests(limit:)` shows it. What `explore` pins of a run.
    package func faultedRequests() -> [(fault: Int, request: JSON)] {
        requestLog.entries(after: 0).compactMap { entry in entry.response.fault.map { ($0.index, requestLog.json(entry)) } }
    }

    /// Verifies what the payout APIs received, as `POST /sandbox/requests/verify` does with the
    /// same JSON (`{"request": {...}, "count": {"exactly": 2}}` or `{"sequence": [...]}`): its
    /// HTTP status (200 satisfied, 422 not, 409 unknowable, 400 not a verification) and answer.
    ///
    /// ```swift
    /// let (status, answer) = sandbox.verifyRequests(["request": ["method": "POST", "path": "/v3/cashout"]])
    /// // 422: answer["near_misses"] lists the requests closest to it, with their "differences"
    /// ```
    ///
    /// - Parameters:
    ///   - verification: The verification, as the endpoint's body: `{"request": ..., "count": ...}` or `{"sequence": [...]}`.
    /// - Returns: The status the endpoint would answer (200 when it holds) and its JSON answer (`near_misses` when it does not).
    public func verifyRequests(_ verification: JSON) -> (status: Int, answer: JSON) {
        RequestVerification.answer(Array(verification.serializedString().utf8), requestLog: requestLog)
    }

    /// `verifyRequests`, for a verification already read (a scenario's `expect_requests`).
    func verifyRequests(_ verification: RequestVerification) -> (status: Int, answer: JSON) {
        verification.answer(requestLog: requestLog)
    }

    /// A near miss of a verification's answer in one line: `request 3 POST /v3/cashout:
    /// body.amount: expected >= 100.00, got "50.00"`.
    package static func nearMissLine(_ miss: JSON) -> String {
        "request \(miss["id"]?.serializedString() ?? "?") \(miss["method"]?.stringValue ?? "") \(miss["path"]?.stringValue ?? ""): "
            + (miss["differences"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: "; ")
    }

    /// Forgets every request logged so far (`DELETE /sandbox/requests`).
    public func clearRequests() {
        requestLog.clear()
    }
}

extension Sandbox {
    /// What logged request `id` was about, as a fault reads it (``RequestSubject``): its account,
    /// whether it asked for a payout and what, and the payout it named; nil when the journal has no such request.
    package func requestAbout(_ id: Int) -> RequestSubject? {
        guard let entry = requestLog.entries(after: id - 1).first, entry.id == id else { return nil }
        return subject(of: entry)
    }

    /// Which of the logged requests up to request `id` that `fault`'s `when` takes request `id`
    /// is (1 for the first): what a pinned fault's `every` names. Nil when `when` does not take it.
    package func occurrence(ofRequest id: Int, among fault: Fault) -> Int? {
        var count = 0
        for entry in requestLog.entries(after: 0) where entry.id <= id {
            guard FaultInjector.takes(fault, isOperation: entry.dialect != nil, { _ in requestLog.subject(entry) }, { subject(of: entry) })
            else { continue }
            count += 1
            if entry.id == id { return count }
        }
        return nil
    }

    private func subject(of entry: RequestLog.Entry) -> RequestSubject {
        let operation = entry.dialect.flatMap { dialect in entry.route.flatMap { dialects[dialect]?.operation(route: $0) }.map { (dialect, $0) } }
        return subjects(entry.request, entry.route, operation, requestLog.bodyJSON(of: entry.request, routed: entry.route != nil), entry.facts)
    }
}
