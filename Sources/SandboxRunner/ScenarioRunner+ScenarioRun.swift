package import SandboxBank
package import SandboxContract
package import SandboxWire
import CashoutSandbox

/// What a dialect's own steps do through the runner.
extension ScenarioRunner: ScenarioRun {
    package var bank: Bank { sandbox.bank }

    package func send(_ request: HTTPRequest, expect: Step.Expectation, action: String) -> (response: HTTPResponse?, problem: String?) {
        let outcome = exchange(request.method, request.target, headers: request.headers, body: request.body)
        let response: HTTPResponse? = if case .response(let response) = outcome { response } else { nil }
        return (response, check(outcome, expect, action: action))
    }

    package mutating func name(_ name: String, payoutID: Int, reference: String) {
        references[name] = Reference(cashoutID: payoutID, externalID: reference)
    }

    package func payoutID(named name: String) -> Int? { references[name]?.cashoutID }

    package mutating func save(_ name: String, _ value: String) { saved[name] = value }
}
