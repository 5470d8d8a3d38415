import SandboxBank
package import SandboxContract

/// What PayoutService adds to scenario files: its rule fields, its step (`PrismSteps`), its
/// status words and its built-in scenario (`PrismDefaultScenario.swift`).
extension PrismDialect: ScenarioDialect {
    /// The fields rules match (`connector`, `method`, `amount`, `currency`, `recipient_name`...),
    /// the step `grpc_call` (`PrismSteps`), and its status words for `expect_cashout`.
    package var scenarioVocabulary: ScenarioVocabulary {
        ScenarioVocabulary(dialect: Self.name, format: Self.scenarioFormat, rejectionCodes: Self.rejectionCodes,
                           stepActions: PrismSteps.checks, expectChecks: PrismSteps.expectChecks)
    }

    /// Word codes; a payout reversed after it succeeded is `payout_returned`.
    static let rejectionCodes = RejectionCodes(words: true, lateRejection: "payout_returned")

    package func perform(_ step: Step.DialectStep, in run: inout some ScenarioRun) -> String? {
        PrismSteps.perform(step, in: &run)
    }

    package var builtInScenarioText: String? { Self.builtInScenarioText }
}
