@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxPersistence
@testable import SandboxContract
import Testing

/// An admin API over a bank of its own, no payout API, on a manual clock: what a sandbox hands it, made here.
private func admin(journalCapacity: Int = 10) -> AdminAPI {
    let clock = VirtualClock(mode: .manual, start: VirtualTime(iso8601: "2026-01-05T09:00:00Z"))
    let bank = Bank(clock: clock, configuration: Bank.Configuration(), accounts: []) { _, _, _ in nil }
    let sinks = SinkStore()
    let sender = WebhookSender(dialects: [:], sinks: sinks, timeout: .seconds(5), concurrency: 4, counts: WebhookCounts())
    let faults = FaultInjector(faults: [], seed: 0) { _, _, _, _, _ in RequestSubject(identity: "", account: nil, payout: nil) }
    let requests = RequestLog(capacity: journalCapacity, bodyLimit: 1024, grpc: GRPCServer(services: [], files: { [] }))
    return AdminAPI(bank: bank, sinks: sinks, faults: faults, sender: sender, initial: ([], Bank.Configuration()),
                    layers: ScenarioLayers(ScenarioSetup(layering: [])), vocabulary: ScenarioVocabulary(), dialects: [:],
                    requests: requests, reports: ReportCache(), suite: SuiteProgress(),
                    bankFormat: { BankFormat(version: $0, legacyDialect: "none") { _, _ in [:] } })
}

private func json(_ response: HTTPResponse) throws -> JSON { try JSON.parse(response.resolved.body) }

