package import SandboxBank

/// A payout API the integration report can read: what a logged request to one of its operations
/// was (``SandboxContract/APIContract/facts(of:bank:)``), and which checks apply to its accounts.
/// The report leaves out the requests of a dialect that does not conform.
package protocol ReportingDialect: APIContract {
    /// The report's checks of its accounts (`IntegrationChecks`' that its API can show, and its own).
    var integrationChecks: [IntegrationCheck] { get }

    /// How its apps write their ledger for a reconciliation; nil when it takes none.
    var ledgerTerms: LedgerTerms? { get }

    /// Its checks judging by `thresholds` (a suite's `report` key, a `GET /sandbox/report`
    /// query); `integrationChecks` when none of them reads a threshold.
    func integrationChecks(_ thresholds: ReportThresholds) -> [IntegrationCheck]
}

extension ReportingDialect {
    var ledgerTerms: LedgerTerms? { nil }
    package func integrationChecks(_ thresholds: ReportThresholds) -> [IntegrationCheck] { integrationChecks }
}

