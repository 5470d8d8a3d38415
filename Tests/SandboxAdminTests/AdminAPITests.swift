@testable import CashoutSandbox
import Glibc
@testable import SandboxBank
@testable import SandboxSupport
@testable import SandboxWire
import TestHelpers
import Testing

/// A sandbox on a manual clock at 2026-01-05T09:00:00Z, and calls against it.
private struct Admin {
    let sandbox: Sandbox

    init(clockMode: VirtualClock.Mode = .manual, timeScale: Double = 1) throws {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = clockMode
        configuration.timeScale = timeScale
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        sandbox = try Sandbox.launch(configuration)
    }

    func call(_ method: String, _ path: String, _ body: String? = nil) throws -> (status: Int, json: JSON) {
        let response = try TestHTTP.send(method: method, url: "\(sandbox.baseURL)\(path)", body: Array((body ?? "").utf8))
        return (response.status, response.body.isEmpty ? .null : try JSON.parse(response.body))
    }

    @discardableResult
    func createCashout(_ externalID: String, amount: String = "100.00", url: String? = nil) throws -> Int {
        let hook = url.map { #","notification_url":"\#($0)""# } ?? ""
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"\#(externalID)","country":"BR","currency":"USD","#
                   + #""amount":"\#(amount)","document_id":"01716001340","document_type":"CPF","beneficiary_name":"Ana","#
                   + #""beneficiary_lastname":"Silva","bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C"\#(hook)}"#
        let signature = D24Signing.payloadSignature(body)
        let response = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/v3/cashout",
                                         headers: ["Payload-Signature": signature, "User-Agent": "admin-tests"], body: Array(body.utf8))
        return try #require(Int(JSON.parse(response.body)["cashout_id"]?.stringValue ?? ""))
    }
}

@Suite struct AdminAPITests {
    @Test func theClockAdvancesByToAndToTheNextEvent() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        #expect(try admin.call("GET", "/sandbox/clock").json == ["mode": "manual", "now": "2026-01-05T09:00:00Z", "next_event_at": .null])
        try admin.createCashout("c-1")
        #expect(try admin.call("GET", "/sandbox/clock").json["next_event_at"] == "2026-01-05T09:00:05Z")
        let next = try admin.call("POST", "/sandbox/clock/advance", #"{"to_next_event":true}"#)
        #expect(next.json == ["mode": "manual", "now": "2026-01-05T09:00:05Z", "next_event_at": "2026-01-05T09:00:15Z", "events_applied": 1])
        #expect(try admin.call("POST", "/sandbox/clock/advance", #"{"by":"1h5m"}"#).json["now"] == "2026-01-05T10:05:05Z")
        #expect(try admin.call("POST", "/sandbox/clock/advance", #"{"to":"2026-01-07T00:00:00Z"}"#).json["now"] == "2026-01-07T00:00:00Z")
        #expect(try admin.call("POST", "/sandbox/clock/advance", #"{"to_next_event":true}"#).json["events_applied"] == 0)
    }

