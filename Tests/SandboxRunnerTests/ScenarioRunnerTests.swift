@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxSupport
@testable import SandboxContract
@testable import SandboxRunner
import Testing

private func scenario(_ text: String) throws -> Scenario {
    try ScenarioLoader.load(Array(text.utf8), file: "t.json", vocabulary: Sandbox.Configuration().scenarioVocabulary)
}

private func run(_ text: String) throws -> ScenarioResult {
    ScenarioRunner.run(try scenario(text))
}

@Suite struct ScenarioRunnerTests {
    static let lateReversal = #"""
    {"name": "late reversal", "merchants": [{"login": "acme", "pass": "p", "secret": "s", "balance": {"USD": "5000.00"}}],
     "bank": {"rules": [{"when": {"amount": {"gte": 100}}, "then": [{"after": "5m", "status": "DELIVERED"},
        {"after": "1h", "status": "COMPLETED", "bank_reference_id": "E2E123"}, {"after": "2d", "status": "REJECTED", "rejection_code": 826}]}]},
     "steps": [
        {"create_cashout": {"merchant": "acme", "amount": 150, "currency": "USD"}, "as": "c1"},
        {"advance": "1h5m"},
        {"expect_cashout": {"ref": "c1", "status": "COMPLETED", "bank_reference_id": "E2E123"}},
        {"advance": "2d"},
        {"expect_cashout": {"ref": "c1", "status": {"in": ["REJECTED"]}, "rejection_code": 826}},
        {"expect_webhooks": {"ref": "c1", "count": 3, "statuses": ["DELIVERED", "COMPLETED", "REJECTED"], "attempts": 3,
                             "fields": {"cashout_id": "{{c1.cashout_id}}", "external_id": "{{c1.external_id}}"}}},
        {"expect_balance": {"merchant": "acme", "USD": "5000.00"}},
        {"expect_ledger": {"merchant": "acme", "count": 2}},
        {"request": {"method": "GET", "path": "/sandbox/cashouts/{{c1.cashout_id}}"}, "expect": {"status": 200, "json_contains": {"status": \#
    "REJECTED"}}, "save": {"merchant": "merchant"}},
        {"request": {"method": "GET", "path": "/sandbox/ledger?merchant={{merchant}}"}, "expect": {"json_contains": {}}}]}
    """#

    @Test func theDesignExamplePasses() throws {
        let result = try run(Self.lateReversal)
        #expect(result.failure == nil)
        #expect(result.steps == 10)
    }

    @Test(arguments: [
        (#"{"expect_cashout": {"ref": "c1", "status": "COMPLETED"}}"#, "expect_cashout c1: expected status COMPLETED, got PENDING"),
        (#"{"expect_cashout": {"ref": "c1", "rejection_code": 801}}"#, "expect_cashout c1: expected rejection_code 801, got none"),
        (#"{"expect_webhooks": {"ref": "c1", "count": 2}}"#, "expect_webhooks c1: expected 2 notifications, got 0"),
        (#"{"expect_balance": {"merchant": "sandbox_login", "USD": "1.00"}}"#, "expect_balance sandbox_login: expected USD 1.00, got 999983.00"),
        (#"{"expect_balance": {"merchant": "sandbox_login", "BRL": "1.00"}}"#,
         "expect_balance sandbox_login: expected a BRL balance, the account settles in USD"),
        (#"{"expect_ledger": {"merchant": "sandbox_login", "count": 5}}"#, "expect_ledger sandbox_login: expected 5 entries, got 1"),
        (#"{"request": {"method": "GET", "path": "/sandbox/health"}, "expect": {"status": 404}}"#,
         "request GET /sandbox/health: expected status 404, got 200"),
        (#"{"request": {"method": "GET", "path": "/sandbox/health"}, "expect": {"json_contains": {"status": "down"}}}"#,
         "request GET /sandbox/health: expected a body containing {\"status\":\"down\"}, got"),
        (#"{"create_cashout": {"amount": "1.234"}}"#,
         "create_cashout: expected status 200, got 412 {\"code\":300,\"message\":\"amount: Invalid or missing Amount\"}"),
    ])
    func aFailureNamesTheStepWhatWasExpectedAndWhatHappened(step: String, message: String) throws {
        let result = try run(#"{"steps": [{"create_cashout": {}, "as": "c1"}, \#(step)]}"#)
        let failure = try #require(result.failure)
        #expect(failure.step == 2)
        #expect(failure.message.hasPrefix(message))
    }

    @Test func createCashoutsMakesManyThroughTheSameHandler() throws {
        let result = try run(#"""
        {"merchants": [{"login": "bulk", "pass": "p", "secret": "s", "balance": {"USD": "1000.00"}}],
         "bank": {"rules": [{"when": {}, "then": [{"after": "1m", "status": "DELIVERED"}, {"after": "1h", "status": "COMPLETED"},
                                                  {"after": "1d", "status": "REJECTED", "rejection_code": 826}]}]},
         "steps": [
           {"create_cashouts": {"count": 40, "merchant": "bulk", "fields": {"currency": "USD", "amount": "25.00"}, "external_id_prefix": "b"}},
           {"expect_balance": {"merchant": "bulk", "USD": "0.00"}},
           {"advance": "2d"},
           {"expect_ledger": {"merchant": "bulk", "count": 80}},
           {"expect_webhooks": {"count": 120, "attempts": 120}},
           {"expect_balance": {"merchant": "bulk", "USD": "1000.00"}},
           {"create_cashouts": {"count": 41, "merchant": "bulk", "fields": {"currency": "USD", "amount": "25.00"}, "external_id_prefix": "c"}}]}
        """#)
        let failure = try #require(result.failure)
        #expect(failure.step == 7)
        #expect(failure.message == #"create_cashouts: create 41 of 41: expected status 200, got 412 {"code":514,"message":"Insufficient funds"}"#)
    }

    @Test func createCashoutsSendsItsBatchesInOrderAndStopsAtTheFirstRefusal() throws {
        // Several batches, each built while the one before is sent; funds for 4250 creates.
        let result = try run(#"""
        {"merchants": [{"login": "bulk", "pass": "p", "secret": "s", "balance": {"USD": "4250.00"}}],
         "steps": [
           {"create_cashouts": {"count": 4200, "merchant": "bulk", "fields": {"currency": "USD", "amount": "1.00"}, "external_id_prefix": "b"}},
           {"request": {"method": "GET", "path": "/sandbox/cashouts/1002049"}, "expect": {"json_contains": {"external_id": "b-2049"}}},
           {"request": {"method": "GET", "path": "/sandbox/cashouts/1004200"}, "expect": {"json_contains": {"external_id": "b-4200"}}},
           {"create_cashouts": {"count": 4300, "merchant": "bulk", "fields": {"currency": "USD", "amount": "1.00"}, "external_id_prefix": "c"}}]}
        """#)
        let failure = try #require(result.failure)
        #expect(failure.step == 4)
        #expect(failure.message == #"create_cashouts: create 51 of 4300: expected status 200, got 412 {"code":514,"message":"Insufficient funds"}"#)
    }

    @Test(arguments: [
        (#"{"create_cashout": {"beneficiary_name": "KYC 105"}, "expect": {"json_contains": {}}}"#, "create_cashout: expected status 200, got 400"),
        (#"{"expect_webhooks": {"ref": "c1", "fields": {"external_id": "x"}}}"#,
         "expect_webhooks c1: expected notifications carrying external_id, got none"),
        (#"{"expect_ledger": {"merchant": "nobody", "count": 0}}"#, #"expect_ledger: no merchant "nobody""#),
    ])
    func expectationsThatMustNotPassByAccident(step: String, message: String) throws {
        let result = try run(#"{"steps": [{"create_cashout": {}, "as": "c1"}, \#(step)]}"#)
        #expect(result.failure?.message.hasPrefix(message) == true)
    }

    /// A file naming a cashout no earlier step named is refused when loaded (ScenarioLoaderTests);
    /// steps made in code meet the same refusal when they run.
    @Test func stepsMadeInCodeNamingNoCashoutFailWhenRun() throws {
        var loaded = try scenario(#"{"steps": [{"create_cashout": {}, "as": "c1"}, {"request": {"method": "GET", "path": "#
                                  + #""/sandbox/cashouts/{{c1.cashout_id}}"}}]}"#)
        loaded.steps[0] = .createCashout(fields: [:], merchant: nil, name: "c2", expect: nil)
        #expect(ScenarioRunner.run(loaded).failure?.message == "unknown template {{c1.cashout_id}}: known so far are {{base_url}}, "
            + #"{{c2.cashout_id}}, {{c2.external_id}} (name cashouts with "as", values with "save")"#)
        loaded.steps[1] = .expectCashout(ref: "zz", status: nil, reasonCode: nil, bankReference: nil)
        #expect(ScenarioRunner.run(loaded).failure?.message == #"expect_cashout: no cashout named "zz" (name one with "as")"#)
    }

    /// A saved name may be used before the step that saves it runs (the loader cannot tell a
    /// `save` that finds nothing): the run names the template and what it knows by then.
    @Test func aSavedNameNotSavedYetFailsNamingWhatIsKnown() throws {
        let result = try run(#"""
        {"steps": [{"create_cashout": {}, "as": "c1"},
                   {"request": {"method": "GET", "path": "/sandbox/cashouts/{{c1.cashout_id}}"}, "save": {"who": "merchant"}},
                   {"request": {"method": "GET", "path": "/sandbox/ledger?merchant={{whom}}"}}]}
        """#)
        #expect(result.failure?.message == "unknown template {{whom}}: known so far are {{base_url}}, {{c1.cashout_id}}, {{c1.external_id}}, "
            + #"{{who}} (name cashouts with "as", values with "save")"#)
    }

    @Test func expectedBodiesCompareNumbersByValue() throws {
        let result = try run(#"""
        {"steps": [{"request": {"method": "GET", "path": "/v3/exchange_rates?country=EC", "headers": {"Authorization": "Bearer sandbox_read_only"}},
                    "expect": {"json": {"converted_amount": 1.00, "currency": "USD", "fx_rate": 1.0}, "json_contains": {"fx_rate": 1}}}]}
        """#)
        #expect(result.failure == nil)
    }

    @Test func textOperandsCompareAsTextAndNumberOperandsAsDecimals() throws {
        let result = try run(#"""
        {"bank": {"rules": [
           {"when": {"document_id": "1716001340"}, "decline": {"code": 504, "reason": "should not match", "reason_code": 1}},
           {"when": {"amount": 100}, "then": [{"after": "1m", "status": "REJECTED", "rejection_code": 801}]}]},
         "steps": [
           {"create_cashout": {"amount": "100.00"}, "as": "c1"},
           {"advance": "1m"},
           {"expect_cashout": {"ref": "c1", "status": "REJECTED", "rejection_code": 801}}]}
        """#)
        #expect(result.failure == nil)
    }

    @Test func everyMatchingFaultCountsTheRequestEvenWhenAnotherFires() throws {
        let result = try run(#"""
        {"faults": [
           {"when": {"endpoint": "GET /v3/banks"}, "every": 3, "kind": "error", "status": 503, "body": "first"},
           {"every": 2, "kind": "error", "status": 502, "body": "second"}],
         "steps": [
           {"request": {"method": "GET", "path": "/v3/banks?country=EC", "headers": {"Authorization": "Bearer sandbox_read_only"}}, "expect": \#
        {"status": 200}},
           {"request": {"method": "GET", "path": "/v3/banks?country=EC", "headers": {"Authorization": "Bearer sandbox_read_only"}}, "expect": \#
        {"status": 502}},
           {"request": {"method": "GET", "path": "/v3/banks?country=EC", "headers": {"Authorization": "Bearer sandbox_read_only"}}, "expect": \#
        {"status": 503}},
           {"request": {"method": "GET", "path": "/v3/banks?country=EC", "headers": {"Authorization": "Bearer sandbox_read_only"}}, "expect": \#
        {"status": 502}}]}
        """#)
        #expect(result.failure == nil)
    }

    @Test func aResponseLostAfterCommitMakesTheRetriedCreateHit511() throws {
        let result = try run(#"""
        {"faults": [{"when": {"endpoint": "POST /v3/cashout"}, "every": 2, "kind": "drop_after_commit"}],
         "steps": [
           {"create_cashout": {"external_id": "order-0"}},
           {"create_cashout": {"external_id": "order-1"}, "expect": {"no_response": true}},
           {"create_cashout": {"external_id": "order-1"}, "expect": {"status": 412, "json": {"code": 511, "message": "External ID already used"}}},
           {"expect_ledger": {"merchant": "sandbox_login", "count": 2}}]}
        """#)
        #expect(result.failure == nil)
    }

    @Test func aFaultWithTimesActsThatManyTimesOnly() throws {
        let result = try run(#"""
        {"faults": [{"when": {"endpoint": "GET /v3/banks"}, "every": 1, "times": 2, "kind": "error", "status": 503, "body": "{\"code\":503}"}],
         "steps": [
           {"request": {"method": "GET", "path": "/v3/banks?country=EC", "headers": {"Authorization": "Bearer sandbox_read_only"}}, "expect": \#
        {"status": 503}},
           {"request": {"method": "GET", "path": "/v3/banks?country=EC", "headers": {"Authorization": "Bearer sandbox_read_only"}}, "expect": \#
        {"status": 503}},
           {"request": {"method": "GET", "path": "/v3/banks?country=EC", "headers": {"Authorization": "Bearer sandbox_read_only"}}, "expect": \#
        {"status": 200}},
           {"request": {"method": "GET", "path": "/v3/banks?country=EC", "headers": {"Authorization": "Bearer sandbox_read_only"}}, "expect": \#
        {"status": 200}}]}
        """#)
        #expect(result.failure == nil)
    }

    /// A fault aimed by the request's body drops exactly the create it names, in whatever order
    /// the creates come; its retry meets D24's 511.
    @Test(arguments: [["100", "109.50", "120"], ["109.50", "120", "100"], ["120", "100", "109.50"]])
    func aFaultAimedByBodyAmountDropsExactlyTheTargetedCreate(order: [String]) throws {
        let steps = order.map { amount in
            #"{"create_cashout": {"external_id": "o-\#(amount)", "#
            + #""amount": \#(amount)}\#(amount == "109.50" ? #", "expect": {"no_response": true}"# : "")}"#
        }
        let result = try run(#"""
        {"faults": [{"when": {"path": "/v3/cashout", "body": {"amount": {"gte": 109, "lt": 110}}}, "every": 1, "kind": "drop_after_commit"}],
         "steps": [\#(steps.joined(separator: ",")),
           {"create_cashout": {"external_id": "o-109.50", "amount": 109.50}, "expect": {"status": 412, "json": {"code": 511, "message": "External \#
        ID already used"}}},
           {"expect_ledger": {"merchant": "sandbox_login", "count": 3}}]}
        """#)
        #expect(result.failure == nil, "\(result.failure.map { "step \($0.step): \($0.message)" } ?? "")")
    }

    /// `every` counts the requests the pattern matches, not every request.
    @Test func everyCountsOnlyTheRequestsThePatternMatches() throws {
        let result = try run(#"""
        {"faults": [{"when": {"endpoint": "POST /v3/cashout", "body": {"country": "BR"}, "headers": {"content-type": {"prefix": "application/json"}}},
                     "every": 2, "kind": "error", "status": 503, "body": "{\"code\":503}"}],
         "steps": [
           {"create_cashout": {"external_id": "a", "country": "BR"}},
           {"create_cashout": {"external_id": "b", "country": "MX"}},
           {"create_cashout": {"external_id": "c", "country": "BR"}, "expect": {"status": 503, "json": {"code": 503}}},
           {"create_cashout": {"external_id": "d", "country": "MX"}},
           {"create_cashout": {"external_id": "e", "country": "BR"}}]}
        """#)
        #expect(result.failure == nil, "\(result.failure.map { "step \($0.step): \($0.message)" } ?? "")")
    }

    @Test func errorCloseAndLatencyFaults() throws {
        let started = Date()
        let result = try run(#"""
        {"seed": 1, "faults": [
           {"when": {"endpoint": "GET /v3/banks"}, "every": 3, "kind": "close"},
           {"when": {"endpoint": "GET /v3/banks"}, "every": 2, "kind": "error", "status": 503, "body": "{\"code\":503}"},
           {"when": {"endpoint": "GET /v3/exchange_rates"}, "rate": 1, "kind": "latency", "latency": {"min": "300ms", "max": "300ms"}}],
         "steps": [
           {"request": {"method": "GET", "path": "/v3/banks?country=EC", "headers": {"Authorization": "Bearer sandbox_read_only"}}, "expect": \#
        {"status": 200}},
           {"request": {"method": "GET", "path": "/v3/banks?country=EC", "headers": {"Authorization": "Bearer sandbox_read_only"}}, "expect": \#
        {"status": 503, "json": {"code": 503}}},
           {"request": {"method": "GET", "path": "/v3/banks?country=EC", "headers": {"Authorization": "Bearer sandbox_read_only"}}, "expect": \#
        {"no_response": true}},
           {"request": {"method": "GET", "path": "/v3/exchange_rates?country=EC", "headers": {"Authorization": "Bearer sandbox_read_only"}}, \#
        "expect": {"json": {"converted_amount": 1, "currency": "USD", "fx_rate": 1}}}]}
        """#)
        #expect(result.failure == nil)
        #expect(Date().timeIntervalSince(started) >= 0.3)
    }

    @Test func theSameScenarioAndSeedGiveTheSameJournalByteForByte() throws {
        let text = #"""
        {"seed": 42, "bank": {"rules": [{"when": {}, "outcomes": [
            {"weight": 3, "then": [{"after": {"min": "1m", "max": "2h"}, "status": "DELIVERED"}, {"after": {"min": "1m", "max": "1d"}, "status": \#
        "COMPLETED"}]},
            {"weight": 1, "then": [{"after": {"min": "1s", "max": "10m"}, "status": "REJECTED", "rejection_code": 801}]}]}]},
         "webhooks": {"sinks": {"sandbox_login": {"answers": [500, 200, 503]}}},
         "steps": [
           {"create_cashout": {"external_id": "a"}}, {"create_cashout": {"external_id": "b"}}, {"create_cashout": {"external_id": "c"}},
           {"create_cashout": {"external_id": "d"}}, {"create_cashout": {"external_id": "e"}}, {"advance": "3d"}]}
        """#
        func journal() throws -> String {
            let result = ScenarioRunner.run(try scenario(text), journal: true)
            #expect(result.failure == nil)
            return result.journal
        }
        let first = try journal()
        #expect(first == (try journal()))
        #expect(first.split(separator: "\n").count == 5)
        #expect(first.contains(#""status":"DELIVERED""#) && first.contains(#""response_status":500"#))
        // Another seed gives other delays.
        let other = ScenarioRunner.run(try scenario(text.replacingOccurrences(of: #""seed": 42"#, with: #""seed": 43"#)), journal: true).journal
        #expect(other != first)
    }

    /// `expect_webhooks`' `fields` are read from what the payout's API sends: a form's fields, or
    /// a JSON object's members (strings and numbers as text).
    @Test func notificationFieldsAreReadFromAFormOrAJSONObject() {
        let form = RenderedNotification(contentType: "application/x-www-form-urlencoded") { "a=1&b=x+y&a=2" }
        #expect(form.fields == ["a": "1", "b": "x y"])
        let json = RenderedNotification(contentType: "application/json") { #"{"id":7,"state":"paid","nested":{"x":1}}"# }
        #expect(json.fields == ["id": "7", "state": "paid"])
        #expect(RenderedNotification(contentType: "text/plain") { "id=7" }.fields.isEmpty)
    }
}