/// The admin API answers on its own, without a sandbox around it.
@Suite struct AdminAPIUnitTests {
    @Test func theClockIsShownAndAdvancedByTheAdmin() throws {
        let admin = admin()
        #expect(try json(admin.getClock(HTTPRequest(method: "GET", target: "/sandbox/clock")))["now"] == "2026-01-05T09:00:00Z")
        let request = HTTPRequest(method: "POST", target: "/sandbox/clock/advance", body: Array(#"{"by":"1h"}"#.utf8))
        let advanced = admin.advanceClock(request).resolved  // once: each resolution runs the advance
        #expect(advanced.status == 200)
        #expect(try json(advanced)["now"] == "2026-01-05T10:00:00Z")
        #expect(try json(advanced)["events_applied"] == 0)
    }

    @Test func anAdvanceWithTwoFormsOrAnUnreadableOneIsA400() throws {
        let admin = admin()
        for body in [#"{"by":"1h","to_next_event":true}"#, #"{"by":"soon"}"#, "[]"] {
            let response = admin.advanceClock(HTTPRequest(method: "POST", target: "/sandbox/clock/advance", body: Array(body.utf8))).resolved
            #expect(response.status == 400, "\(body)")
        }
        let past = admin.advanceClock(HTTPRequest(method: "POST", target: "/sandbox/clock/advance",
                                                  body: Array(#"{"to":"2020-01-01T00:00:00Z"}"#.utf8))).resolved
        #expect(past.status == 409)
    }

    @Test func theHealthAnswerIsItsJSONValueByteForByte() throws {
        let admin = admin()
        let health = admin.getHealth(HTTPRequest(method: "GET", target: "/sandbox/health"))
        #expect(health.status == 200)
        #expect(try JSON.parse(health.body) == AdminAPI.healthJSON(mode: .manual, now: "2026-01-05T09:00:00Z"))
        #expect(health.body == AdminAPI.healthJSON(mode: .manual, now: "2026-01-05T09:00:00Z").serialized())
    }

    @Test func withoutASuiteTheSuiteIs404AndAnUnknownCashoutToo() throws {
        let admin = admin()
        #expect(admin.getSuite(HTTPRequest(method: "GET", target: "/sandbox/suite")).status == 404)
        var request = HTTPRequest(method: "GET", target: "/sandbox/cashouts/7")
        request.parameters["id"] = "7"
        #expect(admin.getCashout(request).status == 404)
        #expect(try json(admin.listCashouts(HTTPRequest(method: "GET", target: "/sandbox/cashouts")))["cashouts"] == .array([]))
    }

    @Test func aScenarioThatDoesNotLoadIsA400AndAResetAnswersTheClock() throws {
        let admin = admin()
        let refused = admin.loadScenario(HTTPRequest(method: "POST", target: "/sandbox/scenario", body: Array("{".utf8))).resolved
        #expect(refused.status == 400)
        let reset = try json(admin.reset(HTTPRequest(method: "POST", target: "/sandbox/reset")))
        #expect(reset == ["status": "reset", "clock": "2026-01-05T09:00:00Z"])
    }

    @Test func theReportsThresholdsAreReadFromTheQueryElseKept() throws {
        let read = AdminAPI.thresholds(HTTPRequest(method: "GET", target: "/sandbox/report?follow_up_within=2m&polling_limit=20"),
                                       else: .standard)
        let thresholds = try read.get()
        #expect(thresholds.followUpWithin == .seconds(120))
        #expect(thresholds.pollingLimit == 20)
        #expect(thresholds.pollingPer == ReportThresholds.standard.pollingPer)
        for query in ["polling_limit=0", "polling_per=often", "follow_up_within=x"] {
            guard case .failure(let refusal) = AdminAPI.thresholds(HTTPRequest(method: "GET", target: "/sandbox/report?\(query)"),
                                                                  else: .standard) else {
                Issue.record("\(query) was taken")
                continue
            }
            #expect(refusal.response.status == 400)
        }
    }
}

/// `If-None-Match` against a report's `ETag`.
@Suite struct ReportCacheTests {
    @Test func aListOfTagsWeakOrNotMatchesTheTagItNames() {
        let tag = #""r12.0-345-1767603600000-1""#
        #expect(ReportCache.matches(tag, tag))
        #expect(ReportCache.matches(#""other", W/"r12.0-345-1767603600000-1""#, tag))
        #expect(ReportCache.matches(" \t\(tag)\t ", tag))
        #expect(!ReportCache.matches(#""r12.0-345-1767603600000-2""#, tag))
        #expect(!ReportCache.matches("", tag))
    }

    @Test func aReconciliationKeptIsCountedAndAResetForgetsIt() {
        let reports = ReportCache()
        #expect(reports.reconciliation.count == 0)
        reports.keep(nil)
        #expect(reports.reconciliation.last == nil)
        #expect(reports.reconciliation.count == 1)
    }
}

/// `GET /sandbox/suite`'s answer as a suite's steps go.
@Suite struct SuiteProgressTests {
    @Test func aSuiteRunsThenPassesOrFails() {
        let suite = SuiteProgress()
        #expect(suite.json == nil)
        suite.start(steps: 3)
        suite.step(1)
        #expect(suite.json == ["state": "running", "step": 1, "steps": 3, "failure": .null, "cases": []])
        suite.end(failure: nil)
        #expect(suite.json == ["state": "passed", "step": 3, "steps": 3, "failure": .null, "cases": []])
        // Every step runs: the first that failed is the one named, whatever ran after it.
        let failing = SuiteProgress()
        failing.start(steps: 3)
        failing.step(3)
        failing.end(failure: "step 2: no", step: 2)
        #expect(failing.json == ["state": "failed", "step": 2, "steps": 3, "failure": "step 2: no", "cases": []])
        // The run judged: its cases, as they are listed.
        let cases: [JSON] = [["name": "c1", "verdict": "failed"]]
        failing.judged(cases: cases)
        #expect(failing.json?["cases"] == .array(cases))
    }

    /// A run's record keeps the answer; `show` puts it back as it was.
    @Test func aRestoredSuiteAnswersAsTheRunEnded() {
        let ended = SuiteProgress()
        ended.start(steps: 4)
        ended.end(failure: "step 1: no", step: 1)
        ended.judged(cases: [["name": "completes", "verdict": "failed"], ["name": "closed", "verdict": "passed"]])
        let shown = SuiteProgress()
        shown.restore(ended.json!)
        #expect(shown.json == ended.json)
        let running = SuiteProgress()
        running.restore(["state": "running", "step": 2, "steps": 4, "failure": .null, "cases": []])
        #expect(running.json?["state"] == "running")
        let nothing = SuiteProgress()
        nothing.restore(["state": "passed"])
        #expect(nothing.json == nil)
    }

    @Test func anEndWithoutAStartChangesNothing() {
        let suite = SuiteProgress()
        suite.end(failure: nil)
        #expect(suite.json == nil)
    }
}
