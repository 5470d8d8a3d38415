@testable import CashoutSandbox
import Foundation
@testable import SandboxContract
import Testing
import TestHelpers

// The guide "Scenario files" documents every step action the loader takes (its own and each API's),
// in a table row `| `action` | keys | example |`, and each example loads.

@Suite struct ScenarioStepDocsTests {
    static let vocabulary = Sandbox.Configuration().scenarioVocabulary

    /// The rows of the guide's step tables: action -> its one-line examples.
    static let rows: [String: [String]] = {
        let text = Guide.text("ScenarioFiles")
        var rows: [String: [String]] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
            guard cells.count == 3, cells[0].hasPrefix("`"), cells[0].hasSuffix("`") else { continue }
            // The examples: code spans of the last cell, separated by ", ".
            rows[String(cells[0].dropFirst().dropLast())] = cells[2].components(separatedBy: "`, `")
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
        }
        return rows
    }()

    /// Every action, as the loader lists them when a step has none.
    static let actions: [String] = {
        do {
            _ = try ScenarioLoader.load(Array(#"{"steps": [{}]}"#.utf8), file: "t.json", vocabulary: vocabulary)
            return []
        } catch let error as ScenarioError {
            return error.expected.components(separatedBy: ": ").last?.components(separatedBy: ", ") ?? []
        } catch {
            return []
        }
    }()

    @Test func everyActionHasARow() {
        #expect(Self.actions.count > 10)
        #expect(Set(Self.rows.keys).isSuperset(of: Self.actions), "missing: \(Set(Self.actions).subtracting(Self.rows.keys).sorted())")
    }

    @Test(arguments: actions)
    func theExamplesLoad(action: String) throws {
        let examples = try #require(Self.rows[action])
        for example in examples {
            // The examples refer to cashouts named c1 and p1 by earlier steps, which the loader checks.
            let named = #"{"create_cashout": {}, "as": "c1"}, {"create_cashout": {}, "as": "p1"}"#
            let text = #"{"users": [{"id": "2001", "api_key": "k"}], "steps": [\#(named), \#(example)]}"#
            #expect(throws: Never.self, "\(example)") {
                let scenario = try ScenarioLoader.load(Array(text.utf8), file: "t.json", vocabulary: Self.vocabulary)
                #expect(scenario.steps.count == 3)
            }
            #expect(example.hasPrefix(#"{"\#(action)":"#))
        }
    }
}
