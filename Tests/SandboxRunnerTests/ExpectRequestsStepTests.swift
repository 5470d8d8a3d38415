@testable import CashoutSandbox
@testable import SandboxRunner
@testable import SandboxContract
import Testing

private func run(_ steps: String) throws -> ScenarioResult {
    let text = #"{"steps": \#(steps)}"#
    return ScenarioRunner.run(try ScenarioLoader.load(Array(text.utf8), file: "t.json", vocabulary: Sandbox.standardVocabulary))
}

/// `expect_requests`: the request verification of `POST /sandbox/requests/verify` as a scenario
/// step, templates filled in; a failure names its message and near misses.
@Suite struct ExpectRequestsStepTests {
    @Test func theStepVerifiesWhatTheSandboxReceived() throws {
        let result = try run(#"""
            [{"create_cashout": {"amount": "150.00", "country": "BR"}, "as": "c1"},
             {"create_cashout": {"amount": "50.00", "country": "BR"}, "as": "c2"},
             {"expect_requests": {"request": {"method": "POST", "path": "/v3/cashout", "dialect": "d24", "body": {"amount": {"gte": 100}}},
                                  "count": {"exactly": 1}}},
             {"expect_requests": {"request": {"body": {"external_id": "{{c2.external_id}}"}}}},
             {"expect_requests": {"sequence": [{"body": {"external_id": "{{c1.external_id}}"}}, {"body": {"external_id": "{{c2.external_id}}"}}]}}]
            """#)
        #expect(result.failure == nil, "\(result.failureText ?? "")")
        let failing = try run(#"""
            [{"create_cashout": {"amount": "50.00", "country": "BR"}, "as": "c1"},
             {"expect_requests": {"request": {"path": "/v3/cashout", "body": {"amount": {"gte": 100}}}}}]
            """#)
        #expect(failing.failure?.step == 2)
        #expect(failing.failure?.message == #"expect_requests: expected at least 1 request matching /v3/cashout with body.amount >= 100.00, got 0; "#
                                            + #"near misses: request 1 POST /v3/cashout: body.amount: expected >= 100.00, got "50.00""#)
    }

    @Test func aStepThatIsNoVerificationIsRefusedWhenTheFileLoads() {
        do {
            _ = try run(#"[{"expect_requests": {"request": {"methd": "POST"}}}]"#)
            Issue.record("loaded")
        } catch {
            #expect("\(error)" == #"t.json: steps[0].expect_requests.request.methd: unknown key (did you mean "method"? expected one of: method, "#
                                  + #"path, dialect, headers, body)"#)
        }
    }
}
