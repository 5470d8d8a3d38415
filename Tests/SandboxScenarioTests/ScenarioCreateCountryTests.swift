@testable import CashoutSandbox
@testable import SandboxD24
@testable import SandboxSupport
@testable import SandboxRunner
@testable import SandboxContract
import Testing

// A scenario's create_cashout fills the fields a step leaves out with the valid cashout of the step's
// country (D24Example), for every country with full validation, and the started sandbox accepts it.

@Suite struct ScenarioCreateCountryTests {
    private func run(_ steps: String) throws -> ScenarioResult {
        let text = #"{"merchants": [{"login": "latam", "pass": "p", "secret": "s", "balance": {"USD": "1000.00"}}], "steps": [\#(steps)]}"#
        return ScenarioRunner.run(try ScenarioLoader.load(Array(text.utf8), file: "t.json", vocabulary: Sandbox.Configuration().scenarioVocabulary))
    }

    @Test(arguments: D24Example.byCountry.map(\.country))
    func aStepNamingOnlyTheCountryCreatesItsExample(country: String) throws {
        let fields = try #require(D24Example.createFields(country: country))
        let example = JSON.object(Dictionary(uniqueKeysWithValues: fields.map { ($0.name, JSON.string($0.value)) }))
        let result = try run(#"""
            {"create_cashout": {"merchant": "latam", "country": "\#(country)"}, "as": "c1"},
            {"request": {"method": "GET", "path": "/sandbox/cashouts/{{c1.cashout_id}}"},
             "expect": {"json_contains": {"status": "PENDING", "country": "\#(country)", "fields": \#(example.serializedString())}}},
            {"advance": "15s"},
            {"expect_cashout": {"ref": "c1", "status": "COMPLETED"}}
            """#)
        #expect(result.failure == nil, "\(result.failure?.message ?? "")")
    }

    @Test func theStepsFieldsWinOverTheExample() throws {
        let result = try run(#"""
            {"create_cashout": {"merchant": "latam", "country": "PE", "currency": "USD", "amount": "12.00", "document_type": "RUC", "document_id": \#
            "20123456789"}, "as": "c1"},
            {"request": {"method": "GET", "path": "/sandbox/cashouts/{{c1.cashout_id}}"},
             "expect": {"json_contains": {"amount": "12.00", "currency": "USD",
                                          "fields": {"document_type": "RUC", "document_id": "20123456789", "bank_account": "00219300153895206813"}}}}
            """#)
        #expect(result.failure == nil, "\(result.failure?.message ?? "")")
    }

    @Test func aCountryWithoutAnExampleGetsNoDefaults() throws {
        let result = try run(#"{"create_cashout": {"merchant": "latam", "country": "UY"}}"#)
        #expect(result.failure?.message == #"create_cashout: expected status 200, got 412 {"code":300,"message":"amount: Invalid or missing "#
                                           + #"Amount"}"#)
    }
}
