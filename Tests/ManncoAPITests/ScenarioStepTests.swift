@testable import CashoutSandbox
@testable import SandboxSupport
@testable import SandboxRunner
@testable import SandboxContract
import Testing

/// Mannco's scenario steps (`login`, `process_cashout`, `link`, `expect_emails`, and
/// `expect_balance` for users): what they do, what they refuse when loaded, and how a failure reads.
@Suite struct ScenarioStepTests {
    private func load(_ text: String) throws(ScenarioError) -> Scenario {
        try ScenarioLoader.load(Array(text.utf8), file: "t.json", vocabulary: Sandbox.Configuration().scenarioVocabulary)
    }

    private func run(_ text: String) throws -> ScenarioResult {
        ScenarioRunner.run(try load(text))
    }

    @Test func stepsActAsTheUserThroughTheAPI() throws {
        let result = try run(#"""
            {"users": [{"id": "9", "api_key": "k9", "balance": 20000}],
             "steps": [
               {"login": {"api_key": "k9"}, "as": "t9"},
               {"request": {"method": "GET", "path": "/user/balance", "headers": {"Authorization": "Bearer {{t9}}"}},
                "expect": {"json_contains": {"content": {"balance": 20000}}}},
               {"login": {"user": "9"}},
               {"request": {"method": "GET", "path": "/user/balance", "headers": {"Authorization": "Bearer {{jwt}}"}}, "expect": {"status": 200}},
               {"link": {"user": "9", "provider": "paypal"}},
               {"link": {"user": "9", "provider": "payoneer", "open": false}},
               {"process_cashout": {"user": "9", "amount": 5000, "method": "payoneer"},
                "expect": {"status": 300, "json_contains": {"content": "Payment method not linked"}}},
               {"link": {"user": "9", "provider": "payoneer"}},
               {"process_cashout": {"user": "9", "amount": 5000, "method": "payoneer", "email": "never@example.com"}, "as": "c"},
               {"expect_cashout": {"ref": "c", "status": "PENDING"}},
               {"expect_cashout": {"ref": "c", "status": "pending"}},
               {"expect_cashout": {"ref": "c", "status": {"in": ["processing", "pending"]}}},
               {"request": {"method": "GET", "path": "/sandbox/cashouts/{{c.cashout_id}}"}, "expect": {"json_contains": {"merchant": "9"}}},
               {"expect_emails": {"ref": "c", "count": 1, "statuses": ["pending"], "to": "never@example.com"}},
               {"expect_emails": {"user": "9", "count": 1}},
               {"expect_balance": {"user": "9", "cents": 15000, "USD": "150.00"}},
               {"expect_balance": {"user": "9", "balance": 15000}},
               {"process_cashout": {"amount": 5000, "method": "tipalti"}, "as": "default"},
               {"expect_balance": {"user": "76561198000000001", "cents": 995000}}
             ]}
            """#)
        #expect(result.failure == nil, "\(result.failure.map { "step \($0.step): \($0.message)" } ?? "")")
    }

    @Test(arguments: [
        (#"{"process_cashout": {"user": "nobody", "amount": 5000, "method": "payoneer"}}"#,
         #"process_cashout: no Mannco user "nobody" (define one in "users")"#),
        (#"{"process_cashout": {"user": "sandbox_login", "amount": 5000, "method": "payoneer"}}"#,
         #"process_cashout: no Mannco user "sandbox_login""#),
        (#"{"process_cashout": {"amount": 1, "method": "payoneer"}}"#,
         #"process_cashout: expected status 200, got 300 {"err":true,"success":false,"content":"Amount below minimum"}"#),
        (#"{"login": {"api_key": "wrong"}}"#, #"login: expected status 200, got 403 {"err":true,"success":false,"content":"Invalid API key"}"#),
        (#"{"link": {"provider": "venmo"}}"#, #"link: expected status 200, got 300 {"err":true,"success":false,"content":"Invalid provider"}"#),
        (#"{"expect_cashout": {"ref": "c1", "status": "completed"}}"#, "expect_cashout c1: expected status completed, got PENDING (pending)"),
        (#"{"expect_cashout": {"ref": "c1", "status": "DELIVERED"}}"#, "expect_cashout c1: expected status DELIVERED, got PENDING (pending)"),
        (#"{"expect_emails": {"count": 2}}"#, "expect_emails: expected 2 emails, got 1"),
        (#"{"expect_emails": {"ref": "c1", "statuses": ["pending", "processing"]}}"#,
         "expect_emails c1: expected emails for pending, processing, got pending"),
        (#"{"expect_emails": {"to": "x@example.com"}}"#, "expect_emails: expected every email to x@example.com, got one to user@example.com"),
        (#"{"expect_balance": {"user": "76561198000000001", "cents": 1}}"#, "expect_balance 76561198000000001: expected 1 cents, got 995000"),
        (#"{"expect_balance": {"user": "76561198000000001", "balance": 2}}"#, "expect_balance 76561198000000001: expected 2 cents, got 995000"),
        (#"{"expect_balance": {"user": "nobody", "cents": 1}}"#, #"expect_balance: no merchant or user "nobody""#),
    ])
    func aFailureNamesTheStepWhatWasExpectedAndWhatHappened(step: String, message: String) throws {
        let result = try run(#"{"steps": [{"process_cashout": {"amount": 5000, "method": "payoneer"}, "as": "c1"}, \#(step)]}"#)
        let failure = try #require(result.failure)
        #expect(failure.step == 2)
        #expect(failure.message.hasPrefix(message), "\(failure.message)")
    }

    /// A file is refused when loaded (below); a step made in code meets the same refusal when run.
    @Test func anExpectEmailsStepMadeInCodeNamingNoCashoutFailsWhenRun() throws {
        var loaded = try load(#"{"steps": [{"process_cashout": {"amount": 5000, "method": "payoneer"}, "as": "c1"}]}"#)
        loaded.steps.append(.dialect(Step.DialectStep(action: "expect_emails", body: ["ref": "nope"])))
        #expect(ScenarioRunner.run(loaded).failure?.message == #"expect_emails: no cashout named "nope" (name one with "as")"#)
    }

    @Test(arguments: [
        (#"{"login": {"user": "1", "api_key": "k"}}"#, #"steps[0].login: expected "user" or "api_key", not both"#),
        (#"{"login": {"password": "k"}}"#, "steps[0].login.password: unknown key"),
        (#"{"login": {"user": ""}}"#, "steps[0].login.user: expected a non-empty string"),
        (#"{"process_cashout": [5000]}"#, #"steps[0].process_cashout: expected an object of body fields and "user""#),
        (#"{"link": {"provider": "payoneer", "open": "yes"}}"#, "steps[0].link.open: expected true or false"),
        (#"{"expect_emails": {"statuses": ["sent"]}}"#,
         "steps[0].expect_emails.statuses[0]: expected pending, processing, completed, failed or cancelled"),
        (#"{"expect_emails": {"count": -1}}"#, "steps[0].expect_emails.count: expected a whole number from 0 to 1000000"),
        (#"{"expect_emails": {"ref": "nope"}}"#,
         #"steps[0].expect_emails.ref: expected the "as" of an earlier step, got "nope" (none named so far)"#),
        (#"{"expect_cashout": {"ref": "c", "status": "paid"}}"#,
         "steps[0].expect_cashout.status: expected a status: PENDING, ON_HOLD, DELIVERED, COMPLETED, REJECTED or CANCELLED (or an API's own word: "
         + "CANCELLED, EXPIRED, FAILED, INITIATED, PENDING, REQUIRES_FULFILLMENT, REQUIRES_PAYOUT_METHOD_DATA, REVERSED, SUCCESS, cancelled, "
         + "completed, failed, pending, processing)"),
        (#"{"process_cashout": {"amount": 5000}, "save": {"x": "content"}}"#, #"steps[0].save: expected only with "request""#),
        (#"{"expect_balance": {"user": "1", "merchant": "m", "cents": 1}}"#, "steps[0].expect_balance: expected"),
        (#"{"expect_balance": {"user": "1", "cents": 1.5}}"#, "steps[0].expect_balance.cents: expected a whole number"),
    ])
    func malformedStepsAreRefusedWhenLoaded(step: String, message: String) throws {
        do {
            _ = try load(#"{"steps": [\#(step)]}"#)
            Issue.record("loaded \(step)")
        } catch {
            #expect("\(error.path): \(error.expected)".hasPrefix(message), "\(error.path): \(error.expected)")
        }
    }
}
