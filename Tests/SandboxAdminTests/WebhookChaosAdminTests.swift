@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxSupport
@testable import SandboxWire
@testable import SandboxRunner
@testable import SandboxContract
import TestHelpers
import Testing

/// Webhook chaos through the admin API and the built-in sink scripted as a handler, in D24's
/// format (PrismWebhookChaosTests has PayoutService's): the routes and their errors, the journal's
/// marks, the sink's verdicts, and chaos carried across a restart and a snapshot.
@Suite struct WebhookChaosAdminTests {
    static func json(_ sandbox: Sandbox, _ method: String, _ path: String, _ body: String = "") throws -> (status: Int, json: JSON) {
        let response = try ManualSandbox.send(sandbox, method, path, body)
        return (response.status, response.body.isEmpty ? .null : try JSON.parse(response.body))
    }

    /// `{"code": status, "message": message}`.
    static func error(_ status: Int, _ message: String) -> JSON {
        ["code": .number(status), "message": .string(message)]
    }

    // MARK: - The rules in force

    @Test func theRulesInForceAreReadAndReplacedAndAScenarioOrAResetChangesThem() throws {
        let sandbox = try ManualSandbox.launch(nil)
        defer { sandbox.stop() }
        #expect(try Self.json(sandbox, "GET", "/sandbox/webhooks/chaos") == (200, []))
        let rules = #"[{"name":"at least once","when":{"status":"COMPLETED"},"kind":"duplicate","after":"30s"},{"kind":"forged","rate":0.5}]"#
        let expected = try JSON.parse(Array(rules.utf8))
        #expect(try Self.json(sandbox, "PUT", "/sandbox/webhooks/chaos", rules) == (200, expected))
        #expect(try Self.json(sandbox, "GET", "/sandbox/webhooks/chaos") == (200, expected))
        // A scenario without chaos keeps it; one with chaos replaces it; a reset ends it.
        #expect(try ManualSandbox.send(sandbox, "POST", "/sandbox/scenario", #"{"name":"other"}"#).status == 200)
        #expect(try Self.json(sandbox, "GET", "/sandbox/webhooks/chaos").json == expected)
        #expect(try ManualSandbox.send(sandbox, "POST", "/sandbox/scenario", #"{"webhooks":{"chaos":[{"kind":"replay"}]}}"#).status == 200)
        #expect(try Self.json(sandbox, "GET", "/sandbox/webhooks/chaos").json == [["kind": "replay"]])
        #expect(try Self.json(sandbox, "PUT", "/sandbox/webhooks/chaos", "[]") == (200, []))
        #expect(try ManualSandbox.send(sandbox, "PUT", "/sandbox/webhooks/chaos", rules).status == 200)
        #expect(try ManualSandbox.send(sandbox, "POST", "/sandbox/reset").status == 200)
        #expect(try Self.json(sandbox, "GET", "/sandbox/webhooks/chaos").json == [])
    }

