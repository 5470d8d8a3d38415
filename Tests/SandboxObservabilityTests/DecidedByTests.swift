@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxContract
import TestHelpers
import Testing

/// A sandbox on a manual clock at 2026-01-05T09:00:00Z with `scenarios` loaded as files are.
private func launch(_ scenarios: [String] = [], directory: String? = nil) throws -> Sandbox {
    var configuration = Sandbox.Configuration()
    configuration.clockMode = .manual
    configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
    configuration.stateDirectory = directory
    configuration.scenarios = try scenarios.enumerated().map { index, text in
        try ScenarioLoader.load(Array(text.utf8), file: "s\(index).json", vocabulary: Sandbox.standardVocabulary)
    }
    return try Sandbox.launch(configuration)
}

private func send(_ sandbox: Sandbox, _ method: String, _ path: String, _ body: String = "") throws -> HTTPResponse {
    try TestHTTP.send(method: method, url: "\(sandbox.baseURL)\(path)", body: Array(body.utf8))
}

/// A signed D24 create for the default merchant; the cashout's id, or the answer's status when refused.
private func create(_ sandbox: Sandbox, name: String = "Ana", amount: String = "100.00") throws -> Result<Int, HTTPStatusError> {
    let body = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"\#(UUID().uuidString)","country":"BR","currency":"BRL","#
               + #""amount":"\#(amount)","document_id":"01716001340","document_type":"CPF","beneficiary_name":"\#(name)","#
               + #""beneficiary_lastname":"Silva","bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C"}"#
    let response = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/v3/cashout",
                                     headers: ["Payload-Signature": D24Signing.payloadSignature(body)], body: Array(body.utf8))
    guard response.status == 200, let id = Int(try JSON.parse(response.body)["cashout_id"]?.stringValue ?? "") else {
        return .failure(HTTPStatusError(status: response.status))
    }
    return .success(id)
}

private struct HTTPStatusError: Error, Equatable {
    let status: Int
}

/// The cashout's `decided_by`, as its detail shows it; the list shows the same.
private func decidedBy(_ sandbox: Sandbox, _ id: Int) throws -> JSON? {
    let detail = try JSON.parse(send(sandbox, "GET", "/sandbox/cashouts/\(id)").body)["decided_by"]
    let listed = try JSON.parse(send(sandbox, "GET", "/sandbox/cashouts").body)["cashouts"]?.arrayValue?.first { $0["cashout_id"] == .number(id) }
    #expect(listed?["decided_by"] == detail)
    return detail
}

private func rule(_ kind: String, _ summary: String, scenario: String, rule: String?, index: Int, outcome: Int? = nil) -> JSON {
    ["kind": .string(kind), "summary": .string(summary), "scenario": .string(scenario), "rule": rule.map(JSON.string) ?? .null,
     "index": .number(index), "outcome": outcome.map { .number($0) } ?? .null]
}

