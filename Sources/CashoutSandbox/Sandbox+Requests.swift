import SandboxJSON

extension Sandbox {
    /// The newest requests the payout APIs received, newest first, at most `limit`, each as
    /// `GET /sandbox/requests` shows it: method, path, headers and body, the answer, the route and
    /// API, and why an authentication was refused (`diagnosis`) or a path was not found (`near_miss`).
    ///
    /// ```swift
    /// let refused = sandbox.requests(limit: 1).first
    /// print(refused?["diagnosis"]?["message"] ?? "")   // Payload-Signature does not match … uppercase hex …
    /// ```
    public func requests(limit: Int = 100) -> [JSON] {
        requestJournal.entries(limit: limit).entries.map(requestJournal.json)
    }

    /// Forgets every request journaled so far (`DELETE /sandbox/requests`).
    public func clearRequests() {
        requestJournal.clear()
    }
}
