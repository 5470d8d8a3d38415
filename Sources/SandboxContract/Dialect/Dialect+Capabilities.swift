
// What a dialect gives beyond the seam, it gives by conforming to that concern's protocol
// (`Dialect`'s documentation). The sandbox asks for each through these, never by a cast: the
// first `dialect as? any ScenarioDialect` of each dialect type has the Swift runtime scan every
// protocol conformance the program holds (about 0.2M instructions each; a start asked six, a
// twentieth of its work: the Contributing guide, "Start-up budget"). The compiler picks each
// answer when the dialect declares its conformances, so none is looked up at run time.

extension Dialect {
    /// Itself as a ``SandboxContract/ScenarioDialect``: scenario files may talk about it.
    package var asScenarioDialect: (any ScenarioDialect)? { nil }
    /// Itself as a ``SandboxContract/ReportingDialect``: the integration report reads its requests.
    package var asReportingDialect: (any ReportingDialect)? { nil }
    /// Itself as a ``SandboxContract/DocumentedDialect``: the OpenAPI document and Postman show it.
    package var asDocumentedDialect: (any DocumentedDialect)? { nil }
    /// Itself as a ``SandboxContract/DashboardDialect``: the dashboard has its pages.
    package var asDashboardDialect: (any DashboardDialect)? { nil }
}

extension Dialect where Self: ScenarioDialect {
    package var asScenarioDialect: (any ScenarioDialect)? { self }
}

extension Dialect where Self: ReportingDialect {
    package var asReportingDialect: (any ReportingDialect)? { self }
}

extension Dialect where Self: DocumentedDialect {
    package var asDocumentedDialect: (any DocumentedDialect)? { self }
}

extension Dialect where Self: DashboardDialect {
    package var asDashboardDialect: (any DashboardDialect)? { self }
}
