package import SandboxBank
package import SandboxSupport

/// What the dialects add to the scenario format, which this module does not know: the request
/// fields a rule's `when` may test, their sections of accounts, and what their declines may say.
///
/// ```swift
/// var vocabulary = ScenarioVocabulary(dialect: "d24", ruleFields: ["country", "amount"],
///                                     rejectionCodes: RejectionCodes(listed: [("801", "ERROR_ACCOUNT_CLOSED")]))
/// vocabulary.accountSections["merchants"] = { node in try readMerchant(node) }
/// let scenario = try ScenarioLoader.load(file: "scenarios/late-reversal-826.json", vocabulary: vocabulary)
/// ```
package struct ScenarioVocabulary: Sendable {
    /// Reads one account of a section (a dialect's own keys, with `ScenarioNode`'s readers).
    package typealias AccountReader = @Sendable (ScenarioNode) throws(ScenarioError) -> Account
    /// What is wrong with a decline in one dialect's terms: the key, and what it expected.
    package typealias DeclineCheck = @Sendable (Decline) -> (key: String, expected: String)?
    /// Checks the body of one of a dialect's step actions when a file is loaded.
    package typealias StepCheck = @Sendable (ScenarioNode) throws(ScenarioError) -> Void

    /// Request fields a rule's `when` may test, by the dialects' names (besides `merchant` and
    /// `dialect`, which every payout has).
    package var ruleFields: Set<String>
    /// Top-level keys holding accounts, with the reader of each (`merchants`: D24's).
    var accountSections: [String: AccountReader]
    /// Keys a rule's `decline` may hold besides `code` and `message` (kept in `Decline.details`).
    var declineKeys: Set<String>
    /// Each dialect's check of a decline, by dialect name: a rule whose `when` names one dialect
    /// meets its check, any other rule every check.
    var declineChecks: [String: DeclineCheck]
    /// Step actions a dialect adds (Mannco's `login`...), each with the check of its body; the
    /// dialect performs them (`Step.dialect`).
    package var stepActions: [String: StepCheck]
    /// The dialects' own words for their payouts' statuses, which `expect_cashout` takes besides
    /// the sandbox's names (Mannco's `completed`: see `Dialect.statusWord`).
    var statusWords: Set<String>
    /// Those of `stepActions` whose `expect` has a shape of the dialect's own (PayoutService's
    /// `grpc_call`: a gRPC status, fields, an error), with its check: the step carries it as
    /// written (`Step.DialectStep.ownExpect`) instead of the HTTP `expect` of other steps.
    var expectChecks: [String: StepCheck]
    /// Each dialect's request fields and rejection codes, by dialect name: which dialects a rule
    /// can reach (its `dialect`, and the fields its `when` tests), and so which codes its
    /// timelines may give. A vocabulary that names no dialect checks no code.
    var dialects: [String: DialectTerms]
    /// The integration report's checks the dialects have (`ReportingDialect.integrationChecks`), by
    /// id, each with the version that added it: the ids `expect_report` may name, and which of them
    /// `"exercised": "all"` asks for in a suite written for an earlier version (`written_for`).
    package var reportChecks: [String: SandboxVersion] = [:]
    /// The finding ids `expect_report` may name: the checks' ids.
    var reportFindings: Set<String> { Set(reportChecks.keys) }
    /// The dialects' step actions whose `as` names a value for later steps' `{{NAME}}` rather than a
    /// payout (Mannco's `login`: its JWT); any other step's `as` names a payout.
    package var valueNamingActions: Set<String> = []
    /// What the dialects add to the format's declarations (scenarios/schema.json), in their order.
    var format = Format()

    /// What one dialect's payouts have for a rule: its request fields, and the rejection codes its answers carry.
    struct DialectTerms: Sendable {
        var ruleFields: Set<String>
        var rejectionCodes: RejectionCodes
    }

    /// `dialect` names the one dialect this vocabulary is of, whose `rejectionCodes` its answers carry.
    package init(dialect: String? = nil, ruleFields: Set<String> = [], rejectionCodes: RejectionCodes = RejectionCodes(),
                accountSections: [String: AccountReader] = [:], declineKeys: Set<String> = [],
                declineChecks: [String: DeclineCheck] = [:], stepActions: [String: StepCheck] = [:], statusWords: Set<String> = [],
                expectChecks: [String: StepCheck] = [:], format: Format = Format()) {
        dialects = dialect.map { [$0: DialectTerms(ruleFields: ruleFields, rejectionCodes: rejectionCodes)] } ?? [:]
        self.ruleFields = ruleFields
        self.accountSections = accountSections
        self.declineKeys = declineKeys
        self.declineChecks = declineChecks
        self.stepActions = stepActions
        self.statusWords = statusWords
        self.expectChecks = expectChecks
        self.format = format
    }

    /// One dialect's part, declared once in `format`: the fields its rules test, its declines'
    /// keys, its status words and its steps are read from their declarations there; `stepActions`
    /// check each step `format` declares, and only those.
    package init(dialect: String, format: Format, rejectionCodes: RejectionCodes, declineChecks: [String: DeclineCheck] = [:],
                 stepActions: [String: StepCheck] = [:], expectChecks: [String: StepCheck] = [:]) {
        precondition(Set(stepActions.keys) == Set(format.steps.map(\.0)), "\(dialect): each step declared in its format needs its check")
        self.init(dialect: dialect, ruleFields: Set(format.ruleFields.map(\.0)), rejectionCodes: rejectionCodes,
                  declineKeys: Set(format.declineKeys.map(\.0)), declineChecks: declineChecks, stepActions: stepActions,
                  statusWords: Set(format.statusWords), expectChecks: expectChecks, format: format)
    }

    /// Both vocabularies (for a sandbox of several dialects).
    package func merging(_ other: ScenarioVocabulary) -> ScenarioVocabulary {
        var merged = ScenarioVocabulary(ruleFields: ruleFields.union(other.ruleFields),
                                        accountSections: accountSections.merging(other.accountSections) { first, _ in first },
                                        declineKeys: declineKeys.union(other.declineKeys),
                                        declineChecks: declineChecks.merging(other.declineChecks) { first, _ in first },
                                        stepActions: stepActions.merging(other.stepActions) { first, _ in first },
                                        statusWords: statusWords.union(other.statusWords),
                                        expectChecks: expectChecks.merging(other.expectChecks) { first, _ in first })
        merged.dialects = dialects.merging(other.dialects) { first, _ in first }
        merged.reportChecks = reportChecks.merging(other.reportChecks, uniquingKeysWith: min)
        merged.valueNamingActions = valueNamingActions.union(other.valueNamingActions)
        merged.format = format.merging(other.format)
        return merged
    }
}
