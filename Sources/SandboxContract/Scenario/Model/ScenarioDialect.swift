package import SandboxBank
package import SandboxSupport

/// What one payout API adds to scenario files, beside its accounts' section (which its
/// `AccountKind` gives): the request fields rules test and what its declines say, its own steps,
/// its creates for the `create_cashout` step, and its built-in scenario. A dialect that scenarios
/// may talk about conforms; one that does not is served all the same.
package protocol ScenarioDialect: Sendable {
    /// Its name, as the dialect seam's `Dialect.name`.
    var name: String { get }

    /// What it adds to the scenario format: the request fields rules test, its steps, what its
    /// declines say, its status words.
    var scenarioVocabulary: ScenarioVocabulary { get }

    /// Its built-in scenario (`scenarios/default.json` for D24): rules such as magic values,
    /// layered under every scenario the user loads; nil for none.
    var builtInScenarioText: String? { get }

    /// A scenario step's create for `account` (one of its own): `fields` over its example
    /// payout, notifications to `notificationURL`; nil when its scenarios cannot create payouts.
    func scenarioCreate(fields: [String: JSON], account: Account, notificationURL: String) -> ScenarioCreate?

    /// Performs one of its own scenario steps (an action of `scenarioVocabulary.stepActions`, its
    /// body's templates filled in): nil when it holds, else what was expected and what happened.
    func perform(_ step: Step.DialectStep, in run: inout some ScenarioRun) -> String?
}

extension ScenarioDialect {
    package var builtInScenarioText: String? { nil }
    package func scenarioCreate(fields: [String: JSON], account: Account, notificationURL: String) -> ScenarioCreate? { nil }
    package func perform(_ step: Step.DialectStep, in run: inout some ScenarioRun) -> String? { "\(step.action): not a step of \(name)" }
}
