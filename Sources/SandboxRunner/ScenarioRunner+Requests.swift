import CashoutSandbox
import SandboxJSON
import SandboxScenario

// `expect_requests`: a request verification over the sandbox's request journal, as
// `POST /sandbox/requests/verify` answers it; a failure says its message and each near miss.

extension ScenarioRunner {
    func expectRequests(_ verification: JSON) -> String? {
        let (status, answer) = sandbox.verifyRequests(verification)
        guard status != 200 else { return nil }
        var text = "expect_requests: " + (answer["message"]?.stringValue ?? answer.serializedString())
        let misses = answer["near_misses"]?.arrayValue ?? []
        if !misses.isEmpty {
            text += "; near misses: " + misses.map(Sandbox.nearMissLine).joined(separator: ", ")
        }
        return text
    }
}