    @Test(arguments: [
        ("{}", #"expected a scenario's webhooks.chaos: a JSON array of rules, such as [{"kind": "duplicate", "every": 2}]"#),
        (#"[{"kind":"lost"}]"#, "[0].kind: expected one of duplicate, out_of_order, delayed, forged, replay"),
        (#"[{"kind":"duplicate"},{"kind":"delayed"}]"#, #"[1]: expected "delay" for kind delayed"#),
        (#"[{"kind":"duplicate","delay":"1m"}]"#, "[0].delay: expected only with kind delayed"),
        (#"[{"kind":"forged","every":2,"rate":0.5}]"#, #"[0]: expected at most one of "every" or "rate""#),
        (#"[{"kind":"forged","when":{"status":"SUCCESS"}}]"#,
         "[0].when.status: expected a status by the sandbox's name: AWAITING_DETAILS, CANCELLED, COMPLETED, DELIVERED, EXPIRED, ON_HOLD, PENDING, "
         + "REJECTED, STAGED"),
    ])
    func badRulesAreRefusedWithWhereAndWhy(body: String, message: String) throws {
        let sandbox = try ManualSandbox.launch(nil)
        defer { sandbox.stop() }
        #expect(try Self.json(sandbox, "PUT", "/sandbox/webhooks/chaos", body) == (400, Self.error(400, message)))
        #expect(try Self.json(sandbox, "GET", "/sandbox/webhooks/chaos").json == [])
    }

    // MARK: - A chaos delivery now

    @Test func aDuplicateAForgeryAndAReplaySentNowAreMarkedInTheJournal() throws {
        let sandbox = try ManualSandbox.launch(nil)
        defer { sandbox.stop() }
        #expect(try ManualSandbox.send(sandbox, "PUT", "/sandbox/sink/shop", #"{"check_signatures":true,"deduplicate":true}"#).status == 204)
        #expect(try ManualSandbox.create(sandbox, "o-1").status == 200)
        #expect(try ManualSandbox.send(sandbox, "POST", "/sandbox/clock/advance", #"{"by":"5s"}"#).status == 200)
        var last = JSON.null
        for kind in ["duplicate", "forged", "replay"] {
            let sent = try Self.json(sandbox, "POST", "/sandbox/webhooks/1/chaos", #"{"kind":"\#(kind)"}"#)
            #expect(sent.status == 200)
            last = sent.json
        }
        let attempts = last["attempts"]?.arrayValue ?? []
        try #require(attempts.count == 4)
        #expect(attempts[2] == [
            "number": 3, "at": "2026-01-05T09:00:05Z", "manual": true, "retry": false,
            "chaos": ["kind": "forged", "summary": "forged copy of attempt 1, signed with a wrong secret, sent by hand", "rule": .null,
                      "index": .null, "copy_of": ["webhook": 1, "attempt": 1], "delay": .null, "after_webhook": .null],
            "response_status": 401, "error": .null,
            "response_body": .string(attempts[2]["response_body"]?.stringValue ?? ""),
        ])
        #expect(attempts.map { $0["chaos"]?["summary"]?.stringValue } == [nil, "duplicate of attempt 1, sent by hand",
                                                                         "forged copy of attempt 1, signed with a wrong secret, sent by hand",
                                                                         "replay of attempt 1, sent by hand"])
        #expect(attempts.map { $0["response_status"]?.numberText } == ["200", "200", "401", "200"])
        #expect(last["state"] == "delivered" && last["chaos_plan"] == .null)
        // The handler saw the forged control, refused it, and ignored the copies it had processed.
        let sink = try Self.json(sandbox, "GET", "/sandbox/sink/shop").json
        let requests = sink["requests"]?.arrayValue ?? []
        #expect(requests.map { $0["verdict"]?.stringValue } == ["processed", "duplicate", "refused", "duplicate"])
        let control = D24Signing.control(externalID: "o-1")
        let forged = Hex.uppercase(HMACSHA256.authenticationCode(for: "Be4o-1Bo7", key: HMACSHA256.Key("sandbox_secret.stale")))
        #expect(requests[2]["form"]?["control"]?.stringValue == forged)
        #expect(requests[2]["reason"]?.stringValue == "control \(forged) is not the merchant's for external_id o-1: expected \(control)")
        #expect(requests.allSatisfy { $0["cashout_id"] == 1_000_001 && $0["status"] == "DELIVERED" })
        #expect(sink["check_signatures"] == true && sink["deduplicate"] == true)
    }

    @Test func aChaosDeliveryNowNeedsAWebhookWithAURLAndAKindThatCanBeSentNow() throws {
        let sandbox = try ManualSandbox.launch(nil)
        defer { sandbox.stop() }
        let noURL = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"o-9","country":"BR","currency":"BRL","amount":"100.00","#
                    + #""document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","#
                    + #""bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C"}"#
        #expect(try ManualSandbox.send(sandbox, "POST", "/v3/cashout", noURL, signed: true).status == 200)
        #expect(try ManualSandbox.send(sandbox, "POST", "/sandbox/clock/advance", #"{"by":"5s"}"#).status == 200)
        let badKind = Self.error(400, #"expected {"kind": "duplicate"}, "forged" or "replay""#)
        #expect(try Self.json(sandbox, "POST", "/sandbox/webhooks/99/chaos",
                              #"{"kind":"duplicate"}"#) == (404, Self.error(404, "no webhook with id 99")))
        #expect(try Self.json(sandbox, "POST", "/sandbox/webhooks/x/chaos", #"{"kind":"duplicate"}"#).status == 404)
        #expect(try Self.json(sandbox, "POST", "/sandbox/webhooks/1/chaos", #"{"kind":"delayed"}"#) == (400, badKind))
        #expect(try Self.json(sandbox, "POST", "/sandbox/webhooks/1/chaos", "[]") == (400, badKind))
        #expect(try Self.json(sandbox, "POST", "/sandbox/webhooks/1/chaos", #"{"kind":"forged"}"#)
            == (409, Self.error(409, "webhook 1 has no notification URL")))
    }

    // MARK: - The sink as a handler

    @Test func theSinkReadsWhatItIsSentOverHTTPAndItsScriptChangesKeyByKey() throws {
        let sandbox = try ManualSandbox.launch(nil)
        defer { sandbox.stop() }
        #expect(try ManualSandbox.send(sandbox, "PUT", "/sandbox/sink/h", #"{"answers":[503]}"#).status == 204)
        #expect(try ManualSandbox.send(sandbox, "PUT", "/sandbox/sink/h", #"{"check_signatures":true}"#).status == 204)
        #expect(try Self.json(sandbox, "GET", "/sandbox/sink/h").json["answers"] == [503])
        #expect(try ManualSandbox.send(sandbox, "PUT", "/sandbox/sink/h", #"{"deduplicate":true,"check_signatures":1}"#).status == 400)
        // `{}` sets nothing, as a scenario's sink entry `{}` does (Behaviour and choices, "A sink script of `{}`").
        #expect(try ManualSandbox.send(sandbox, "PUT", "/sandbox/sink/h", "{}").status == 204)
        let kept = try Self.json(sandbox, "GET", "/sandbox/sink/h").json
        #expect(kept["answers"] == [503] && kept["check_signatures"] == true && kept["deduplicate"] == false)
        #expect(try ManualSandbox.create(sandbox, "o-1", url: "http://127.0.0.1:9/hook").status == 200)  // never reaches the sink
        #expect(try ManualSandbox.send(sandbox, "POST", "/sandbox/clock/advance", #"{"by":"5s"}"#).status == 200)
        let notification = try #require(sandbox.bank.notification(id: 1))
        let form = try #require(sandbox.notification(notification)?.body())

        // Not a notification, a scripted failure (not processed), then the same form processed once.
        let garbage = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/sink/h", body: Array("hello".utf8))
        #expect(garbage.status == 401)
        #expect(garbage.bodyText == #"{"reason":"not a notification of the sandbox's APIs","received":true,"verdict":"refused"}"#)
        let headers: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
        var answers: [String] = []
        for _ in 0 ..< 2 {
            let response = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/sink/h", headers: headers, body: Array(form.utf8))
            answers.append("\(response.status) \(response.bodyText)")
        }
        #expect(try ManualSandbox.send(sandbox, "PUT", "/sandbox/sink/h", #"{"deduplicate":true}"#).status == 204)
        let again = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/sink/h", headers: headers, body: Array(form.utf8))
        #expect(answers == [#"503 {"reason":"scripted answer 503","received":true,"verdict":"failed"}"#,
                            #"200 {"received":true,"verdict":"processed"}"#])
        #expect(again.bodyText == #"{"received":true,"verdict":"duplicate"}"#)
        let requests = try Self.json(sandbox, "GET", "/sandbox/sink/h").json["requests"]?.arrayValue ?? []
        #expect(requests.map { [$0["verdict"], $0["cashout_id"], $0["status"]] } == [
            ["refused", .null,
             .null], ["failed", 1_000_001, "DELIVERED"], ["processed", 1_000_001, "DELIVERED"], ["duplicate", 1_000_001, "DELIVERED"],
        ])
        // A plain sink answers as before, and still tells what it was sent.
        let plain = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/sink/plain", headers: headers, body: Array(form.utf8))
        #expect(plain.status == 200 && plain.bodyText == #"{"received":true}"#)
        let seen = try Self.json(sandbox, "GET", "/sandbox/sink/plain").json
        #expect(seen["requests"]?[0]?["verdict"] == "processed" && seen["requests"]?[0]?["cashout_id"] == 1_000_001)
        #expect(seen["check_signatures"] == false)
    }

