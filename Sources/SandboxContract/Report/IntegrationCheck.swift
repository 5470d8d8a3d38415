package import SandboxBank
package import SandboxSupport

/// One thing the integration report checks of an app, from evidence: a stable `id`, how bad a
/// failure is, what to do about it, and the check itself over one account's evidence.
///
/// The generic checks are in `IntegrationChecks`; a dialect lists the ones its API can show
/// (`ReportingDialect.integrationChecks`), with its own besides.
package struct IntegrationCheck: Sendable {
    package enum Severity: String, Sendable {
        case error, warning
    }

    /// What the evidence showed.
    package enum Outcome: Sendable {
        /// It was exercised and held.
        case passed
        /// Nothing observed either way.
        case notExercised
        /// It failed: each occurrence, oldest first.
        case failed([Occurrence])
    }

    package let id: String
    package let severity: Severity
    /// What to change in the app, in one or two sentences.
    package let advice: String
    /// What it looks for and what exercises it, in a line (the report's `check_descriptions`,
    /// beside a passed or not-exercised check's id); its advice when nil.
    package let description: String?
    /// The version that added it: a suite written for an earlier one (`written_for`) does not ask for
    /// it with `"exercised": "all"` (the Changes guide).
    package let since: SandboxVersion
    let evaluate: @Sendable (AccountEvidence) -> Outcome

    package init(id: String, severity: Severity, advice: String, description: String? = nil, since: SandboxVersion = .earliest,
                evaluate: @escaping @Sendable (AccountEvidence) -> Outcome) {
        self.id = id
        self.severity = severity
        self.advice = advice
        self.description = description
        self.since = since
        self.evaluate = evaluate
    }

    /// Passed when exercised, failed with the occurrences found, not exercised otherwise.
    package static func outcome(exercised: Bool, _ occurrences: [Occurrence]) -> Outcome {
        occurrences.isEmpty ? (exercised ? .passed : .notExercised) : .failed(occurrences)
    }
}

/// One time a check failed: the cashouts it concerns, what happened in a sentence, and the
/// requests and deliveries that show it.
package struct Occurrence: Sendable {
    package var cashouts: [Int]
    package var summary: String
    var evidence: [Evidence]

    package init(cashouts: [Int], summary: String, evidence: [Evidence]) {
        self.cashouts = cashouts
        self.summary = summary
        self.evidence = evidence
    }
}

/// A request or a delivery attempt that shows a finding, with its virtual time (evidence is
/// listed in time order, requests of the same time in the order they came).
package struct Evidence: Sendable {
    package let at: VirtualTime
    /// What orders it among evidence of the same time: a request's journal id.
    let sequence: Int
    package let json: JSON

    package init(at: VirtualTime, sequence: Int = 0, json: JSON) {
        self.at = at
        self.sequence = sequence
        self.json = json
    }
}
