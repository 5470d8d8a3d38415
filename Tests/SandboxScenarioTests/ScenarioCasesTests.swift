@testable import CashoutSandbox
import Foundation
@testable import SandboxSupport
@testable import SandboxContract
import Testing

/// The documents of Tests/ScenarioCases/cases.json, which also hold scenarios/schema.json to the
/// loader (.ci/check-scenarios checks the schema's side): the loader takes every valid one, and
/// refuses every invalid one and every known gap (what JSON Schema cannot say, so the schema takes it).
@Suite struct ScenarioCasesTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        var testDescription: String { name }
    }

    static func cases(_ group: String) -> [Case] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ScenarioCases/cases.json")
        guard let data = try? Data(contentsOf: url), let json = try? JSON.parse(Array(data)) else { return [] }
        return json[group]?.arrayValue?.compactMap { entry in
            guard let name = entry["name"]?.stringValue, let text = entry["text"]?.stringValue else { return nil }
            return Case(name: name, text: text)
        } ?? []
    }

    static func load(_ text: String) throws(ScenarioError) {
        _ = try ScenarioLoader.load(Array(text.utf8), file: "case.json", vocabulary: Sandbox.standardVocabulary)
    }

    @Test func theCasesAreThere() {
        #expect(Self.cases("valid").count >= 10 && Self.cases("invalid").count >= 200 && Self.cases("known_gaps").count >= 10)
    }

    @Test(arguments: cases("valid"))
    func theLoaderTakesAValidDocument(_ document: Case) throws {
        try Self.load(document.text)
    }

    @Test(arguments: cases("invalid") + cases("known_gaps"))
    func theLoaderRefusesAnInvalidDocument(_ document: Case) {
        #expect(throws: ScenarioError.self) { try Self.load(document.text) }
    }
}

/// The dialects' built-in scenarios are read when the bank first needs their rules, not by a start
/// (`ScenarioSetup(builtIn:)`), which reads nothing else of them: each must load, and say only its
/// bank's rules and default timeline.
@Suite struct BuiltInScenarioTests {
    @Test(arguments: Sandbox.standardDialects.map(\.name))
    func eachLoadsAndSaysOnlyItsBank(dialect: String) throws {
        let named = try #require(Sandbox.standardDialects.first { $0.name == dialect })
        guard let text = named.asScenarioDialect?.builtInScenarioText else { return }
        let scenario = try ScenarioLoader.load(Array(text.utf8), file: dialect, vocabulary: Sandbox.standardVocabulary)
        #expect(!scenario.rules.isEmpty)
        #expect(scenario.saysOnlyItsBank)
    }

    /// What a file sets beside its bank, even a value that changes nothing (`"faults": []`), is more than its bank.
    @Test(arguments: [(#"{"name": "b", "description": "d", "bank": {"rules": []}}"#, true), (#"{"bank": {"default": []}}"#, true),
                      (#"{"bank": {"rules": []}, "faults": []}"#, false), (#"{"bank": {"rules": []}, "report": {}}"#, false),
                      (#"{"seed": 1}"#, false)])
    func saysOnlyItsBankByTheKeysItsFileSets(text: String, onlyItsBank: Bool) throws {
        let scenario = try ScenarioLoader.load(Array(text.utf8), file: "built-in", vocabulary: Sandbox.standardVocabulary)
        #expect(scenario.saysOnlyItsBank == onlyItsBank)
    }

    @Test func aSetupReadsThemForItsRulesUnderTheScenariosAdded() throws {
        let builtIn = try ScenarioLoader.load(Array(#"""
            {"bank": {"rules": [{"name": "A", "when": {"amount": 1}, "then": []}], "default": [{"after": "1s", "status": "COMPLETED"}]}}
            """#.utf8), file: "built-in", vocabulary: Sandbox.standardVocabulary)
        var added = Scenario(name: "mine", file: "mine.json")
        added.defaultTimeline = []
        var setup = ScenarioSetup { [builtIn] }
        #expect(setup.rules.map(\.name) == ["A"])
        #expect(setup.defaultScenario != nil && setup.defaultTimeline.count == 1)
        setup.add(added)
        #expect(setup.defaultScenario == "mine" && setup.defaultTimeline.isEmpty)
        #expect(setup.rules.map(\.name) == ["A"])
    }
}