/// `decided_by` (the Scenario files guide, "Which rule decided"): a rule by name and index, a magic value, the
/// default timeline, a weighted outcome, a forced action; in which order they apply; and that
/// it is kept across a restart and a snapshot.
@Suite struct DecidedByTests {
    static let acme = #"""
    {"name": "acme bank", "bank": {"rules": [
      {"when": {"beneficiary_name": "Bo"}, "then": [{"after": "1m", "status": "DELIVERED"}]},
      {"name": "big ones", "when": {"amount": {"gte": 1000}}, "then": [{"after": "1h", "status": "DELIVERED"}]},
      {"name": "coin flip", "when": {"beneficiary_name": "Flip"},
       "outcomes": [{"weight": 1, "then": [{"after": "1m", "status": "DELIVERED"}, {"after": "1m", "status": "COMPLETED"}]},
                    {"weight": 1, "then": [{"after": "1m", "status": "DELIVERED"}, {"after": "1m", "status": "REJECTED", "rejection_code": 807}]}]}]}}
    """#

    @Test func aRuleByNameAndIndexAMagicValueAndTheDefaultAreShownInTheListAndTheDetail() throws {
        let sandbox = try launch([Self.acme])
        defer { sandbox.stop() }
        let big = try create(sandbox, amount: "1500.00").get()
        let bo = try create(sandbox, name: "Bo").get()
        let magic = try create(sandbox, name: "REJECT 801").get()
        let plain = try create(sandbox).get()
        #expect(try decidedBy(sandbox, big) == rule("rule", #"rule "big ones" (bank.rules[1] of scenario "acme bank")"#,
                                                     scenario: "acme bank", rule: "big ones", index: 1))
        #expect(try decidedBy(sandbox, bo)
                == rule("rule", #"rule bank.rules[0] of scenario "acme bank""#, scenario: "acme bank", rule: nil, index: 0))
        #expect(try decidedBy(sandbox, magic)
                == rule("magic_value", #"magic value "REJECT 801" (bank.rules[1] of the built-in scenario "default bank")"#,
                        scenario: "default bank", rule: "REJECT 801", index: 1))
        #expect(try decidedBy(sandbox, plain) == ["kind": "default", "scenario": "default bank",
                                                   "summary": #"the default timeline of scenario "default bank""#])
        // The decision is the bank's at creation: it stays as the timeline runs.
        sandbox.bank.advance(by: .seconds(20))
        #expect(try JSON.parse(send(sandbox, "GET", "/sandbox/cashouts/\(magic)").body)["status"] == "REJECTED")
        #expect(try decidedBy(sandbox, magic)?["rule"] == "REJECT 801")
    }

    @Test func aWeightedRuleSaysWhichOutcomeWasDrawn() throws {
        let sandbox = try launch([Self.acme])
        defer { sandbox.stop() }
        let ids = try (0 ..< 16).map { _ in try create(sandbox, name: "Flip").get() }
        sandbox.bank.advance(by: .seconds(120))
        var drawn: Set<Int> = []
        for id in ids {
            let decided = try #require(try decidedBy(sandbox, id))
            let outcome = try #require(decided["outcome"]?.numberText.flatMap { Int($0) })
            drawn.insert(outcome)
            let status = try JSON.parse(send(sandbox, "GET", "/sandbox/cashouts/\(id)").body)["status"]
            #expect(status == (outcome == 1 ? "REJECTED" : "COMPLETED"))
            #expect(decided == rule("rule", #"rule "coin flip" (bank.rules[2] of scenario "acme bank"), outcomes[\#(outcome)] drawn"#,
                                    scenario: "acme bank", rule: "coin flip", index: 2, outcome: outcome))
        }
        #expect(drawn == [0, 1])
    }

    /// A forced outcome decides, over a magic value too; a release gives the timeline back.
    @Test func aForcedActionDecidesAndAReleaseGivesTheTimelineBack() throws {
        let sandbox = try launch()
        defer { sandbox.stop() }
        let id = try create(sandbox, name: "REJECT 801").get()
        let magic = try decidedBy(sandbox, id)
        #expect(magic?["kind"] == "magic_value")
        sandbox.bank.advance(by: .seconds(1))
        #expect(try send(sandbox, "POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"hold"}"#).status == 200)
        #expect(try decidedBy(sandbox, id) == ["kind": "forced", "action": "hold", "at": "2026-01-05T09:00:01Z",
                                               "summary": "forced by the admin API: hold at 2026-01-05T09:00:01Z"])
        #expect(try send(sandbox, "POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"release"}"#).status == 200)
        #expect(try decidedBy(sandbox, id) == magic)
        sandbox.bank.advance(by: .seconds(5))
        let forced = try JSON.parse(send(sandbox, "POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"complete"}"#).body)
        #expect(forced["status"] == "COMPLETED")
        #expect(forced["decided_by"] == ["kind": "forced", "action": "complete", "at": "2026-01-05T09:00:06Z",
                                         "summary": "forced by the admin API: complete at 2026-01-05T09:00:06Z"])
        // A return forced after completion is a rejection.
        #expect(try send(sandbox, "POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"reject"}"#).status == 200)
        #expect(try decidedBy(sandbox, id)?["action"] == "reject")
        #expect(try send(sandbox, "POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"explode"}"#).bodyText
            == #"{"code":400,"message":"action: expected deliver, complete, reject, hold, release or cancel"}"#)
    }

    /// The guide's order: a later scenario's rules first (one loaded at run time before all), then
    /// the magic values, then the last default set; a forced action over any.
    @Test func laterScenariosRulesComeFirstThenMagicValuesThenTheLastDefault() throws {
        let first = #"""
        {"name": "A", "bank": {"rules": [
          {"name": "manual review", "when": {"beneficiary_name": "KYC 105"}, "then": [{"after": "1m", "status": "DELIVERED"}]},
          {"name": "from A", "when": {"beneficiary_name": "Bo"}, "then": []}],
         "default": [{"after": "1m", "status": "DELIVERED"}]}}
        """#
        let second = #"{"name": "B", "bank": {"rules": [{"name": "from B", "when": {"beneficiary_name": {"prefix": "B"}}, "then": []}]}}"#
        let sandbox = try launch([first, second])
        defer { sandbox.stop() }
        let bo = try create(sandbox, name: "Bo").get()
        #expect(try decidedBy(sandbox, bo)?["rule"] == "from B")
        // A rule of the user's that matches a magic value wins: KYC 105 is accepted.
        let kyc = try create(sandbox, name: "KYC 105").get()
        #expect(try decidedBy(sandbox, kyc) == rule("rule", #"rule "manual review" (bank.rules[0] of scenario "A")"#, scenario: "A",
                                                    rule: "manual review", index: 0))
        #expect(try create(sandbox, name: "KYC 101") == .failure(HTTPStatusError(status: 400)))  // no rule of theirs matches
        #expect(try decidedBy(sandbox, create(sandbox, name: "REJECT 802").get())?["kind"] == "magic_value")
        #expect(try decidedBy(sandbox, create(sandbox).get())
                == ["kind": "default", "scenario": "A", "summary": #"the default timeline of scenario "A""#])

        #expect(try send(sandbox, "POST", "/sandbox/scenario",
                         #"{"name": "C", "bank": {"rules": [{"name": "from C", "when": {"beneficiary_name": "Bo"}, "then": []}]}}"#).status == 200)
        let later = try create(sandbox, name: "Bo").get()
        #expect(try decidedBy(sandbox, later)?["summary"] == #"rule "from C" (bank.rules[0] of scenario "C")"#)
        #expect(try decidedBy(sandbox, bo)?["rule"] == "from B")  // the decision was made at creation
        #expect(try send(sandbox, "POST", "/sandbox/cashouts/\(later)/actions", #"{"action":"cancel"}"#).status == 200)
        #expect(try decidedBy(sandbox, later)?["kind"] == "forced")
    }

    /// Kept in the journal and in snapshots, whatever scenarios the sandbox that reads them has.
    @Test func whatDecidedSurvivesARestartAndASnapshot() throws {
        let directory = NSTemporaryDirectory() + "decided-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try launch([Self.acme], directory: directory)
        _ = try create(first, amount: "1500.00").get()
        _ = try (0 ..< 4).map { _ in try create(first, name: "Flip").get() }
        _ = try create(first, name: "REJECT 801").get()
        let forced = try create(first).get()
        #expect(try send(first, "POST", "/sandbox/cashouts/\(forced)/actions", #"{"action":"hold"}"#).status == 200)
        let before = try send(first, "GET", "/sandbox/cashouts").bodyText
        for kind in ["rule", "magic_value", "forced"] { #expect(before.contains(#""kind":"\#(kind)""#)) }
        #expect(before.contains(#""outcome":1"#) && before.contains(#""outcome":0"#))
        let snapshot = try send(first, "GET", "/sandbox/snapshot").body
        first.stop()

        let restarted = try launch(directory: directory)
        defer { restarted.stop() }
        #expect(try send(restarted, "GET", "/sandbox/cashouts").bodyText == before)
        let restored = try launch()
        defer { restored.stop() }
        #expect(try TestHTTP.send(method: "PUT", url: "\(restored.baseURL)/sandbox/snapshot", body: snapshot).status == 200)
        #expect(try send(restored, "GET", "/sandbox/cashouts").bodyText == before)
    }
}
