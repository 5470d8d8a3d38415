import SandboxBank
package import SandboxContract

/// What Mannco adds to scenario files: its rule fields, its steps (`ManncoSteps`), its status
/// words and its built-in scenario (`ManncoDefaultScenario.swift`).
extension ManncoDialect: ScenarioDialect {
    /// The fields rules match (`user`, `method`, `amount` in dollars, `email`), word rejection
    /// codes (`payee_rejected`: its API answers none, the admin API shows them), the steps
    /// `login`, `process_cashout`, `link` and `expect_emails`, and its status words for
    /// `expect_cashout`.
    package var scenarioVocabulary: ScenarioVocabulary {
        var vocabulary = ScenarioVocabulary(dialect: Self.name, format: Self.scenarioFormat, rejectionCodes: Self.rejectionCodes,
                                            stepActions: ManncoSteps.checks)
        vocabulary.valueNamingActions = ["login"]  // its `as` names the JWT, {{NAME}}
        return vocabulary
    }

    /// Word codes; a cashout returned after it completed is `payment_returned`.
    static let rejectionCodes = RejectionCodes(words: true, lateRejection: "payment_returned")

    package func perform(_ step: Step.DialectStep, in run: inout some ScenarioRun) -> String? {
        ManncoSteps.perform(step, in: &run)
    }

    package var builtInScenarioText: String? { Self.builtInScenarioText }
}
