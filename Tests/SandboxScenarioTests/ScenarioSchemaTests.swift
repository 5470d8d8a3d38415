@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxSupport
@testable import SandboxContract
import Testing

/// scenarios/schema.json is what `cashout-sandbox schema` prints: the format's declarations
/// (`ScenarioFormat`) in the standard APIs, never written by hand.
@Suite struct ScenarioSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theCommittedSchemaIsTheGeneratedOne() throws {
        let committed = String(decoding: try Data(contentsOf: Self.root.appendingPathComponent("scenarios/schema.json")), as: UTF8.self)
        let generated = ScenarioFormat.schema(Sandbox.standardVocabulary).schemaText + "\n"
        #expect(committed == generated, "scenarios/schema.json is stale: run `cashout-sandbox schema > scenarios/schema.json`")
    }

    /// The keys the loader allows are the declared ones, in the declared order: its refusal of an
    /// unknown key lists them.
    @Test func theLoaderRefusesAKeyTheFormatDoesNotDeclare() throws {
        let text = #"{"clock": {"mode": "manual", "sart": "2026-01-05T09:00:00Z"}}"#
        do {
            _ = try ScenarioLoader.load(Array(text.utf8), file: "a.json", vocabulary: Sandbox.standardVocabulary)
            Issue.record("loaded a clock with an unknown key")
        } catch {
            #expect("\(error)".contains("unknown key (did you mean \"start\"? expected one of: mode, start)"))
        }
    }

    /// Each dialect's enums come from their owners: the schema lists every status word and finding.
    @Test func theSchemaListsTheDialectsWords() throws {
        let schema = try JSON.parse(ScenarioFormat.schema(Sandbox.standardVocabulary).schemaText)
        let choices = schema["$defs"]?["cashoutStatus"]?["anyOf"]?.arrayValue ?? []
        let statuses = choices.flatMap { $0["enum"]?.arrayValue ?? [] }.compactMap(\.stringValue)
        #expect(Set(statuses).union(PayoutStatus.names) == Sandbox.standardVocabulary.statusWords.union(PayoutStatus.names))
        let codes = schema["$defs"]?["timelineStep"]?["properties"]?["rejection_code"]?["oneOf"]?[0]?["enum"]?.arrayValue ?? []
        #expect(codes.contains(.number("826")))
    }
}