    @Test(arguments: [
        (#"{"by":"soon"}"#, 400, #"by: expected a duration such as "30s", "1h5m" or "2d""#),
        (#"{"to":"yesterday"}"#, 400, #"to: expected a UTC time such as "2026-01-05T09:00:00Z""#),
        (#"{"to":"2026-01-01T00:00:00Z"}"#, 409, "to: 2026-01-01T00:00:00Z is in the past; the clock only moves forward"),
        ("{}", 400, #"expected one of "by", "to" or "to_next_event": true"#),
        ("[1]", 400, "the body must be a JSON object"),
        // One advance per call: a second member is refused, not ignored (Behaviour and choices).
        (#"{"by":"2d","to_next_event":{}}"#, 400, #"expected one of "by", "to" or "to_next_event": true"#),
        (#"{"by":"2d","to":"2026-01-07T00:00:00Z"}"#, 400, #"expected one of "by", "to" or "to_next_event": true"#),
        (#"{"by":"2d","comment":"x"}"#, 400, #"expected one of "by", "to" or "to_next_event": true"#),
        (#"{"to_next_event":false}"#, 400, #"expected one of "by", "to" or "to_next_event": true"#),
    ])
    func badClockRequestsSayWhatWasExpected(body: String, status: Int, message: String) throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        let answer = try admin.call("POST", "/sandbox/clock/advance", body)
        #expect(answer.status == status)
        #expect(answer.json == ["code": .number(status), "message": .string(message)])
    }

    @Test func cashoutsAreListedFilteredAndShownWithHistoryAndSchedule() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        let first = try admin.createCashout("c-1")
        try admin.createCashout("c-2")
        _ = try admin.call("POST", "/sandbox/cashouts/\(first)/actions", #"{"action":"hold"}"#)
        #expect(try admin.call("GET", "/sandbox/cashouts").json["cashouts"]?.arrayValue?.count == 2)
        let held = try admin.call("GET", "/sandbox/cashouts?status=ON_HOLD&merchant=sandbox_login").json["cashouts"]?.arrayValue
        #expect(held?.map { $0["external_id"] } == ["c-1"])
        #expect(try admin.call("GET", "/sandbox/cashouts?status=LOST").status == 400)
        let one = try admin.call("GET", "/sandbox/cashouts/\(first + 1)").json
        #expect(one["status"] == "PENDING")
        #expect(one["api_status"] == nil)  // D24's words are the sandbox's: none beside them (nor in `scheduled`)
        #expect(one["amount"] == "100.00")
        #expect(one["scheduled"] == [["at": "2026-01-05T09:00:05Z", "status": "DELIVERED", "rejection_code": .null],
                                     ["at": "2026-01-05T09:00:15Z", "status": "COMPLETED", "rejection_code": .null]])
        #expect(one["history"]?[0]?["by"] == "create")
        #expect(one["fields"]?["bank_account"] == "3423422-7")
        #expect(try admin.call("GET", "/sandbox/cashouts/99").status == 404)
    }

    /// `GET /sandbox/cashouts/{id}/timeline`: the create, each change and notification in order, with real times, each
    /// answer with what it said in D24's words (its status description, an error's code); a 404 as the cashout's own.
    @Test func aCashoutsTimelineShowsItsRequestsChangesAndNotificationsInOrder() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        let id = try admin.createCashout("t-1", url: "\(admin.sandbox.baseURL)/sandbox/sink/app")
        _ = try admin.call("POST", "/sandbox/clock/advance", #"{"by":"20s"}"#)
        for secret in ["sandbox_secret", "wrong"] {
            let body = #"{"login":"sandbox_login","pass":"sandbox_pass","cashout_id":\#(id)}"#
            _ = try TestHTTP.send(method: "POST", url: "\(admin.sandbox.baseURL)/v3/cashout/status",
                                  headers: ["Payload-Signature": D24Signing.payloadSignature(body, secret: secret), "User-Agent": "admin-tests"],
                                  body: Array(body.utf8))
        }
        let timeline = try admin.call("GET", "/sandbox/cashouts/\(id)/timeline")
        #expect(timeline.status == 200)
        #expect(timeline.json["title"] == .string("cashout \(id)"))
        #expect(timeline.json["findings"] == [])
        #expect(timeline.json["cashouts"]?[0]?["reference"] == "t-1")
        let entries = timeline.json["entries"]?.arrayValue ?? []
        #expect(entries.map { $0["text"]?.stringValue ?? "" } == [
            "POST /v3/cashout: 200", "created PENDING", "PENDING → DELIVERED", "notification DELIVERED: 200", "DELIVERED → COMPLETED",
            "notification COMPLETED: 200", "POST /v3/cashout/status: 200 Completed", "POST /v3/cashout/status: 401 code 302",
        ])
        #expect(entries.map { $0["at"]?.stringValue ?? "" } == ["2026-01-05T09:00:00.000Z", "2026-01-05T09:00:00.000Z",
                                                                "2026-01-05T09:00:05.000Z", "2026-01-05T09:00:05.000Z",
                                                                "2026-01-05T09:00:15.000Z", "2026-01-05T09:00:15.000Z",
                                                                "2026-01-05T09:00:20.000Z", "2026-01-05T09:00:20.000Z"])
        #expect(entries.allSatisfy { $0["real_ms"]?.numberText != nil && $0["cashouts"] == [.number(id)] && $0["injected"] == false })
        #expect(entries[0]["from"] == "app" && entries[0]["to"] == "api" && entries[1]["lane"] == "bank")
        #expect(entries[0]["details"]?["request"]?.stringValue?.hasPrefix("POST /v3/cashout\n\n{") == true)
        // Asked again with its ETag: 304 while nothing it reads moved, the timeline again once the clock did.
        let url = "\(admin.sandbox.baseURL)/sandbox/cashouts/\(id)/timeline"
        let tag = try #require(try TestHTTP.send(method: "GET", url: url).headers["ETag"])
        #expect(try TestHTTP.send(method: "GET", url: url, headers: ["If-None-Match": tag]).status == 304)
        _ = try admin.call("POST", "/sandbox/clock/advance", #"{"by":"1s"}"#)
        #expect(try TestHTTP.send(method: "GET", url: url, headers: ["If-None-Match": tag]).status == 200)
        let missing = try admin.call("GET", "/sandbox/cashouts/99/timeline")
        #expect(missing.status == 404)
        #expect(missing.json == (try admin.call("GET", "/sandbox/cashouts/99")).json)
    }

    /// A D24 cashout the bank rejected without a code: D24 answers 808, ERROR_OTHER, and so do its record and the
    /// dashboard's Details card (which show `rejection_code` as the admin API gives it).
    @Test func aRejectionWithoutACodeShowsWhatItsAPIAnswers() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        let loaded = try admin.call("POST", "/sandbox/scenario", #"{"bank": {"default": [{"after": "5s", "status": "REJECTED"}]}}"#)
        #expect(loaded.status == 200)
        let id = try admin.createCashout("r-1")
        _ = try admin.call("POST", "/sandbox/clock/advance", #"{"by":"10s"}"#)
        let body = #"{"login":"sandbox_login","pass":"sandbox_pass","cashout_id":\#(id)}"#
        let answered = try JSON.parse(try TestHTTP.send(method: "POST", url: "\(admin.sandbox.baseURL)/v3/cashout/status",
                                                        headers: ["Payload-Signature": D24Signing.payloadSignature(body)],
                                                        body: Array(body.utf8)).body)
        #expect(answered["rejection_code"] == 808 && answered["rejection_reason"] == "ERROR_OTHER")
        let record = try admin.call("GET", "/sandbox/cashouts/\(id)").json
        #expect(record["rejection_code"] == answered["rejection_code"] && record["rejection_reason"] == answered["rejection_reason"])
        #expect(record["history"]?.arrayValue?.last?["rejection_code"] == 808)
        #expect(try admin.call("GET", "/sandbox/cashouts").json["cashouts"]?[0]?["rejection_code"] == 808)
    }

    @Test func forcedOutcomesFollowTheLifecycleAndA409NamesBothStates() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        let id = try admin.createCashout("c-1", url: "\(admin.sandbox.baseURL)/sandbox/sink/a")
        #expect(try admin.call("POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"deliver"}"#).json["status"] == "DELIVERED")
        #expect(try admin.call("POST", "/sandbox/cashouts/\(id)/actions",
                               #"{"action":"complete","bank_reference_id":"E2E1"}"#).json["bank_reference_id"] == "E2E1")
        let late = try admin.call("POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"reject"}"#).json
        #expect(late["status"] == "REJECTED")
        #expect(late["returned_after_completion"] == true)
        #expect(late["rejection_code"] == 826)
        #expect(late["rejection_reason"] == "WITHDRAWAL_REVERSED")
        let refused = try admin.call("POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"cancel"}"#)
        #expect(refused.status == 409)
        #expect(refused.json == ["code": 409, "message": "cannot cancel a REJECTED cashout: REJECTED -> CANCELLED is not allowed",
                                 "from": "REJECTED", "to": "CANCELLED"])
        #expect(try admin.call("POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"explode"}"#).status == 400)
        #expect(try admin.call("POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"reject","rejection_code":"x"}"#).status == 400)
        // Every forced change was notified; the balance is back where it started.
        _ = try admin.call("POST", "/sandbox/clock/advance", #"{"by":"1s"}"#)
        let sink = try admin.call("GET", "/sandbox/sink/a").json
        #expect(sink["requests"]?.arrayValue?.count == 3 && sink["total"] == 3)
        #expect(try admin.call("GET", "/sandbox/merchants").json["merchants"]?[0]?["balance"] == "1000000.00")
    }

    @Test func aTwoMemberAdvanceLeavesTheClockWhereItWas() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        #expect(try admin.call("POST", "/sandbox/clock/advance", #"{"by":"2d","to_next_event":{}}"#).status == 400)
        #expect(try admin.call("GET", "/sandbox/clock").json["now"] == "2026-01-05T09:00:00Z")
    }

    @Test(arguments: ["status_reason", "bank_reference_id", "rejection_reason"])
    func aForcedActionsTextThatIsNotAStringIsRefusedNotDropped(key: String) throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        let id = try admin.createCashout("c-1")
        let refused = try admin.call("POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"hold","\#(key)":{}}"#)
        #expect(refused.status == 400)
        #expect(refused.json == ["code": 400, "message": .string("\(key): expected a string")])
        #expect(try admin.call("GET", "/sandbox/cashouts/\(id)").json["status"] == "PENDING")
        let held = try admin.call("POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"hold","status_reason":"KYC review"}"#)
        #expect(held.status == 200)
        #expect(held.json["status"] == "ON_HOLD")
        #expect(held.json["status_reason"] == "KYC review")
    }

    @Test func aRejectionCodeWrittenAsAWholeDecimalIsTheWholeNumber() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        let first = try admin.createCashout("c-1")
        let rejected = try admin.call("POST", "/sandbox/cashouts/\(first)/actions", #"{"action":"reject","rejection_code":801.0}"#)
        #expect(rejected.status == 200)
        #expect(rejected.json["rejection_code"] == 801)
        let second = try admin.createCashout("c-2")
        let refused = try admin.call("POST", "/sandbox/cashouts/\(second)/actions", #"{"action":"reject","rejection_code":801.5}"#)
        #expect(refused.json == ["code": 400, "message": "rejection_code: expected a whole number"])
    }

    @Test func anEmptySinkScriptChangesNothingAndIsAccepted() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        let sink = "\(admin.sandbox.baseURL)/sandbox/sink/orders"
        #expect(try TestHTTP.send(method: "PUT", url: sink, body: Array(#"{"answers":[500,200.0],"deduplicate":true}"#.utf8)).status == 204)
        let empty = try TestHTTP.send(method: "PUT", url: sink, body: Array("{}".utf8))
        #expect(empty.status == 204)
        #expect(empty.body.isEmpty)
        let script = try admin.call("GET", "/sandbox/sink/orders").json
        #expect(script["answers"] == [500, 200])
        #expect(script["deduplicate"] == true)
        #expect(script["check_signatures"] == false)
        #expect(try TestHTTP.send(method: "PUT", url: sink, body: Array(#"{"colour":"red"}"#.utf8)).status == 400)
    }

    @Test func theLedgerListsDebitsAndRefundsWithTheBalanceAfter() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        let id = try admin.createCashout("c-1", amount: "250.50")
        _ = try admin.call("POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"cancel"}"#)
        let entries = try admin.call("GET", "/sandbox/ledger?merchant=sandbox_login").json["entries"]?.arrayValue
        #expect(entries?.map { $0["kind"] } == ["debit", "refund"])
        #expect(entries?.map { $0["amount"] } == ["-250.50", "250.50"])
        #expect(entries?.map { $0["balance_after"] } == ["999749.50", "1000000.00"])
        #expect(try admin.call("GET", "/sandbox/ledger?merchant=nobody").json["entries"] == [])
    }

    @Test func merchantsAreCreatedAndUpdatedFieldByField() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        let created = try admin.call("PUT", "/sandbox/merchants/acme",
                                     #"{"pass":"acme_pass","secret":"acme_secret","read_only_key":"acme_ro","balance":"5000.00","#
                                     + #""limits":{"daily":"100.00"},"minimum_amounts":{"BR":"10.00"},"allowed_ips":["127.0.0.1"]}"#)
        #expect(created.status == 201)
        #expect(created.json["balance"] == "5000.00")
        #expect(created.json["limits"] == ["transaction": .null, "daily": "100.00", "monthly": .null])
        let updated = try admin.call("PUT", "/sandbox/merchants/acme", #"{"balance":"1.00","limits":{"daily":null}}"#)
        #expect(updated.status == 200)
        #expect(updated.json["secret"] == "acme_secret")
        #expect(updated.json["balance"] == "1.00")
        #expect(updated.json["limits"]?["daily"] == .null)
        #expect(try admin.call("GET", "/sandbox/merchants").json["merchants"]?.arrayValue?.map { $0["login"] } == ["sandbox_login", "acme"])
    }

    @Test(arguments: [
        (#"{"pass":"p"}"#, "a new merchant needs \"pass\" and \"secret\""),
        (#"{"pass":"p","secret":"s","balance":"1.234"}"#, "balance: expected a decimal amount such as \"5000.00\""),
        (#"{"pass":"p","secret":"s","limits":{"daily":"lots"}}"#, "limits.daily: expected a decimal amount or null"),
        (#"{"pass":"p","secret":"s","colour":"red"}"#, "colour: unknown field"),
        (#"{"pass":"","secret":"s"}"#, "pass: expected a non-empty string"),
        (#"{"pass":"p","secret":"s","allowed_ips":[1]}"#, "allowed_ips: expected an array of addresses"),
    ])
    func badMerchantUpdatesAreRefusedNamingTheField(body: String, message: String) throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        let answer = try admin.call("PUT", "/sandbox/merchants/newcomer", body)
        #expect(answer.status == 400)
        #expect(answer.json["message"] == .string(message))
    }

    @Test func aWebhookCanBeRedeliveredAndOneWithoutAURLCannot() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        let id = try admin.createCashout("c-1", url: "\(admin.sandbox.baseURL)/sandbox/sink/r")
        try admin.createCashout("c-2")
        _ = try admin.call("POST", "/sandbox/clock/advance", #"{"by":"5s"}"#)
        let webhooks = try admin.call("GET", "/sandbox/webhooks").json["webhooks"]?.arrayValue ?? []
        #expect(webhooks.map { $0["state"] } == ["delivered", "not_sent"])
        let again = try admin.call("POST", "/sandbox/webhooks/1/redeliver")
        #expect(again.json["attempts"]?.arrayValue?.count == 2)
        #expect(try admin.call("GET", "/sandbox/webhooks?cashout_id=\(id)").json["webhooks"]?.arrayValue?.count == 1)
        #expect(try admin.call("POST", "/sandbox/webhooks/2/redeliver").status == 409)
        #expect(try admin.call("POST", "/sandbox/webhooks/9/redeliver").status == 404)
    }

    @Test func heldOrCancelledCashoutsLeaveNoEventToJumpTo() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        let id = try admin.createCashout("c-1")
        _ = try admin.call("POST", "/sandbox/cashouts/\(id)/actions", #"{"action":"hold"}"#)
        #expect(try admin.call("GET", "/sandbox/clock").json["next_event_at"] == .null)
        let jump = try admin.call("POST", "/sandbox/clock/advance", #"{"to_next_event":true}"#).json
        #expect(jump["now"] == "2026-01-05T09:00:00Z")
        #expect(jump["events_applied"] == 0)
    }

    @Test func hugeDurationsAreRefusedNotFatal() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        #expect(try admin.call("POST", "/sandbox/clock/advance", #"{"by":"999999999999d"}"#).status == 400)
        #expect(try admin.call("GET", "/sandbox/health").status == 200)
    }

    @Test func merchantUpdatesNeverLoseConcurrentDebits() async throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        await withTaskGroup(of: Void.self) { group in
            for i in 0 ..< 40 {
                group.addTask {
                    if i % 2 == 0 {
                        _ = try? admin.createCashout("c-\(i)", amount: "1.00")
                    } else {
                        _ = try? admin.call("PUT", "/sandbox/merchants/sandbox_login", #"{"notification_url":null}"#)
                    }
                }
            }
        }
        let balance = try #require(Money(admin.call("GET", "/sandbox/merchants").json["merchants"]?[0]?["balance"]?.stringValue ?? ""))
        #expect(balance == Money("999980.00"))
        #expect(try admin.call("GET", "/sandbox/ledger").json["entries"]?.arrayValue?.last?["balance_after"] == "999980.00")
    }

    @Test func theSettlementCurrencyIsFixedOnceACashoutExists() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        #expect(try admin.call("PUT", "/sandbox/merchants/sandbox_login", #"{"currency":"EUR"}"#).status == 200)
        #expect(try admin.call("PUT", "/sandbox/merchants/sandbox_login", #"{"currency":"USD"}"#).status == 200)
        try admin.createCashout("c-1")
        let refused = try admin.call("PUT", "/sandbox/merchants/sandbox_login", #"{"currency":"PYG"}"#)
        #expect(refused.status == 409)
        #expect(refused.json["message"] == "currency: a merchant with cashouts keeps its settlement currency")
    }

    @Test func aScenarioLoadedIntoARunningSandboxDecidesNewCashouts() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        let before = try admin.createCashout("c-1", amount: "20.00")
        let loaded = try admin.call("POST", "/sandbox/scenario", #"""
            {"name": "small ones fail", "merchants": [{"login": "acme", "pass": "p", "secret": "s", "balance": {"USD": "10.00"}}],
             "bank": {"rules": [{"when": {"amount": {"lt": 50}}, "then": [{"after": "1m", "status": "REJECTED", "rejection_code": 801}]}]}}
            """#)
        #expect(loaded.status == 200)
        #expect(loaded.json["loaded"] == "small ones fail")
        // every account: merchants and users
        #expect(loaded.json["merchants"] == ["sandbox_login", "76561198000000001", "DefaultMerchantId", "acme"])
        let after = try admin.createCashout("c-2", amount: "20.00")
        _ = try admin.call("POST", "/sandbox/clock/advance", #"{"by":"1m"}"#)
        #expect(try admin.call("GET", "/sandbox/cashouts/\(after)").json["status"] == "REJECTED")
        #expect(try admin.call("GET", "/sandbox/cashouts/\(before)").json["status"] == "COMPLETED")  // kept its default timeline
        let bad = try admin.call("POST", "/sandbox/scenario", #"{"bank": {"rules": [{"when": {}, "then": [{"after": "1m"}]}]}}"#)
        #expect(bad.status == 400)
        #expect(bad.json["message"] == #"bank.rules[0].then[0]: expected "after" and "status""#)
        // `$schema` is unread, but it is the schema's URI: a string, as scenarios/schema.json says (schemathesis found `{}` loaded).
        let schema = try admin.call("POST", "/sandbox/scenario", #"{"$schema": {}}"#)
        #expect(schema.status == 400)
        #expect(schema.json == ["code": 400, "message": "$schema: expected a string"])
        // Every error of the body, one per line, as `validate` prints them.
        let worse = try admin.call("POST", "/sandbox/scenario", #"{"sede": 1, "bank": {"rules": [{"when": {}, "then": [{"after": "1m"}]}]}}"#)
        #expect(worse.status == 400)
        #expect(worse.json["message"] == .string("""
            sede: unknown key (did you mean "seed"? expected one of: $schema, name, description, written_for, expect_failure, needs_app, seed, \
            clock, merchants, prism_merchants, users, bank, faults, webhooks, app, explore, report, steps)
            bank.rules[0].then[0]: expected "after" and "status"
            """))
    }

    @Test func aLoadedScenarioBringsItsFaultsAndCannotChangeASettlementCurrencyInUse() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        _ = try admin.call("POST", "/sandbox/scenario",
                           #"{"faults": [{"when": {"endpoint": "GET /v3/banks"}, "every": 1, "kind": "error", "status": 503, "body": "{}"}]}"#)
        let banks = try TestHTTP.send(method: "GET", url: "\(admin.sandbox.baseURL)/v3/banks?country=EC",
                                      headers: ["Authorization": "Bearer sandbox_read_only"])
        #expect(banks.status == 503)
        try admin.createCashout("c-1")
        let refused = try admin.call("POST", "/sandbox/scenario",
                                     #"{"merchants": [{"login": "sandbox_login", "pass": "p", "secret": "s", "balance": {"BRL": "0.00"}}]}"#)
        #expect(refused.status == 409)
        #expect(try admin.call("GET", "/sandbox/merchants").json["merchants"]?[0]?["currency"] == "USD")
        _ = try admin.call("POST", "/sandbox/reset")
        let after = try TestHTTP.send(method: "GET", url: "\(admin.sandbox.baseURL)/v3/banks?country=EC",
                                      headers: ["Authorization": "Bearer sandbox_read_only"])
        #expect(after.status == 200)  // the loaded fault is gone with the reset
    }

    /// A fault without a path acts on the payout APIs' operations alone: the documents, the dashboard and the admin API
    /// still answer. A later file's `faults` replaces the earlier ones; `[]` ends them, and nothing else is lost.
    @Test func aFaultWithoutAPathActsOnTheAPIsOperationsAndALaterFileReplacesIt() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        let base = admin.sandbox.baseURL
        #expect(try admin.call("POST", "/sandbox/scenario", #"{"faults": [{"every": 1, "kind": "close"}]}"#).status == 200)
        for path in ["/openapi.json", "/", "/dashboard.js", "/postman.json", "/sandbox/health", "/sandbox/cashouts"] {
            #expect(try TestHTTP.send(method: "GET", url: "\(base)\(path)").status == 200, "\(path)")
        }
        #expect(throws: (any Error).self) { try admin.createCashout("closed") }
        let banks = { try TestHTTP.send(method: "GET", url: "\(base)/v3/banks?country=EC", headers: ["Authorization": "Bearer sandbox_read_only"]) }
        #expect(throws: (any Error).self) { try banks() }
        // A later file's faults replace them: now only the list of banks fails, with 503.
        let later = #"{"faults": [{"when": {"endpoint": "GET /v3/banks"}, "every": 1, "kind": "error", "status": 503, "body": "{}"}]}"#
        #expect(try admin.call("POST", "/sandbox/scenario", later).status == 200)
        let id = try admin.createCashout("open")
        #expect(try banks().status == 503)
        // A file without faults leaves them; `[]` ends them, and the cashout is still there.
        #expect(try admin.call("POST", "/sandbox/scenario", #"{"seed": 7}"#).status == 200)
        #expect(try banks().status == 503)
        #expect(try admin.call("POST", "/sandbox/scenario", #"{"faults": []}"#).status == 200)
        #expect(try banks().status == 200)
        #expect(try admin.call("GET", "/sandbox/cashouts/\(id)").status == 200)
    }

    @Test func aLatencyFaultOnAnAdminEndpointStillRunsIt() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        _ = try admin.call("POST", "/sandbox/scenario",
                           #"{"faults": [{"when": {"endpoint": "POST /sandbox/clock/advance"}, "every": 1, "kind": "latency", "latency": "50ms"}]}"#)
        let moved = try admin.call("POST", "/sandbox/clock/advance", #"{"by":"1h"}"#)
        #expect(moved.status == 200)
        #expect(moved.json["now"] == "2026-01-05T10:00:00Z")
    }

    @Test func resetForgetsEverythingButTheClock() throws {
        let admin = try Admin()
        defer { admin.sandbox.stop() }
        try admin.createCashout("c-1", url: "\(admin.sandbox.baseURL)/sandbox/sink/x")
        _ = try admin.call("PUT", "/sandbox/merchants/acme", #"{"pass":"p","secret":"s"}"#)
        _ = try admin.call("POST", "/sandbox/clock/advance", #"{"by":"1h"}"#)
        let reset = try admin.call("POST", "/sandbox/reset")
        #expect(reset.json == ["status": "reset", "clock": "2026-01-05T10:00:00Z"])
        #expect(try admin.call("GET", "/sandbox/cashouts").json["cashouts"] == [])
        #expect(try admin.call("GET", "/sandbox/ledger").json["entries"] == [])
        #expect(try admin.call("GET", "/sandbox/webhooks").json["webhooks"] == [])
        #expect(try admin.call("GET", "/sandbox/sink/x").json["requests"] == [])
        #expect(try admin.call("GET", "/sandbox/merchants").json["merchants"]?.arrayValue?.map { $0["login"] } == ["sandbox_login"])
        #expect(try admin.createCashout("c-1") == 1_000_001)  // ids and external ids start again
    }

    @Test func aRealClockRunsTheBankByItself() throws {
        let admin = try Admin(clockMode: .real, timeScale: 1000)  // 15 virtual seconds take 15 ms
        defer { admin.sandbox.stop() }
        let id = try admin.createCashout("c-1")
        var status: JSON? = nil
        try Waiting.until {
            status = try admin.call("GET", "/sandbox/cashouts/\(id)").json["status"]
            return status == "COMPLETED"
        }
        #expect(status == "COMPLETED")
    }
}
