import Foundation
@testable import SandboxBank
@testable import SandboxD24
@testable import SandboxWire
import Testing
@testable import SandboxContract

/// What D24, the first dialect, adds to the scenario format.
let d24Vocabulary = D24Dialect().vocabulary

private func load(_ text: String) throws(ScenarioError) -> Scenario {
    try ScenarioLoader.load(Array(text.utf8), file: "x.json", vocabulary: d24Vocabulary)
}

private func error(_ text: String) -> String? {
    do { _ = try load(text); return nil } catch { return error.description }
}

/// The loader's refusal, at `path`, of an `occurrence` that is no whole number from 1 nor a matcher of them (`got`: what it was).
private func occurrenceRefused(_ path: String, got: String? = nil) -> String {
    "x.json: \(path): expected which payout of its content this is: a whole number from 1 (1: the first), or an object of "
        + #"eq, in, gt, gte, lt, lte with whole numbers, such as {"gte": 2}"# + (got.map { ", got \($0)" } ?? "")
}

@Suite struct ScenarioLoaderTests {
    @Test func readsTheDesignExample() throws {
        let scenario = try load(#"""
        {"name": "BR payout completes, then is reversed two days later", "seed": 7,
         "clock": {"mode": "manual", "start": "2026-01-05T09:00:00Z"},
         "merchants": [{"login": "acme", "pass": "acme_pass", "secret": "acme_secret", "read_only_key": "acme_ro",
                        "balance": {"USD": "5000.00"}, "limits": {"daily": "100.00"}}],
         "bank": {"rules": [
            {"name": "late reversal", "when": {"country": "BR", "amount": {"gte": 100}},
             "then": [{"after": "5m", "status": "DELIVERED"}, {"after": "1h", "status": "COMPLETED", "bank_reference_id": "E2E123"},
                      {"after": "2d", "status": "REJECTED", "rejection_code": 826}]},
            {"when": {"bank_account": {"suffix": "0801"}},
             "then": [{"after": "1m", "status": "DELIVERED"}, {"after": {"min": "5m", "max": "30m"}, "status": "REJECTED", "rejection_code": 801}]},
            {"when": {"document_id": "00000000191"}, "decline": {"code": 504, "reason_code": 105}},
            {"when": {"country": "MX"}, "outcomes": [{"weight": 9, "then": [{"after": "2bd", "status": "DELIVERED"}]}, {"weight": 1, "then": []}]}],
          "default": [{"after": "30s", "status": "DELIVERED"}, {"after": "2m", "status": "COMPLETED"}]},
         "faults": [{"when": {"endpoint": "POST /v3/cashout"}, "every": 10, "kind": "drop_after_commit"}],
         "webhooks": {"retry": ["5m", "25m"], "timeout": "5s", "sinks": {"acme": {"answers": [500, 200]}}},
         "steps": [
            {"create_cashout": {"merchant": "acme", "country": "BR", "amount": 150}, "as": "c1", "expect": {"status": 200}},
            {"advance": "1h5m"},
            {"expect_cashout": {"ref": "c1", "status": "COMPLETED"}},
            {"expect_webhooks": {"ref": "c1", "count": 3, "statuses": ["DELIVERED"]}},
            {"expect_balance": {"merchant": "acme", "USD": "5000.00"}},
            {"expect_ledger": {"merchant": "acme", "count": 2}},
            {"request": {"method": "GET", "path": "/sandbox/health"}, "expect": {"json_contains": {"status": "ok"}}, "save": {"v": "version"}},
            {"advance_to_next_event": true}]}
        """#)
        #expect(scenario.seed == 7)
        #expect(scenario.clockMode == .manual)
        #expect(scenario.accounts.first?.balance == Money("5000.00"))
        #expect(scenario.accounts.first?.limits.daily == Money("100.00"))
        #expect(scenario.rules.count == 4)
        #expect(scenario.rules[1].when["bank_account"]?.matches("12340801") == true)
        #expect(scenario.defaultTimeline?.count == 2)
        #expect(scenario.faults?.first?.action == .dropAfterCommit)
        #expect(scenario.retrySchedule == [.seconds(300), .seconds(1500)])
        #expect(scenario.sinks == ["acme": SinkScript(answers: [500, 200])])
        #expect(scenario.steps.count == 8)
    }

    @Test(arguments: [
        (#"{"bank": {"rules": [{"when": {}, "thn": []}]}}"#,
         "x.json: bank.rules[0].thn: unknown key (did you mean \"then\"? expected one of: name, when, then, outcomes, decline)"),
        (#"{"bank": {"rules": [{"then": []}, {"then": [{"after": "5m", "status": "DELIVERED"}, {"after": "soon", "status": "COMPLETED"}]}]}}"#,
         #"x.json: bank.rules[1].then[1].after: expected a duration such as "30s", "1h5m" or "2d", got "soon""#),
        (#"{"bank": {"default": [{"after": "1s", "status": "PAID"}]}}"#,
         #"x.json: bank.default[0].status: expected a status: PENDING, ON_HOLD, DELIVERED, COMPLETED, REJECTED or CANCELLED, got "PAID""#),
        (#"{"bank": {"rules": [{"when": {}}]}}"#, #"x.json: bank.rules[0]: expected exactly one of "then", "outcomes" or "decline""#),
        (#"{"bank": {"rules": [{"when": {"beneficiary_name": {"regex": "("}}, "then": []}]}}"#,
         #"x.json: bank.rules[0].when.beneficiary_name.regex: expected a valid regular expression, got "(""#),
        (#"{"bank": {"rules": [{"when": {"countri": "BR"}, "then": []}]}}"#,
         "x.json: bank.rules[0].when.countri: unknown field (did you mean \"country\"? expected one of account_type, address, amount, bank_account, "
         + "bank_branch, bank_code, beneficiary_birthdate, beneficiary_id, beneficiary_lastname, beneficiary_name, city, comments, country, "
         + "currency, dialect, document_id, document_type, email, external_id, merchant, notification_url, occurrence, on_hold, phone, "
         + "postal_code, type)"),
        (#"{"faults": [{"when": {"endpoint": "GET /v3/banks?country=EC"}, "every": 1, "kind": "close"}]}"#,
         #"x.json: faults[0].when.endpoint: expected "METHOD /path" without a query, such as "POST /v3/cashout", got "GET /v3/banks?country=EC""#),
        (#"{"faults": [{"when": {"endpoint": "POST /v3/cashout", "path": "/v3/cashout"}, "every": 1, "kind": "close"}]}"#,
         #"x.json: faults[0].when.path: expected only without "endpoint" (its shorthand)"#),
        (#"{"faults": [{"when": {"path": "/v3/cashout", "body": {"amount": {"gte": "lots"}}}, "every": 1, "kind": "close"}]}"#,
         #"x.json: faults[0].when.body.amount.gte: expected an amount with at most two decimals, such as "5000.00", got "lots""#),
        (#"{"faults": [{"when": {"headers": ["x"]}, "every": 1, "kind": "close"}]}"#,
         "x.json: faults[0].when.headers: expected an object of header name: matcher"),
        (#"{"faults": [{"when": {"payout": 5}, "every": 1, "kind": "close"}]}"#,
         "x.json: faults[0].when.payout: expected an object of field: matcher"),
        (#"{"faults": [{"when": {"payout": {"amount": {"gte": "lots"}}}, "every": 1, "kind": "close"}]}"#,
         #"x.json: faults[0].when.payout.amount.gte: expected an amount with at most two decimals, such as "5000.00", got "lots""#),
        (#"{"faults": [{"when": {"bdy": {}}, "every": 1, "kind": "close"}]}"#,
         #"x.json: faults[0].when.bdy: unknown key (did you mean "body"? expected one of: endpoint, method, path, dialect, headers, body, "#
         + "account, payout)"),
        (#"{"bank": {"rules": [{"when": {"amount": {"gte": "lots"}}, "then": []}]}}"#,
         #"x.json: bank.rules[0].when.amount.gte: expected an amount with at most two decimals, such as "5000.00", got "lots""#),
        (#"{"bank": {"rules": [{"then": [{"after": {"min": "5m"}, "status": "DELIVERED"}]}]}}"#,
         #"x.json: bank.rules[0].then[0].after: expected both "min" and "max""#),
        (#"{"faults": [{"kind": "close"}]}"#, #"x.json: faults[0]: expected exactly one of "every" or "rate""#),
        (#"{"faults": [{"kind": "close", "every": 1, "times": 0}]}"#, "x.json: faults[0].times: expected a whole number from 1 to 1000000, got 0"),
        (#"{"explore": {}}"#, #"x.json: explore: expected only in a file with "steps""#),
        (#"{"explore": {"outcomes": []}, "steps": []}"#, "x.json: explore.outcomes: expected at least one outcome"),
        (#"{"explore": {"outcomes": [{"weight": 1}]}, "steps": []}"#, #"x.json: explore.outcomes[0]: expected "weight" and "then""#),
        (#"{"explore": {"late_reversal": 1.5}, "steps": []}"#, "x.json: explore.late_reversal: expected a number from 0 to 1, got 1.5"),
        (#"{"explore": {"faults": {"explode": 0.1}}, "steps": []}"#,
         "x.json: explore.faults.explode: unknown key (expected one of: \(FaultKind.allCases.map(\.rawValue).sorted().joined(separator: ", ")))"),
        (#"{"faults": [{"kind": "close", "every": 1, "latency": "1s"}]}"#, "x.json: faults[0].latency: expected only with kind latency"),
        (#"{"faults": [{"kind": "latency", "every": 1, "latency": "1s", "status": 500}]}"#,
         "x.json: faults[0].status: expected only with kind error"),
        (#"{"faults": [{"kind": "drop_after_commit", "every": 1, "after_bytes": 10}]}"#,
         "x.json: faults[0].after_bytes: expected only with kind truncate"),
        (#"{"faults": [{"kind": "truncate", "every": 1, "after_bytes": -1}]}"#,
         "x.json: faults[0].after_bytes: expected a whole number from 0 to 100000000, got -1"),
        (#"{"faults": [{"kind": "truncate", "every": 1, "commit": "no"}]}"#, "x.json: faults[0].commit: expected true or false"),
        (#"{"bank": {"default": [{"after": "1s", "status": "DELIVERED", "rejection_code": 801}]}}"#,
         "x.json: bank.default[0].rejection_code: expected only with status REJECTED"),
        (#"{"faults": [{"kind": "explode", "every": 2}]}"#,
         "x.json: faults[0].kind: expected \(FaultKind.allCases.dropLast().map { "\"\($0.rawValue)\"" }.joined(separator: ", ")) "
             + "or \"\(FaultKind.allCases.last!.rawValue)\", got \"explode\""),
        (#"{"steps": [{"advance": "1m", "advance_to_next_event": true}]}"#,
         "x.json: steps[0]: expected exactly one action: request, create_cashout, create_cashouts, advance, advance_to_next_event, settle, "
         + "expect_cashout, expect_webhooks, expect_balance, expect_ledger, expect_requests, wait_for_request, expect_report, expect_reconciled, "
         + "expect_deliveries, expect_sink"),
        (#"{"steps": [{"advance": "1m", "expect": {"status": 200}}]}"#,
         #"x.json: steps[0].expect: expected only with "request" or "create_cashout""#),
        (#"{"merchants": [{"login": "a", "pass": "p", "secret": "s", "balance": {"USD": "1", "EUR": "2"}}]}"#,
         #"x.json: merchants[0].balance: expected one settlement currency and its amount, such as {"USD": "5000.00"}"#),
        (#"{"merchants": [{"login": "a", "secret": "s"}]}"#, #"x.json: merchants[0]: expected "pass""#),
        (#"{"clock": {"start": "Monday"}}"#, #"x.json: clock.start: expected a UTC time such as "2026-01-05T09:00:00Z", got "Monday""#),
        (#"{"seed": -1}"#, "x.json: seed: expected a whole number ≥ 0, got -1"),
        (#"{"nmae": "typo"}"#,
         "x.json: nmae: unknown key (did you mean \"name\"? expected one of: $schema, name, description, written_for, expect_failure, needs_app, "
         + "seed, clock, merchants, bank, faults, webhooks, app, explore, report, steps)"),
        (#"{"steps": [{"create_cashout": {}, "save": {"id": "cashout_id"}}]}"#,
         #"x.json: steps[0].save: expected only with "request" ("as" names a created cashout)"#),
        (#"{"steps": [{"expect_cashout": {"ref": "c", "status": {"in": ["PAID"]}}}]}"#,
         "x.json: steps[0].expect_cashout.status: expected a status: PENDING, ON_HOLD, DELIVERED, COMPLETED, REJECTED or CANCELLED"),
        (#"{"report": {"follow_up_within": "1ms"}}"#,
         #"x.json: report.follow_up_within: expected a duration from 1s to 7d, such as "2m", got "1ms""#),
        (#"{"report": {"status_polling": {"limit": 0}}}"#, "x.json: report.status_polling.limit: expected a whole number from 1 to 1000000, got 0"),
        (#"{"report": {"status_polling": {"per": "8d"}}}"#,
         #"x.json: report.status_polling.per: expected a duration from 1s to 7d, such as "2m", got "8d""#),
        (#"{"report": {"status_polling": {}}}"#,
         #"x.json: report.status_polling: expected "limit" (the most status queries of one cashout) or "per" (within how long), or both"#),
        (#"{"report": {"polling": 20}}"#,
         #"x.json: report.polling: unknown key (expected one of: follow_up_within, status_polling)"#),
        (#"{"webhooks": {"sinks": {"acme": {"answers": [500, 101]}}}}"#,
         "x.json: webhooks.sinks.acme.answers[1]: expected a whole number from 200 to 599, got 101"),
        ("[1]", "x.json: (top level): expected an object"),
        (#"{"name": "#, "x.json: (top level): invalid JSON: unexpected end of input at line 1, column 10 (byte offset 9)"),
        (#"{"bank": {"default": [], "default": []}}"#,
         #"x.json: (top level): invalid JSON: duplicate key "default" at line 1, column 26 (byte offset 25)"#),
    ])
    func errorsNameTheFileThePathAndWhatWasExpected(text: String, message: String) {
        #expect(error(text) == message)
    }

    /// `occurrence` (a bank rule's `when`, a chaos rule's, a fault's `payout`) is a whole number from
    /// 1, or a matcher of whole numbers: anything else is refused where it is, with what it was.
    @Test(arguments: [
        (#"{"bank": {"rules": [{"when": {"occurrence": 0}, "then": []}]}}"#,
         occurrenceRefused("bank.rules[0].when.occurrence", got: "0")),
        (#"{"bank": {"rules": [{"when": {"occurrence": "2"}, "then": []}]}}"#,
         occurrenceRefused("bank.rules[0].when.occurrence", got: #""2""#)),
        (#"{"bank": {"rules": [{"when": {"occurrence": {"prefix": "1"}}, "then": []}]}}"#,
         occurrenceRefused("bank.rules[0].when.occurrence")),
        (#"{"bank": {"rules": [{"when": {"occurrence": {"in": [1, 1.5]}}, "then": []}]}}"#,
         occurrenceRefused("bank.rules[0].when.occurrence.in[1]", got: "1.5")),
        (#"{"webhooks": {"chaos": [{"when": {"occurrence": {"gte": -1}}, "kind": "forged"}]}}"#,
         occurrenceRefused("webhooks.chaos[0].when.occurrence.gte", got: "-1")),
        (#"{"faults": [{"when": {"payout": {"occurrence": {"in": []}}}, "every": 1, "kind": "close"}]}"#,
         occurrenceRefused("faults[0].when.payout.occurrence.in")),
    ])
    func anOccurrenceIsAWholeNumberFromOne(text: String, message: String) {
        #expect(error(text) == message)
    }

    /// A timeline's rejection code is one D24 answers (the list of D24's "API Codes" page): a word or a number off
    /// the list would reach the wire as a code that does not exist. Refused with the path and the
    /// listed codes nearest it.
    @Test(arguments: [
        (#"{"bank": {"rules": [{"then": [{"after": "1m", "status": "REJECTED", "rejection_code": "eight-oh-one"}]}]}}"#,
         #"x.json: bank.rules[0].then[0].rejection_code: expected a rejection code that the API it reaches answers (d24: one of the 25 codes of "#
         + #"its list, 800 to 826), got "eight-oh-one""#),
        (#"{"bank": {"default": [{"after": "1m", "status": "REJECTED", "rejection_code": 12345}]}}"#,
         "x.json: bank.default[0].rejection_code: expected a rejection code that the API it reaches answers (d24: one of the 25 codes of its list, "
         + "800 to 826), got 12345; nearest: 826 (WITHDRAWAL_REVERSED), 824 (REJECTED_BY_THIRD_PARTY_CONTROL), 822 "
         + "(ACCOUNT_NAME_REQUIRED_TO_BE_IN_KATAKANA)"),
        (#"{"bank": {"rules": [{"outcomes": [{"weight": 1, "then": [{"after": "1m", "status": "REJECTED", "rejection_code": 823}]}]}]}}"#,
         "x.json: bank.rules[0].outcomes[0].then[0].rejection_code: expected a rejection code that the API it reaches answers (d24: one of the 25 "
         + "codes of its list, 800 to 826), got 823; nearest: 822 (ACCOUNT_NAME_REQUIRED_TO_BE_IN_KATAKANA), 824 (REJECTED_BY_THIRD_PARTY_CONTROL), "
         + "821 (MONTHLY_LIMIT_EXCEEDED_FOR_USER)"),
        (#"{"bank": {"rules": [{"then": [{"after": "1m", "status": "REJECTED", "rejection_code": "ERROR_ACCOUNT_CLOSED"}]}]}}"#,
         #"x.json: bank.rules[0].then[0].rejection_code: expected a rejection code that the API it reaches answers (d24: one of the 25 codes of "#
         + #"its list, 800 to 826), got "ERROR_ACCOUNT_CLOSED"; nearest: 801 (ERROR_ACCOUNT_CLOSED), 800 (ERROR_ACCOUNT_INCORRECT), 802 "#
         + #"(ERROR_AMOUNT_INCORRECT)"#),
    ])
    func aRejectionCodeD24DoesNotAnswerIsRefused(text: String, message: String) {
        #expect(error(text) == message)
    }

    /// A `truncate` fault's keys: `after_bytes` (absent: half of the body, chosen when the answer is cut) and `commit`
    /// (absent: true, as drop_after_commit handles the request).
    @Test func aTruncateFaultReadsWhereToCutAndWhetherTheRequestCommits() throws {
        let scenario = try load(#"""
            {"faults": [{"every": 1, "kind": "truncate"}, {"every": 2, "kind": "truncate", "after_bytes": 0, "commit": false}]}
            """#)
        #expect(scenario.faults?.map(\.action) == [.truncate(afterBytes: nil, commit: true), .truncate(afterBytes: 0, commit: false)])
    }

    @Test func everyListedRejectionCodeLoads() throws {
        for code in D24RejectionCodes.names.keys {
            let scenario = try load(#"{"bank": {"default": [{"after": "1m", "status": "REJECTED", "rejection_code": \#(code)}]}}"#)
            #expect(scenario.defaultTimeline?.first?.step.reasonCode == String(code))
        }
    }

    /// Reading goes on past an error, as a compiler's does: every error of the file in one run,
    /// in the file's order, each with its path; a step that fails still names its cashout, so a
    /// later reference to it is no error of its own.
    @Test func everyErrorOfAFileIsReportedInOneRun() {
        let text = #"""
        {"nmae": "typo", "seed": -1,
         "bank": {"rules": [{"when": {"countri": "BR"}, "then": []}, {"then": []},
                            {"then": [{"after": "soon", "status": "DELIVERED"}]}],
                  "default": [{"after": "1s", "status": "PAID"}]},
         "faults": [{"kind": "close"}, {"kind": "close", "every": 1}],
         "steps": [{"create_cashout": {}, "as": "c1", "save": {}}, {"expect_cashout": {"ref": "c1"}}, {"advance": "later"}]}
        """#
        do {
            _ = try load(text)
            Issue.record("loaded")
        } catch {
            #expect(error.path == "nmae")
            #expect(error.all.map(\.path) == ["nmae", "seed", "bank.rules[0].when.countri", "bank.rules[2].then[0].after", "bank.default[0].status",
                                              "faults[0]", "steps[0].save", "steps[2].advance"])
            #expect(error.description.split(separator: "\n").count == 8)
            #expect(error.description.split(separator: "\n").allSatisfy { $0.hasPrefix("x.json: ") })
            #expect(!error.truncated)
        }
    }

    @Test func aFileOfManyErrorsStopsAtTheCap() {
        let steps = (0 ..< 80).map { _ in #"{"advance": "soon"}"# }.joined(separator: ", ")
        do {
            _ = try load(#"{"steps": [\#(steps)]}"#)
            Issue.record("loaded")
        } catch {
            #expect(error.all.count == ScenarioErrors.cap)
            #expect(error.truncated)
            #expect(error.message.hasSuffix("\n(stopped after 50 errors)"))
        }
    }

    /// A step may refer only to a cashout an earlier step named with "as": by an `expect_...`
    /// step's `ref`, or by `{{NAME.cashout_id}}` / `{{NAME.external_id}}` in any of its strings.
    @Test(arguments: [
        (#"[{"expect_cashout": {"ref": "c1", "status": "PENDING"}}]"#,
         #"x.json: steps[0].expect_cashout.ref: expected the "as" of an earlier step, got "c1" (none named so far)"#),
        (#"[{"create_cashout": {}, "as": "c1"}, {"create_cashout": {}, "as": "c2"}, {"expect_webhooks": {"ref": "c3"}}]"#,
         #"x.json: steps[2].expect_webhooks.ref: expected the "as" of an earlier step, got "c3" (named so far: c1, c2)"#),
        (#"[{"create_cashout": {}, "as": "c1"}, {"request": {"method": "GET", "path": "/sandbox/cashouts/{{c9.cashout_id}}"}}]"#,
         "x.json: steps[1].request.path: expected {{NAME.cashout_id}} with NAME the \"as\" of an earlier step, got {{c9.cashout_id}} (named so far: "
         + "c1)"),
        (#"[{"request": {"method": "POST", "path": "/x", "json": {"items": [{"id": "a-{{c.external_id}}"}]}}}]"#,
         "x.json: steps[0].request.json.items[0].id: expected {{NAME.external_id}} with NAME the \"as\" of an earlier step, got {{c.external_id}} "
         + "(none named so far)"),
        (#"[{"create_cashout": {"external_id": "{{c.external_id}}-2"}, "as": "c"}]"#,
         "x.json: steps[0].create_cashout.external_id: expected {{NAME.external_id}} with NAME the \"as\" of an earlier step, got {{c.external_id}} "
         + "(none named so far)"),
        (#"[{"create_cashout": {}, "as": "c1"}, {"create_cashout": {}, "as": "c2", "expect": {"json_contains": {"cashout_id": "#
         + #""{{c2.cashout_id}}"}}}]"#,

         "x.json: steps[1].expect.json_contains.cashout_id: expected {{NAME.cashout_id}} with NAME the \"as\" of an earlier step, got "
         + "{{c2.cashout_id}} (named so far: c1)"),
        // A named cashout gives two fields: another is a typo, refused before the run reaches it.
        (#"[{"create_cashout": {}, "as": "c1"}, {"request": {"method": "GET", "path": "/sandbox/cashouts/{{c1.cashoutid}}"}}]"#,
         "x.json: steps[1].request.path: expected {{c1.cashout_id}} or {{c1.external_id}}, got {{c1.cashoutid}}"),
        (#"[{"create_cashout": {}, "as": "c1"}, {"expect_webhooks": {"ref": "c1", "fields": {"cashout_id": "{{c1.id}}"}}}]"#,
         "x.json: steps[1].expect_webhooks.fields.cashout_id: expected {{c1.cashout_id}} or {{c1.external_id}}, got {{c1.id}}"),
    ])
    func aStepNamingACashoutNoEarlierStepNamedIsRefused(steps: String, message: String) {
        #expect(error(#"{"steps": \#(steps)}"#) == message)
    }

    @Test func stepsMayNameWhatEarlierStepsNamedAndSaved() throws {
        let scenario = try load(#"""
        {"steps": [
          {"create_cashout": {}, "as": "c1", "comment": "{{c9.cashout_id}} in a comment is text"},
          {"request": {"method": "GET", "path": "/sandbox/cashouts/{{c1.cashout_id}}?base={{base_url}}"}, "save": {"m": "merchant", \#
        "x.cashout_id": "id"}},
          {"request": {"method": "GET", "path": "/sandbox/ledger?merchant={{m}}&other={{x.cashout_id}}&unknown={{later}}"}},
          {"expect_cashout": {"ref": "c1", "status": "PENDING"}},
          {"expect_webhooks": {"ref": "c1", "fields": {"external_id": "{{c1.external_id}}"}}}]}
        """#)
        #expect(scenario.steps.count == 5)
    }

    @Test func aMissingFileIsAnError() {
        #expect(throws: ScenarioError(file: "/no/such.json", path: "", expected: "a readable file")) {
            try ScenarioLoader.load(file: "/no/such.json", vocabulary: d24Vocabulary)
        }
    }

    @Test func theBuiltInDefaultIsTheFileInScenarios() throws {
        let root = URLPath.packageRoot(#filePath)
        let onDisk = try #require(ScenarioLoader.readFile(root + "/scenarios/default.json"))
        #expect(String(decoding: onDisk, as: UTF8.self) == D24Dialect.builtInScenarioText)  // compiled in, not a copy
        #expect(try load(D24Dialect.builtInScenarioText).rules.count == 26)
    }
}

/// The package root, from this file's path.
enum URLPath {
    static func packageRoot(_ file: String) -> String {
        var parts = file.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/SandboxScenarioTests/ScenarioLoaderTests.swift
        return parts.joined(separator: "/")
    }
}

/// Patterns a backtracking engine can take exponential time on are refused; ordinary ones pass.
struct RegexSafetyTests {
    @Test(arguments: ["(a+)+", "^(a|aa)+$", "(a*)*", "(\\d?){2,}", "((ab)+c)*", "(x(?:y+))+"])
    func nestedRepetitionIsRefused(pattern: String) {
        let text = #"{"bank": {"rules": [{"when": {"comments": {"regex": "\#(pattern.replacingOccurrences(of: "\\", with: "\\\\"))"}}, "then": "#
                   + #"[]}]}}"#
        #expect(error(text) == "x.json: bank.rules[0].when.comments.regex: expected a regular expression without a repeated group "
            + "that repeats or alternates inside, such as (a+)+ or (a|aa)+: matching those can take exponential time")
    }

    @Test(arguments: ["^\\d{11}$", "^(BR|MX)$", "[a+]+", "\\(a+\\)+", "(abc)+", "^E2E-[0-9A-F]{8}$", "(?:ab)?c+", "a+b*"])
    func ordinaryPatternsLoad(pattern: String) {
        let text = #"{"bank": {"rules": [{"when": {"comments": {"regex": "\#(pattern.replacingOccurrences(of: "\\", with: "\\\\"))"}}, "then": "#
                   + #"[]}]}}"#
        #expect(error(text) == nil)
    }
}
