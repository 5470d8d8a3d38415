package import SandboxBank
package import SandboxWire

/// What a dialect's own scenario step (`ScenarioVocabulary.stepActions`) can do in the run of a
/// scenario: send requests to the sandbox as a client, check answers as the `expect` of any step
/// does, name what it made for later steps, and read the bank.
///
/// ```swift
/// func perform(_ step: Step.DialectStep, in run: inout some ScenarioRun) -> String? {
///     let (response, problem) = run.send(request, expect: step.expect ?? Step.Expectation(status: 200), action: step.action)
///     if let problem { return problem }
///     ...
/// }
/// ```
package protocol ScenarioRun {
    /// The bank of the sandbox the scenario runs in (read it; change it through requests).
    var bank: Bank { get }
    /// Sends `request` to the sandbox and checks the answer against `expect`: the response (nil
    /// when the connection closed without one), and what is wrong with it in the words of a
    /// failed step (`action` leads), or nil.
    func send(_ request: HTTPRequest, expect: Step.Expectation, action: String) -> (response: HTTPResponse?, problem: String?)
    /// Names a payout for later steps (`expect_cashout`'s `ref`, `{{NAME.cashout_id}}`).
    mutating func name(_ name: String, payoutID: Int, reference: String)
    /// The payout a step named, if any.
    func payoutID(named name: String) -> Int?
    /// Keeps a value for later steps' templates: `{{NAME}}`.
    mutating func save(_ name: String, _ value: String)
}