    // MARK: - Carried across a restart and a snapshot

    /// Chaos still to come when a sandbox stops: a DELIVERED notification held, a COMPLETED one's
    /// duplicate due a minute after it was sent.
    static let pending = #"{"webhooks":{"chaos":[{"when":{"status":"DELIVERED"},"kind":"out_of_order"},{"when":{"status":"COMPLETED"},"#
                         + #""kind":"duplicate","after":"1m"},{"when":{"status":"DELIVERED"},"kind":"replay","after":"2m"}]}}"#

    static func prepare(_ sandbox: Sandbox) throws {
        #expect(try ManualSandbox.send(sandbox, "POST", "/sandbox/scenario", pending).status == 200)
        #expect(try ManualSandbox.create(sandbox, "o-1").status == 200)
        #expect(try ManualSandbox.send(sandbox, "POST", "/sandbox/clock/advance", #"{"by":"20s"}"#).status == 200)
        #expect(try ManualSandbox.create(sandbox, "o-2").status == 200)
        #expect(try ManualSandbox.send(sandbox, "POST", "/sandbox/clock/advance", #"{"by":"5s"}"#).status == 200)
    }

    static func finish(_ sandbox: Sandbox) throws -> String {
        #expect(try ManualSandbox.send(sandbox, "POST", "/sandbox/clock/advance", #"{"by":"1h"}"#).status == 200)
        return try webhooks(sandbox)
    }

