@testable import CashoutSandbox
import Foundation
@testable import SandboxContract
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// `GET /sandbox/report`: what an app gets wrong, from the requests it sent and how it answered
/// the notifications, each finding with its cashouts, evidence and advice; checks with no evidence
/// `not_exercised`; no report when the request journal lost evidence.
@Suite struct IntegrationReportTests {
    private func start(scenario: String? = nil, journal: Int = 1000) throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.webhookTimeout = Waiting.limit  // the app's receivers here answer: none is a hang
        configuration.requestJournalCapacity = journal
        if let scenario {
            configuration.scenarios = [try ScenarioLoader.load(Array(scenario.utf8), file: "t.json", vocabulary: Sandbox.standardVocabulary)]
        }
        return try Sandbox.launch(configuration)
    }

    /// The app's notification receiver: answers every notification `status`.
    private func receiver(answering status: Int = 200) throws -> (server: HTTPServer, url: String) {
        let server = try HTTPServer.start(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0)) { _ in HTTPResponse(status: status) }
        return (server, "http://\(server.addresses[0])/hook")
    }

    /// A D24 request signed with `pass` (the merchant's unless told), its fields over `login` and `pass`.
    @discardableResult
    private func d24(_ sandbox: Sandbox, _ path: String, _ fields: String, pass: String = "sandbox_pass") throws -> HTTPResponse {
        let body = #"{"login":"sandbox_login","pass":"\#(pass)",\#(fields)}"#
        return try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)\(path)",
                                 headers: ["Content-Type": "application/json", "Payload-Signature": D24Signing.payloadSignature(body)],
                                 body: Array(body.utf8))
    }

    @discardableResult
    private func create(_ sandbox: Sandbox, _ externalID: String, amount: String = "100.00", url: String? = nil) throws -> HTTPResponse {
        try d24(sandbox, "/v3/cashout",
                #""external_id":"\#(externalID)","country":"BR","currency":"BRL","amount":"\#(amount)","document_id":"01716001340","#
                + #""document_type":"CPF","beneficiary_name":"Ana","beneficiary_lastname":"Silva","bank_code":"001","bank_account":"3423422-7","#
                + #""bank_branch":"1234","account_type":"C""#
                    + (url.map { #","notification_url":"\#($0)""# } ?? ""))
    }

    private func report(_ sandbox: Sandbox, _ query: String = "") throws -> (status: Int, json: JSON) {
        let answer = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/report\(query)")
        return (answer.status, try JSON.parse(answer.body))
    }

    /// How the one account's report judged each check of its API (`declared`), by id: "passed",
    /// "failed" or "not exercised"; nil unless each declared check is judged exactly once.
    private func verdicts(_ report: JSON, declared: [String]) -> [String: String]? {
        let account = report["accounts"]?[0]
        let ids: (String) -> [String] = { key in account?[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        let judged = ids("passed").map { ($0, "passed") } + ids("not_exercised").map { ($0, "not exercised") }
            + (account?["findings"]?.arrayValue ?? []).map { ($0["id"]?.stringValue ?? "", "failed") }
        let verdicts = Dictionary(judged, uniquingKeysWith: { _, _ in "twice" })
        return judged.count == declared.count && verdicts.keys.sorted() == declared.sorted() ? verdicts : nil
    }

    /// The one account's findings by id.
    private func findings(_ report: JSON) -> [String: JSON] {
        Dictionary(uniqueKeysWithValues: (report["accounts"]?[0]?["findings"]?.arrayValue ?? []).map { ($0["id"]?.stringValue ?? "", $0) })
    }

    /// `POST /sandbox/reconcile` answers the mismatches of the ledger in its body and keeps them:
    /// the report's `ledger_mismatch` shows the last one (and its ETag changes); the Swift
    /// library's `reconcile` does the same.
    @Test func aReconciliationAnswersItsMismatchesAndTheReportShowsTheLastOne() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        try create(sandbox, "a-1", amount: "100.00")
        let before = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/report")
        #expect((try JSON.parse(before.body))["accounts"]?[0]?["not_exercised"]?.arrayValue?.contains("ledger_mismatch") == true)
        func reconcile(_ body: String, _ query: String = "") throws -> (status: Int, json: JSON) {
            let answer = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/reconcile\(query)", body: Array(body.utf8))
            return (answer.status, try JSON.parse(answer.body))
        }
        let wrong = try reconcile(#"{"payouts": [{"external_id": "a-1", "status": "COMPLETED", "amount": "100.00"}]}"#)
        #expect(wrong.status == 200)
        #expect(wrong.json["ok"] == false && wrong.json["source"] == "request body" && wrong.json["entries"] == 1)
        let summary = #"the app believes cashout 1000001 (external_id "a-1") is COMPLETED; the bank's is PENDING"#
        #expect(wrong.json["mismatches"]?[0]?["summary"]?.stringValue == summary)
        #expect(wrong.json["mismatches"]?[0]?["evidence"]?[0]?["kind"] == "status")
        let after = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/report")
        #expect(after.headers["ETag"] != nil && after.headers["ETag"] != before.headers["ETag"])
        let finding = try #require(findings(try JSON.parse(after.body))["ledger_mismatch"])
        #expect(finding["severity"] == "error" && finding["occurrences"] == [.string(summary)] && finding["cashouts"] == [1_000_001])

        // The Swift library: a ledger that agrees replaces it, and the check passes.
        let agreed = sandbox.reconcile(ledger: ["payouts": [["external_id": "a-1", "status": "PENDING", "amount": "100.00"]]])
        #expect(try agreed.get().mismatches.isEmpty)
        #expect(try report(sandbox).json["accounts"]?[0]?["passed"]?.arrayValue?.contains("ledger_mismatch") == true)

        #expect(try reconcile("nope").json["message"]?.stringValue == AdminMessage.reconcileBody)
        #expect(try reconcile(#"{"payouts": 1}"#).status == 400)
        #expect(try reconcile(#"{"payouts": 1}"#).json["message"]?.stringValue
            == #"ledger request body: expected an object such as {"payouts": [{"external_id": "order-1", "status": "COMPLETED", "amount": "#
               + #""100.00"}]}, got {"payouts":1}"#)
        #expect(try reconcile(#"{"payouts": []}"#, "?account=nobody").status == 404)
    }

    @Test func refusedRequestsAreSignatureErrorsByCauseAndEveryOtherCheckIsNotExercised() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        try create(sandbox, "o-1")
        try d24(sandbox, "/v3/cashout/status", #""cashout_id":1000001"#, pass: "wrong")
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass","cashout_id":1000001}"#
        _ = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/v3/cashout/status",
                              headers: ["Payload-Signature": D24Signing.payloadSignature(body).uppercased()], body: Array(body.utf8))
        let (status, json) = try report(sandbox)
        #expect(status == 200)
        #expect(json["ok"] == false && json["errors"] == 1 && json["warnings"] == 0 && json["at"] == "2026-01-05T09:00:00Z")
        // What it judged: each of D24's checks, all but one with nothing to judge; by which thresholds; each check in a line.
        let d24 = DeclaredChecks.d24
        #expect(json["checks"]?.integerValue == d24.count && json["not_exercised"]?.integerValue == d24.count - 1)
        #expect(json["thresholds"] == ["follow_up_within": "1m", "status_polling": ["limit": 10, "per": "1m"]])
        #expect(json["check_descriptions"]?.objectValue?.keys.sorted() == ["d24"])
        #expect(json["check_descriptions"]?["d24"]?.objectValue?.keys.sorted() == d24.sorted())
        #expect(json["check_descriptions"]?["d24"]?["forged_notification_accepted"]?.stringValue?.hasPrefix(
            "a notification signed with a wrong key (webhook chaos's forged copy) answered 2xx; exercised by a forged copy once the app") == true)
        let account = try #require(json["accounts"]?[0])
        #expect(account["account"] == "sandbox_login" && account["dialect"] == "d24" && account["known"] == true)
        #expect(account["requests"] == 3 && account["cashouts"] == 1)
        let finding = try #require(findings(json)["signature_errors"])
        #expect(finding["severity"] == "error" && finding["cashouts"] == [])
        #expect(finding["occurrences"]?.arrayValue?.map { $0.stringValue?.prefix(30) ?? "" }
                == ["1 request refused: signature_m", "1 request refused: wrong_pass:"])
        #expect(finding["evidence"]?.arrayValue?.map { $0["id"] } == [2, 3])
        #expect(finding["evidence"]?[0]?["path"] == "/v3/cashout/status" && finding["evidence"]?[0]?["status"] == 401)
        #expect(finding["advice"]?.stringValue?.contains("login, pass and Payload-Signature") == true)
        #expect(account["passed"] == [])
        #expect(account["not_exercised"] == .array(d24.filter { $0 != "signature_errors" }.map(JSON.string)))  // in the report's order
    }

    @Test func aNotificationAcknowledgedButNeverFollowedUpIsAFindingOnceItsWindowCloses() throws {
        let sandbox = try start()
        let (app, url) = try receiver()
        defer { sandbox.stop(); app.stop() }
        try create(sandbox, "asked", url: url)
        try create(sandbox, "ignored", url: url)
        sandbox.advance(by: .seconds(5))  // both DELIVERED, both acknowledged
        try d24(sandbox, "/v3/cashout/status", #""external_id":"asked""#)
        sandbox.advance(by: .seconds(59))  // 09:01:04: every window (60 s after 09:00:05 and 09:00:15) is still open
        var json = try report(sandbox).json
        #expect(findings(json)["notification_not_followed_up"] == nil)
        #expect(json["accounts"]?[0]?["passed"]?.arrayValue?.contains("notification_not_followed_up") == true)  // "asked" was followed up
        sandbox.advance(by: .seconds(60))
        json = try report(sandbox).json
        let finding = try #require(findings(json)["notification_not_followed_up"])
        #expect(finding["cashouts"] == [1000001, 1000002])
        #expect(finding["occurrences"] == [
            "the COMPLETED notification of cashout 1000001 was not followed by POST /v3/cashout/status at all",
            "the DELIVERED, COMPLETED notifications of cashout 1000002 were not followed by POST /v3/cashout/status at all"])
        #expect(finding["evidence"]?[0] == ["kind": "delivery", "notification": 2, "cashout": 1000002, "status": "DELIVERED", "attempt": 1,
                                            "copy_of": nil, "at": "2026-01-05T09:00:05Z", "answered": 200, "error": nil, "chaos": nil])
        // The checks these requests exercised passed, but the one found; the rest are not exercised
        // (a check declared since is judged as it may be).
        let judged = try #require(verdicts(json, declared: DeclaredChecks.d24))
        let expected = ["notification_not_followed_up": "failed", "notification_failed": "passed", "signature_errors": "passed",
                        "status_polling_excessive": "passed", "late_rejection_missed": "not exercised",
                        "forged_notification_accepted": "not exercised", "duplicate_after_lost_response": "not exercised",
                        "idempotency_key_reused": "not exercised", "ledger_mismatch": "not exercised"]
        #expect(judged.filter { expected[$0.key] != nil } == expected)
    }

    @Test func aNotificationEveryAttemptOfWhichFailedIsAFinding() throws {
        let sandbox = try start(scenario: #"{"webhooks": {"retry": ["1m"]}}"#)
        let (app, url) = try receiver(answering: 500)
        defer { sandbox.stop(); app.stop() }
        try create(sandbox, "o-1", url: url)
        sandbox.advance(by: .seconds(300))
        let finding = try #require(findings(try report(sandbox).json)["notification_failed"])
        #expect(finding["occurrences"] == ["the DELIVERED notification of cashout 1000001 failed on all 2 attempts",
                                           "the COMPLETED notification of cashout 1000001 failed on all 2 attempts"])
        #expect(finding["evidence"]?.arrayValue?.map { $0["answered"] } == [500, 500, 500, 500])
    }

    @Test func aLateRejectionNotFollowedUpAndAForgedNotificationAcceptedAreFindings() throws {
        let sandbox = try start(scenario: #"""
            {"bank": {"rules": [{"when": {"amount": {"gte": 100}}, "then": [{"after": "5s", "status": "DELIVERED"}, {"after": "5s", "status": \#
            "COMPLETED"},
                                                                          {"after": "10s", "status": "REJECTED", "rejection_code": 826}]}]},
             "webhooks": {"chaos": [{"when": {"status": "COMPLETED"}, "kind": "forged"}]}}
            """#)
        let (app, url) = try receiver()
        defer { sandbox.stop(); app.stop() }
        try create(sandbox, "o-1", url: url)
        for _ in 0 ..< 3 { sandbox.advance(by: .seconds(5)) }
        try d24(sandbox, "/v3/cashout/status", #""cashout_id":1000001"#)  // after DELIVERED and COMPLETED, before the reversal
        sandbox.advance(by: .seconds(70))
        let found = findings(try report(sandbox).json)
        #expect(Set(found.keys) == ["late_rejection_missed", "forged_notification_accepted"])
        #expect(found["late_rejection_missed"]?["occurrences"] == [
            "the REJECTED notification of cashout 1000001 was not followed by POST /v3/cashout/status at all"])
        #expect(found["forged_notification_accepted"]?["occurrences"] == ["a forged COMPLETED notification of cashout 1000001 was answered 200"])
        #expect(found["forged_notification_accepted"]?["evidence"]?[0]?["chaos"] == "forged")
        // A copy is no attempt of the notification's own: it names the one it copies.
        #expect(found["forged_notification_accepted"]?["evidence"]?[0]?["attempt"] == .null)
        #expect(found["forged_notification_accepted"]?["evidence"]?[0]?["copy_of"] == 1)
    }

    @Test func aNewReferenceAfterALostAnswerAndAReusedReferenceAreFindings() throws {
        let sandbox = try start(scenario: #"{"faults": [{"when": {"endpoint": "POST /v3/cashout"}, "every": 2, "kind": "drop_after_commit"}]}"#)
        defer { sandbox.stop() }
        try create(sandbox, "first")
        #expect(throws: (any Error).self) { try create(sandbox, "lost", amount: "70.00") }  // committed, answer dropped
        try create(sandbox, "lost-again", amount: "70.00")
        try create(sandbox, "first", amount: "80.00")  // refused (511): the same id, another amount
        let found = findings(try report(sandbox).json)
        #expect(Set(found.keys) == ["duplicate_after_lost_response", "idempotency_key_reused"])
        #expect(found["duplicate_after_lost_response"]?["cashouts"] == [1000002, 1000003])
        #expect(found["duplicate_after_lost_response"]?["occurrences"] == [
            .string("the answer to the create of external_id lost (cashout 1000002) was lost, and the app created again for the same beneficiary "
                    + "and amount as lost-again")])
        #expect(found["duplicate_after_lost_response"]?["evidence"]?[0]?["answer"] == "dropped after commit (fault drop_after_commit)")
        #expect(found["idempotency_key_reused"]?["occurrences"] == ["external_id first was sent again with amount 100.00 then 80.00"])
        #expect(found["idempotency_key_reused"]?["cashouts"] == [1000001])
    }

    /// The app looked up a create whose answer was lost, the bank rejected it, and the app paid
    /// again under a new reference: it pays once, not twice. Before the rejection it is a duplicate.
    @Test func payingAgainAfterTheLostOneCameBackUnpaidIsNoDuplicate() throws {
        let scenario = #"""
            {"faults": [{"when": {"endpoint": "POST /v3/cashout"}, "every": 1, "times": 1, "kind": "drop_after_commit"}],
             "bank": {"rules": [{"when": {"external_id": "lost"}, "then": [{"after": "10s", "status": "REJECTED", "rejection_code": 801}]}]}}
            """#
        for (advance, duplicate) in [(Duration.seconds(10), false), (.seconds(5), true)] {
            let sandbox = try start(scenario: scenario)
            defer { sandbox.stop() }
            #expect(throws: (any Error).self) { try create(sandbox, "lost", amount: "70.00") }
            try d24(sandbox, "/v3/cashout/status", #""external_id":"lost""#)
            sandbox.advance(by: advance)
            try create(sandbox, "paid-again", amount: "70.00")
            let account = try #require(try report(sandbox).json["accounts"]?[0])
            #expect((findings(try report(sandbox).json)["duplicate_after_lost_response"] != nil) == duplicate, "after \(advance)")
            #expect(account["passed"]?.arrayValue?.contains("duplicate_after_lost_response") == !duplicate)
        }
    }

    @Test func pollingOneCashoutMoreThanTenTimesAMinuteIsAWarning() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        try create(sandbox, "o-1")
        for _ in 0 ..< 11 { try d24(sandbox, "/v3/cashout/status", #""cashout_id":1000001"#) }
        let json = try report(sandbox).json
        #expect(json["ok"] == true && json["errors"] == 0 && json["warnings"] == 1)
        #expect(findings(json)["status_polling_excessive"]?["severity"] == "warning")
        #expect(findings(json)["status_polling_excessive"]?["occurrences"] == ["cashout 1000001 was asked 11 times within 1m (at most 10 expected)"])
    }

    /// A status query asked to wait (a `rate_limit` fault's `Retry-After`) and sent again sooner is
    /// a warning, by the wall clock; one sent again after the wait is not. The waits are chosen so
    /// that no machine's speed decides: an hour that no retry waits, and a sleep longer than the
    /// second HTTP's `Retry-After` says (whole seconds, rounded up).
    @Test func aRequestSentAgainBeforeItsRetryAfterIsAWarningOneThatWaitedIsNot() throws {
        let sandbox = try start(scenario: #"""
            {"faults": [{"when": {"endpoint": "POST /v3/cashout/status", "body": {"cashout_id": 1000001}}, "every": 1, "times": 1,
                         "kind": "rate_limit", "retry_after": "1h"},
                        {"when": {"endpoint": "POST /v3/cashout/status", "body": {"cashout_id": 1000002}}, "every": 1, "times": 1,
                         "kind": "rate_limit", "retry_after": "1s"}]}
            """#)
        defer { sandbox.stop() }
        try create(sandbox, "o-1")
        try create(sandbox, "o-2")
        #expect(try d24(sandbox, "/v3/cashout/status", #""cashout_id":1000001"#).status == 429)
        #expect(try d24(sandbox, "/v3/cashout/status", #""cashout_id":1000001"#).status == 200)  // at once
        #expect(try d24(sandbox, "/v3/cashout/status", #""cashout_id":1000002"#).status == 429)
        Thread.sleep(forTimeInterval: 1.05)
        #expect(try d24(sandbox, "/v3/cashout/status", #""cashout_id":1000002"#).status == 200)
        let json = try report(sandbox).json
        #expect(json["warnings"] == 1)
        let finding = try #require(findings(json)["retried_before_retry_after"])
        #expect(finding["severity"] == "warning" && finding["cashouts"] == [1000001])
        let occurrence = try #require(finding["occurrences"]?[0]?.stringValue)
        #expect(occurrence.hasPrefix("POST /v3/cashout/status was sent again ")
                    && occurrence.hasSuffix(" ms after an answer that asked for a wait of 1h"), "\(occurrence)")
    }

    @Test func manncoRetriesOfARefusalAndAnExpiredTokenUsedAgain() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        func mannco(_ method: String, _ path: String, token: String? = nil, body: String = "") throws -> JSON {
            var headers: HTTPHeaders = ["Content-Type": "application/json"]
            if let token { headers.add("Authorization", "Bearer \(token)") }
            return try JSON.parse(try TestHTTP.send(method: method, url: "\(sandbox.baseURL)\(path)", headers: headers, body: Array(body.utf8)).body)
        }
        let token = try #require(try mannco("POST", "/user/login", body: #"{"apiKey":"sandbox_mannco_key"}"#)["content"]?["jwt"]?.stringValue)
        for _ in 0 ..< 3 { _ = try mannco("POST", "/cashout/process", token: token, body: #"{"amount":5000,"method":"tipalti"}"#) }
        sandbox.advance(by: .seconds(32 * 86_400))
        for _ in 0 ..< 2 { _ = try mannco("GET", "/user/balance", token: token) }
        let (status, json) = try report(sandbox, "?account=76561198000000001")
        #expect(status == 200 && json["accounts"]?.arrayValue?.count == 1)
        #expect(json["accounts"]?[0]?["dialect"] == "mannco")
        let found = findings(json)
        #expect(found["retried_after_refusal"]?["occurrences"] == [
            #"after "Pending cashout exists", POST /cashout/process was sent 1 more time unchanged, and refused again"#])
        #expect(found["expired_token_used"]?["occurrences"] == ["a token refused as expired was sent 1 more time without logging in again"])
        #expect(found["signature_errors"] == nil)  // an expired token is not a signing error
        let judged = try #require(verdicts(json, declared: DeclaredChecks.ids(of: "mannco")))
        let expected = ["retried_after_refusal": "failed", "expired_token_used": "failed", "signature_errors": "passed",
                        "duplicate_after_lost_response": "not exercised", "ledger_mismatch": "not exercised"]
        #expect(judged.filter { expected[$0.key] != nil } == expected)
    }

    @Test func payoutServiceCallsAreReadByTheirMerchantAndFieldNames() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        for (id, minor) in [("p-1", 1000), ("p-1", 2000)] {
            let body = #"{"merchant_payout_id": "\#(id)", "amount": {"minor_amount": \#(minor), "currency": "USD"}, "payout_method_data": {"card": "#
                       + #"{}}}"#
            _ = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/types.PayoutService/Create",
                                  headers: ["Content-Type": "application/json", "x-connector": "sandbox", "x-auth": "header-key",
                                              "x-api-key": "sandbox_prism_key"], body: Array(body.utf8))
        }
        let json = try report(sandbox, "?account=DefaultMerchantId").json
        #expect(json["accounts"]?[0]?["dialect"] == "prism")
        #expect(findings(json)["idempotency_key_reused"]?["occurrences"]
                == ["merchant_payout_id p-1 was sent again with amount USD 1000 then USD 2000"])
    }

    @Test func anUnknownAccountIs404AndAJournalThatLostRequestsGivesNoReport() throws {
        let sandbox = try start(journal: 2)
        defer { sandbox.stop() }
        #expect(try report(sandbox, "?account=nobody").status == 404)
        #expect(try report(sandbox, "?account=nobody").json["message"]
                == #"no account "nobody": the sandbox has none of that id, and no request named it"#)
        #expect(try report(sandbox).json["accounts"] == [])  // nothing happened yet: an empty report
        for id in ["a", "b", "c"] { try create(sandbox, id) }
        let (status, json) = try report(sandbox)
        #expect(status == 409 && json["ok"] == false && json["unknowable"] == true)
        #expect(json["message"]?.stringValue?.hasPrefix("the request journal pushed out 1 request (it keeps 2)") == true)
        _ = try TestHTTP.send(method: "DELETE", url: "\(sandbox.baseURL)/sandbox/requests")
        #expect(try report(sandbox).status == 200)
    }
}

extension IntegrationReportTests {
    /// PayoutService's notifications carry the status: an app that accepts one has learnt it, and
    /// one that refuses every attempt of a reversal's has missed it (with no Get after).
    @Test func aPayoutServiceReversalRefusedOnEveryAttemptIsMissed() throws {
        let sandbox = try start(scenario: #"""
            {"webhooks": {"retry": ["1m"]},
             "bank": {"rules": [{"when": {"dialect": "prism"}, "then": [{"after": "5s", "status": "DELIVERED"}, {"after": "5s", "status": \#
            "COMPLETED"},
                                                                        {"after": "10s", "status": "REJECTED"}]}]}}
            """#)
        let (app, url) = try receiver(answering: 503)
        defer { sandbox.stop(); app.stop() }
        let body = #"{"merchant_payout_id": "p-1", "amount": {"minor_amount": 1000, "currency": "USD"}, "payout_method_data": {"card": {}}, "#
                   + #""webhook_url": "\#(url)"}"#
        let created = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/types.PayoutService/Create",
                                        headers: ["Content-Type": "application/json", "x-connector": "sandbox", "x-auth": "header-key",
                                                    "x-api-key": "sandbox_prism_key"], body: Array(body.utf8))
        #expect(created.status == 200)
        sandbox.advance(by: .seconds(300))
        let json = try report(sandbox, "?account=DefaultMerchantId").json
        let found = findings(json)
        #expect(Set(found.keys) == ["notification_failed", "late_rejection_missed"])
        #expect(found["late_rejection_missed"]?["occurrences"]?[0]?.stringValue?.hasSuffix("was refused on every attempt, and Get was not "
                + "asked") == true)
        #expect(found["late_rejection_missed"]?["evidence"]?.arrayValue?.map { $0["answered"] } == [503, 503])
    }
}

extension IntegrationReportTests {
    /// The built-in sink is the sandbox's own receiver: its deliveries say nothing of the app.
    @Test func notificationsToTheBuiltInSinkAreLeftOut() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        try create(sandbox, "o-1", url: "\(sandbox.baseURL)/sandbox/sink/orders")
        sandbox.advance(by: .seconds(120))
        #expect(sandbox.sinks.receivedCount("orders") == 2)
        let notExercised = try report(sandbox).json["accounts"]?[0]?["not_exercised"]?.arrayValue ?? []
        #expect(notExercised.contains("notification_failed") && notExercised.contains("notification_not_followed_up"))
    }
}

extension IntegrationReportTests {
    /// A create refused for its signature says nothing of what the app pays: sending its
    /// external_id again is no evidence of idempotency either way.
    @Test func aRefusedCreateIsNoEvidenceOfIdempotency() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        try create(sandbox, "o-1")
        try d24(sandbox, "/v3/cashout", #""external_id":"o-1","country":"BR","currency":"BRL","amount":"999.00""#, pass: "wrong")
        let account = try #require(try report(sandbox).json["accounts"]?[0])
        #expect(account["not_exercised"]?.arrayValue?.contains("idempotency_key_reused") == true)
        #expect(account["findings"]?.arrayValue?.map { $0["id"] } == ["signature_errors"])
    }
}

/// What a report judged: a count that says how often the app polled, numbers that agree with the
/// summary, checks an app passes only by refusing everything left not exercised, and thresholds
/// set by the suite or the query.
extension IntegrationReportTests {
    @Test func pollingSaysTheMostQueriesAnyWindowHeldAndHowManyInAll() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        try create(sandbox, "o-1")
        for _ in 0 ..< 30 { try d24(sandbox, "/v3/cashout/status", #""cashout_id":1000001"#) }
        #expect(findings(try report(sandbox).json)["status_polling_excessive"]?["occurrences"] == [
            "cashout 1000001 was asked 30 times within 1m (at most 10 expected)"])
        // 5 more two minutes on: the fullest window still holds 30, of 35 in all.
        sandbox.advance(by: .seconds(120))
        for _ in 0 ..< 5 { try d24(sandbox, "/v3/cashout/status", #""cashout_id":1000001"#) }
        let finding = try #require(findings(try report(sandbox).json)["status_polling_excessive"])
        #expect(finding["occurrences"] == ["cashout 1000001 was asked 30 times within 1m (35 in all) (at most 10 expected)"])
        #expect(finding["evidence"]?.arrayValue?.count == 20)  // the first 20 of the fullest window
    }

    @Test func anAppThatRefusesEveryNotificationExercisesNoForgedCopyAndItsAttemptsAreNumberedAsItsOwn() throws {
        let sandbox = try start(scenario: #"""
            {"webhooks": {"retry": ["1m"], "chaos": [{"when": {"status": "DELIVERED"}, "kind": "forged"}]}}
            """#)
        let (app, url) = try receiver(answering: 500)
        defer { sandbox.stop(); app.stop() }
        try create(sandbox, "o-1", url: url)
        sandbox.advance(by: .seconds(300))
        let json = try report(sandbox).json
        let account = try #require(json["accounts"]?[0])
        // The forged copy was refused, as every genuine one was: that shows nothing of a signature check.
        #expect(account["not_exercised"]?.arrayValue?.contains("forged_notification_accepted") == true)
        #expect(account["passed"]?.arrayValue?.contains("forged_notification_accepted") == false)
        let failed = try #require(findings(json)["notification_failed"])
        #expect(failed["occurrences"]?[0] == "the DELIVERED notification of cashout 1000001 failed on all 2 attempts")
        // Numbered 1 and 2 as "all 2 attempts" counts them, though the forged copy went out between them.
        let delivered = (failed["evidence"]?.arrayValue ?? []).filter { $0["status"] == "DELIVERED" }
        #expect(delivered.map { $0["attempt"] } == [1, 2])
        #expect(delivered.allSatisfy { $0["chaos"] == .null && $0["copy_of"] == .null })
        let webhooks = try JSON.parse(try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/webhooks").body)
        let places = webhooks["webhooks"]?.arrayValue?.first { $0["status"] == "DELIVERED" }?["attempts"]?.arrayValue?.map { $0["number"] }
        #expect(places == [1, 2, 3], "the admin API numbers every attempt, the copy among them: \(webhooks)")
    }

    /// An app that does nothing after a lost answer (yet) shows nothing either way.
    @Test func aLostAnswerNothingFollowedIsNotExercised() throws {
        let sandbox = try start(scenario: #"{"faults": [{"when": {"endpoint": "POST /v3/cashout"}, "every": 1, "kind": "drop_after_commit"}]}"#)
        defer { sandbox.stop() }
        #expect(throws: (any Error).self) { try create(sandbox, "lost") }
        var account = try #require(try report(sandbox).json["accounts"]?[0])
        #expect(account["not_exercised"]?.arrayValue?.contains("duplicate_after_lost_response") == true)
        try d24(sandbox, "/v3/cashout/status", #""external_id":"lost""#)  // asked by its external_id: the right thing
        account = try #require(try report(sandbox).json["accounts"]?[0])
        #expect(account["passed"]?.arrayValue?.contains("duplicate_after_lost_response") == true)
    }

    @Test func theThresholdsAreTheSuitesUnlessTheQuerySetsThemAndEachIsCachedApart() throws {
        let sandbox = try start(scenario: #"{"report": {"follow_up_within": "2m", "status_polling": {"limit": 40}}}"#)
        let (app, url) = try receiver()
        defer { sandbox.stop(); app.stop() }
        try create(sandbox, "o-1", url: url)
        sandbox.advance(by: .seconds(5))  // DELIVERED and COMPLETED, acknowledged
        sandbox.advance(by: .seconds(90))
        for _ in 0 ..< 30 { try d24(sandbox, "/v3/cashout/status", #""cashout_id":1000001"#) }  // 90 s after: within the suite's 2m
        sandbox.advance(by: .seconds(300))
        let suite = try report(sandbox)
        #expect(suite.status == 200 && findings(suite.json).isEmpty)
        #expect(suite.json["thresholds"] == ["follow_up_within": "2m", "status_polling": ["limit": 40, "per": "1m"]])
        let strict = try report(sandbox, "?follow_up_within=1m&polling_limit=10&polling_per=30s")
        #expect(Set(findings(strict.json).keys) == ["notification_not_followed_up", "status_polling_excessive"])
        #expect(findings(strict.json)["status_polling_excessive"]?["occurrences"]
                == ["cashout 1000001 was asked 30 times within 30s (at most 10 expected)"])
        #expect(findings(strict.json)["notification_not_followed_up"]?["advice"]?.stringValue?.hasSuffix("within 1m.") == true)
        // Each set of thresholds has its own ETag; the suite's is the plain one.
        let suiteTag = try #require(try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/report").headers["ETag"])
        let strictTag = try #require(try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/report?polling_limit=10").headers["ETag"])
        #expect(suiteTag != strictTag && strictTag.hasSuffix("-t2m.10.1m\""))
        let again = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/report?polling_limit=10", headers: ["If-None-Match": suiteTag])
        #expect(again.status == 200)
        #expect(findings(try JSON.parse(again.body))["status_polling_excessive"] != nil)
        #expect(findings(try report(sandbox).json).isEmpty)  // the suite's answer, not the last one made
    }

    @Test func badThresholdsInTheQueryAre400() throws {
        let sandbox = try start()
        defer { sandbox.stop() }
        for (query, message) in [
            ("?follow_up_within=soon", #"follow_up_within: expected a duration from 1s to 7d, such as "2m", got "soon""#),
            ("?polling_per=0s", #"polling_per: expected a duration from 1s to 7d, such as "2m", got "0s""#),
            ("?polling_limit=0", #"polling_limit: expected a whole number from 1 to 1000000, got "0""#),
            ("?polling_limit=ten", #"polling_limit: expected a whole number from 1 to 1000000, got "ten""#),
        ] {
            let (status, json) = try report(sandbox, query)
            #expect(status == 400 && json == ["code": 400, "message": .string(message)], "\(query)")
        }
    }
}
