package import SandboxWire

/// What the admin API answers: one handler per endpoint, named by the endpoint's operation id.
/// `OpenAPIDocument.adminEndpoints(for:)` declares each endpoint once, its route and description
/// with the handler it calls: the compiler holds the admin API (`AdminAPI`, in CashoutSandbox) to a
/// handler for each, and OpenAPIDocumentTests compares the routes it serves with the document.
package protocol AdminServing: Sendable {
    // The clock, scenarios and reset (the Running it guide, "Admin API").
    func getHealth(_ request: HTTPRequest) -> HTTPResponse
    func getClock(_ request: HTTPRequest) -> HTTPResponse
    /// A placeholder until every route is known: the metrics count by route (`AdminAPI.serveMetrics`).
    func getMetrics(_ request: HTTPRequest) -> HTTPResponse
    func advanceClock(_ request: HTTPRequest) -> HTTPResponse
    func loadScenario(_ request: HTTPRequest) -> HTTPResponse
    func reset(_ request: HTTPRequest) -> HTTPResponse
    // Cashouts, forced outcomes and the ledger.
    func listCashouts(_ request: HTTPRequest) -> HTTPResponse
    func getCashout(_ request: HTTPRequest) -> HTTPResponse
    func getCashoutTimeline(_ request: HTTPRequest) -> HTTPResponse
    func forceCashoutAction(_ request: HTTPRequest) -> HTTPResponse
    func getLedger(_ request: HTTPRequest) -> HTTPResponse
    // Every API's accounts.
    func listAccounts(_ request: HTTPRequest) -> HTTPResponse
    func listAccountsOfAPI(_ request: HTTPRequest) -> HTTPResponse
    func getAccount(_ request: HTTPRequest) -> HTTPResponse
    func putAccount(_ request: HTTPRequest) -> HTTPResponse
    // Webhooks, their chaos, and the built-in sink.
    func listWebhooks(_ request: HTTPRequest) -> HTTPResponse
    func redeliverWebhook(_ request: HTTPRequest) -> HTTPResponse
    func sendWebhookChaos(_ request: HTTPRequest) -> HTTPResponse
    func getWebhookChaos(_ request: HTTPRequest) -> HTTPResponse
    func putWebhookChaos(_ request: HTTPRequest) -> HTTPResponse
    func getSink(_ request: HTTPRequest) -> HTTPResponse
    func scriptSink(_ request: HTTPRequest) -> HTTPResponse
    func clearSink(_ request: HTTPRequest) -> HTTPResponse
    func postToSink(_ request: HTTPRequest) -> HTTPResponse
    // Snapshots, the request log, the report and reconciliation, a suite's progress.
    func getSnapshot(_ request: HTTPRequest) -> HTTPResponse
    func putSnapshot(_ request: HTTPRequest) -> HTTPResponse
    func listRequests(_ request: HTTPRequest) -> HTTPResponse
    func verifyRequests(_ request: HTTPRequest) -> HTTPResponse
    func clearRequests(_ request: HTTPRequest) -> HTTPResponse
    func getReport(_ request: HTTPRequest) -> HTTPResponse
    func reconcile(_ request: HTTPRequest) -> HTTPResponse
    func getSuite(_ request: HTTPRequest) -> HTTPResponse
}
