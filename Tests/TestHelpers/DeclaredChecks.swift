import CashoutSandbox
import SandboxContract
package import SandboxSupport

/// The integration report's checks as the standard dialects declare them
/// (`ReportingDialect.integrationChecks`), for tests that count or list them: a new check changes
/// these values, not the tests that read them.
package enum DeclaredChecks {
    /// The ids of the checks of the standard dialect named `dialect` (`"d24"`, `"mannco"`,
    /// `"prism"`), in the report's order; empty for a dialect the report does not read.
    package static func ids(of dialect: String) -> [String] {
        let reporting = Sandbox.standardDialects.first { $0.name == dialect }?.asReportingDialect
        return reporting?.integrationChecks.map(\.id) ?? []
    }

    /// The ids of the checks of `dialect` that a suite written for `version` asks for with `"exercised": "all"`: those
    /// added at or before it (`IntegrationCheck.since`), in the report's order.
    package static func ids(of dialect: String, writtenFor version: SandboxVersion) -> [String] {
        let reporting = Sandbox.standardDialects.first { $0.name == dialect }?.asReportingDialect
        return reporting?.integrationChecks.filter { $0.since <= version }.map(\.id) ?? []
    }

    /// D24's checks, in the report's order (the default merchant `sandbox_login`'s).
    package static var d24: [String] { ids(of: "d24") }

    /// Every check id of the standard dialects, each once, sorted (what `expect_report` accepts).
    package static var allIDs: [String] {
        Set(Sandbox.standardDialects.flatMap { ids(of: $0.name) }).sorted()
    }
}