    /// The webhook journal, its URLs without the sandbox's port.
    static func webhooks(_ sandbox: Sandbox) throws -> String {
        try ManualSandbox.send(sandbox, "GET", "/sandbox/webhooks").bodyText.replacingOccurrences(of: sandbox.baseURL.absoluteString, with: "BASE")
    }

    @Test func chaosStillToComeIsCarriedAcrossARestartAndASnapshot() throws {
        let straight = try ManualSandbox.launch(nil)
        defer { straight.stop() }  // stopped before its port is taken again: stopping twice is harmless
        try Self.prepare(straight)
        let midway = try Self.webhooks(straight)
        #expect(midway.contains(#""state":"due""#) && midway.contains(#""released_by":null"#))
        let snapshot = try ManualSandbox.send(straight, "GET", "/sandbox/snapshot")
        let expected = try Self.finish(straight)
        #expect(expected.contains(#""kind":"out_of_order""#) && expected.contains(#""kind":"replay""#) && expected.contains(#""kind":"duplicate""#))
        straight.stop()

        let directory = NSTemporaryDirectory() + "state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try ManualSandbox.launch(directory)
        try Self.prepare(first)
        first.stop()
        // On the same port: the notifications go on to its sink.
        let second = try ManualSandbox.launch(directory) { $0.server.port = first.addresses[0].port }
        defer { second.stop() }
        #expect(try Self.webhooks(second) == midway)
        #expect(try Self.json(second, "GET", "/sandbox/webhooks/chaos").json.arrayValue?.count == 3)
        #expect(try Self.finish(second) == expected)

        let restored = try ManualSandbox.launch(nil) { $0.server.port = straight.addresses[0].port }  // its sink, as the snapshot's URLs say
        defer { restored.stop() }
        #expect(try TestHTTP.send(method: "PUT", url: "\(restored.baseURL)/sandbox/snapshot", body: snapshot.body).status == 200)
        #expect(try Self.finish(restored) == expected)
    }

    // MARK: - Determinism

    static func seeded(_ seed: Int) throws -> Scenario {
        try ScenarioLoader.load(Array(#"""
            {"seed": \#(seed),
             "webhooks": {"chaos": [{"kind": "duplicate", "rate": 0.5, "after": {"min": "1s", "max": "5m"}},
                                    {"kind": "delayed", "delay": {"min": "1s", "max": "1h"}, "rate": 0.5}, {"kind": "forged", "every": 3}]},
             "steps": [{"create_cashouts": {"count": 20}}, {"advance": "1d"}]}
            """#.utf8), file: "seeded.json", vocabulary: Sandbox.Configuration().scenarioVocabulary)
    }

    @Test func theSameSeedGivesTheSameChaosAndAnotherSeedOther() throws {
        let first = ScenarioRunner.run(try Self.seeded(5), journal: true)
        #expect(first.passed)
        #expect(first.journal.contains(#""chaos":"duplicate""#) && first.journal.contains(#""chaos":"delayed""#)
            && first.journal.contains(#""chaos":"forged""#))
        #expect(ScenarioRunner.run(try Self.seeded(5), journal: true).journal == first.journal)
        #expect(ScenarioRunner.run(try Self.seeded(6), journal: true).journal != first.journal)
    }
}
