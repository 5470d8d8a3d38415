@testable import CashoutSandbox
@testable import SandboxRunner
@testable import SandboxSupport
@testable import SandboxContract
import Testing

/// PayoutService's scenario step `grpc_call`: a Connect JSON call made in process, its gRPC
/// `expect`, `as` for later steps, what the loader refuses, and how a failure reads.
@Suite struct PrismScenarioStepTests {
    private func load(_ text: String) throws(ScenarioError) -> Scenario {
        try ScenarioLoader.load(Array(text.utf8), file: "t.json", vocabulary: Sandbox.Configuration().scenarioVocabulary)
    }

    private func run(_ text: String) throws -> ScenarioResult {
        ScenarioRunner.run(try load(text))
    }

    static let create = #"""
        {"grpc_call": {"method": "Create", "message": {"merchant_payout_id": "po-1", "amount": {"minor_amount": 1000, "currency": "USD"},
                                                        "payout_method_data": {"card": {"card_number": {"value": "4111111111111111"}}}}},
         "as": "p1"}
        """#

    @Test func callsAreMadeAsAConnectClientAndNameTheirPayout() throws {
        let result = try run(#"""
            {"prism_merchants": [{"merchant_id": "globex", "api_key": "globex_key", "balance": {"USD": "100.00"}}],
             "steps": [
               \#(Self.create),
               {"expect_cashout": {"ref": "p1", "status": "PENDING"}},
               {"grpc_call": {"method": "types.PayoutService/Get", "message": {"connectorPayoutId": "{{p1.cashout_id}}"}},
                "expect": {"status": "OK", "fields": {"connector_payout_id": "{{p1.cashout_id}}", "merchantPayoutId": "{{p1.external_id}}",
                                                      "payout_status": "PENDING", "status_code": 200}}},
               {"advance": "15s"},
               {"expect_cashout": {"ref": "p1", "status": "SUCCESS"}},
               {"expect_cashout": {"ref": "p1", "status": {"in": ["SUCCESS", "FAILED"]}}},
               {"expect_webhooks": {"ref": "p1", "statuses": ["INITIATED", "SUCCESS"]}},
               {"expect_webhooks": {"ref": "p1", "statuses": ["DELIVERED", "SUCCESS"]}},
               {"grpc_call": {"method": "Get", "message": {"merchant_payout_id": "nope"}}, "expect": {"status": "NOT_FOUND"}},
               {"grpc_call": {"method": "Get", "metadata": {"x-connector": null}}, "expect": {"status": "INVALID_ARGUMENT"}},
               {"grpc_call": {"method": "Get", "metadata": {"x-api-key": "wrong"}}, "expect": {"status": "UNAUTHENTICATED"}},
               {"grpc_call": {"method": "Create", "merchant": "globex",
                              "message": {"merchant_payout_id": "g-1", "amount": {"minor_amount": 2500, "currency": "USD"},
                                          "payout_method_data": {"card": {"card_number": {"value": "4111111111111111"}}}}}, "as": "g1"},
               {"expect_balance": {"merchant": "globex", "USD": "75.00"}},
               {"grpc_call": {"method": "Get", "message": {"connector_payout_id": "{{g1.cashout_id}}"}}, "expect": {"status": "NOT_FOUND"}}
             ]}
            """#)
        #expect(result.failure == nil, "\(result.failure.map { "step \($0.step): \($0.message)" } ?? "")")
    }

    /// CreateRecipient and EnrollDisburseAccount answer ids that are not payouts: written literally
    /// in the steps after them, and refused as an `as`, which names payouts.
    @Test func recipientsAndTheirAccountsAreCalledTooAndTheirIdsAreWrittenOut() throws {
        let result = try run(#"""
            {"steps": [
               {"grpc_call": {"method": "CreateRecipient", "message": {"recipient_type": "INDIVIDUAL", "customer": {"name": "Ana Lima"}}},
                "expect": {"fields": {"connector_payout_id": "rcp_000001"}}},
               {"grpc_call": {"method": "types.PayoutService/EnrollDisburseAccount",
                              "message": {"customer": {"connector_customer_id": "rcp_000001"},
                                          "payout_method_data": {"sepa": {"iban": {"value": "DE89370400440532013000"}}}}},
                "expect": {"fields": {"connector_payout_id": "pm_000001"}}},
               {"grpc_call": {"method": "Create", "message": {"merchant_payout_id": "po-2", "amount": {"minor_amount": 1000, "currency": "USD"},
                                                              "connector_payout_method_id": "pm_000001"}}, "as": "p2"},
               {"advance": "15s"},
               {"expect_cashout": {"ref": "p2", "status": "SUCCESS"}},
               {"grpc_call": {"method": "CreateRecipient", "message": {"customer": {"name": "Bo"}}}, "as": "r2"}
             ]}
            """#)
        let failure = try #require(result.failure)
        #expect(failure.step == 6)
        #expect(failure.message == #"grpc_call CreateRecipient r2: "as" names payouts, and rcp_000002 is not one: write the id it answers where "#
                                   + #"later steps need it"#)
    }

    @Test(arguments: [
        (#"{"grpc_call": {"method": "Get", "message": {"connector_payout_id": "{{p1.cashout_id}}"}}, "expect": {"status": "NOT_FOUND"}}"#,
         "grpc_call Get: expected status NOT_FOUND, got OK"),
        (#"{"grpc_call": {"method": "Get", "message": {"connector_payout_id": "1"}}}"#,
         "grpc_call Get: expected status OK, got NOT_FOUND (Payout not found: 1)"),
        (#"{"grpc_call": {"method": "Get", "message": {"connector_payout_id": "1"}}, "expect": {"status": "NOT_FOUND", "error": "gone"}}"#,
         #"grpc_call Get: expected error "gone", got "Payout not found: 1""#),
        (#"{"grpc_call": {"method": "Get", "message": {"connector_payout_id": "{{p1.cashout_id}}"}}, "as": "again", "expect": {"fields": "#
         + #"{"payout_status": "SUCCESS"}}}"#,

         #"grpc_call Get again: expected payoutStatus "SUCCESS", got "PENDING""#),
        (#"{"grpc_call": {"method": "Get", "message": {"connector_payout_id": "{{p1.cashout_id}}"}}, "expect": {"fields": {"nothing_here": 1}}}"#,
         "grpc_call Get: expected nothingHere 1, got nothing"),
        (#"{"grpc_call": {"method": "Get", "merchant": "nobody"}}"#, #"grpc_call Get: no PayoutService merchant "nobody""#),
        (#"{"expect_cashout": {"ref": "p1", "status": "SUCCESS"}}"#, "expect_cashout p1: expected status SUCCESS, got PENDING"),
        (#"{"advance": "5s"}, {"expect_webhooks": {"ref": "p1", "statuses": ["SUCCESS"]}}"#,
         "expect_webhooks p1: expected statuses SUCCESS, got DELIVERED (INITIATED)"),
    ])
    func aFailureNamesTheStepWhatWasExpectedAndWhatHappened(step: String, message: String) throws {
        let result = try run(#"{"steps": [\#(Self.create), \#(step)]}"#)
        let failure = try #require(result.failure)
        #expect(failure.step == (step.hasPrefix(#"{"advance""#) ? 3 : 2))
        #expect(failure.message.hasPrefix(message), "\(failure.message)")
    }

    /// The API's word is not written twice where it is the sandbox's name (PENDING, not "PENDING (PENDING)").
    @Test func expectCashoutNamesAStatusItsAPIWordsAlikeOnce() throws {
        let result = try run(#"{"steps": [\#(Self.create), {"expect_cashout": {"ref": "p1", "status": "SUCCESS"}}]}"#)
        #expect(try #require(result.failure).message == "expect_cashout p1: expected status SUCCESS, got PENDING")
    }

    @Test(arguments: [
        (#"{"grpc_call": "Create"}"#, "steps[0].grpc_call: expected an object"),
        (#"{"grpc_call": {"message": {}}}"#, #"steps[0].grpc_call: expected "method""#),
        (#"{"grpc_call": {"method": "Delete"}}"#, "steps[0].grpc_call.method: expected a method of types.PayoutService"),
        (#"{"grpc_call": {"method": "Get", "headers": {}}}"#, "steps[0].grpc_call.headers: unknown key"),
        (#"{"grpc_call": {"method": "Get", "metadata": {"X-Api-Key": "k"}}}"#,
         "steps[0].grpc_call.metadata.X-Api-Key: expected a lowercase metadata name"),
        (#"{"grpc_call": {"method": "Get", "metadata": {"x-api-key": 5}}}"#, "steps[0].grpc_call.metadata.x-api-key: expected a string"),
        (#"{"grpc_call": {"method": "Get", "message": []}}"#, "steps[0].grpc_call.message: expected an object"),
        (#"{"grpc_call": {"method": "Get"}, "save": {"id": "connectorPayoutId"}}"#, #"steps[0].save: expected only with "request""#),
        (#"{"grpc_call": {"method": "Get"}, "expect": {"status": 404}}"#, "steps[0].expect.status: expected a string"),
        (#"{"grpc_call": {"method": "Get"}, "expect": {"status": "not_found"}}"#, "steps[0].expect.status: expected a gRPC status: OK, CANCELLED"),
        (#"{"grpc_call": {"method": "Get"}, "expect": {"json_contains": {}}}"#, "steps[0].expect.json_contains: unknown key"),
        (#"{"grpc_call": {"method": "Get"}, "expect": {"fields": []}}"#, "steps[0].expect.fields: expected an object"),
        (#"{"expect_cashout": {"ref": "p", "status": "success"}}"#, "steps[0].expect_cashout.status: expected a status"),
        (#"{"expect_webhooks": {"statuses": ["success"]}}"#, "steps[0].expect_webhooks.statuses[0]: expected a status"),
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

extension PrismScenarioStepTests {
    /// A Create the API refused (a gRPC status but OK, as Connect answers it) fails a wait for it;
    /// a retried Create with the same merchant_payout_id is answered the existing payout (OK), and
    /// names it.
    @Test func aWaitForARefusedCreateFailsAndARetriedOneNamesTheExistingPayout() throws {
        let result = try run(#"""
            {"steps": [
               \#(Self.create),
               {"grpc_call": {"method": "Create", "message": {"merchant_payout_id": "po-1", "amount": {"minor_amount": 1000, "currency": "USD"},
                                                               "payout_method_data": {"card": {"card_number": {"value": "4111111111111111"}}}}},
                "expect": {"status": "OK"}},
               {"grpc_call": {"method": "Create", "message": {"merchant_payout_id": "po-2", "amount": {"minor_amount": 1000, "currency": "USD"},
                                                               "connector_payout_method_id": "pm_404"}},
                "expect": {"status": "NOT_FOUND"}},
               {"wait_for_request": {"request": {"path": "/types.PayoutService/Create"}}, "as": "first"},
               {"wait_for_request": {"request": {"path": "/types.PayoutService/Create"}}, "as": "retried"},
               {"expect_cashout": {"ref": "retried", "status": "PENDING"}},
               {"request": {"method": "GET", "path": "/sandbox/cashouts/{{retried.cashout_id}}"}, "expect": {"status": 200, "json_contains": \#
            {"external_id": "po-1"}}},
               {"wait_for_request": {"request": {"path": "/types.PayoutService/Create"}}, "as": "refused"}
             ]}
            """#)
        #expect(result.failure?.step == 8)
        #expect(result.failure?.message == #"wait_for_request: request 3 (POST /types.PayoutService/Create answered 404) is a create the API "#
                                           + #"refused: {"code":"not_found","message":"Payout method not found: pm_404"}; it created no cashout to "#
                                           + #"name "refused", and the app sent no matching request again"#)
    }
}

extension PrismScenarioStepTests {
    /// Over gRPC (HTTP/2, a grpc-status trailer) a refused Create is one too: what a wait for it
    /// says is its status and message.
    @Test func aCreateRefusedOverGRPCIsARefusalForAWait() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let answer = try sandbox.prism("Create", createRequest(withMethod: false))
        #expect(answer.code == 3)
        let pattern = try RequestPattern.read(ScenarioNode(value: ["path": "/types.PayoutService/Create"], path: "request", file: "t.json"))
        let found = try #require(sandbox.firstRequest(matching: pattern, excluding: [], after: 0).match)
        #expect(found.payout == nil)
        #expect(found.refusal == "grpc-status INVALID_ARGUMENT: \(answer.message ?? "")" && answer.message?.isEmpty == false)
    }
}

extension PrismScenarioStepTests {
    /// `expect_balance` names a PayoutService merchant by `account`, its `merchant_id` as
    /// `/sandbox/accounts/prism` lists it: a debit is seen, a refund after FAILED too.
    @Test func expectBalanceTakesAPayoutServiceAccountByItsID() throws {
        let result = try run(#"""
            {"prism_merchants": [{"merchant_id": "globex", "api_key": "globex_key", "balance": {"USD": "100.00"}}],
             "steps": [
               {"expect_balance": {"account": "globex", "USD": "100.00"}},
               {"grpc_call": {"method": "Create", "merchant": "globex",
                              "message": {"merchant_payout_id": "g-1", "amount": {"minor_amount": 2500, "currency": "USD"},
                                          "payout_method_data": {"card": {"card_number": {"value": "4111111111111111"},
                                                                          "card_holder_name": {"value": "FAIL Ana"}}}}}, "as": "g1"},
               {"expect_balance": {"account": "globex", "USD": "75.00", "cents": 7500}},
               {"advance": "15s"},
               {"expect_cashout": {"ref": "g1", "status": "FAILED"}},
               {"expect_balance": {"account": "globex", "USD": "100.00"}},
               {"expect_balance": {"account": "DefaultMerchantId", "USD": "1000000.00"}},
               {"expect_balance": {"merchant": "globex", "USD": "100.00"}}
             ]}
            """#)
        #expect(result.failure == nil, "\(result.failure.map { "step \($0.step): \($0.message)" } ?? "")")
        #expect(result.steps == 8)
    }

    @Test(arguments: [
        (#"{"expect_balance": {"account": "DefaultMerchantId", "USD": "1000000.00"}}"#,
         "expect_balance DefaultMerchantId: expected USD 1000000.00, got 999990.00"),
        (#"{"expect_balance": {"account": "DefaultMerchantId", "cents": 1}}"#, "expect_balance DefaultMerchantId: expected 1 cents, got 99999000"),
        (#"{"expect_balance": {"account": "DefaultMerchantId", "EUR": "1.00"}}"#,
         "expect_balance DefaultMerchantId: expected a EUR balance, the account settles in USD"),
        (#"{"expect_balance": {"account": "DefaultMerchantID", "USD": "1.00"}}"#,
         #"expect_balance: no account "DefaultMerchantID" in any API of this sandbox; did you mean "DefaultMerchantId" (prism)?"#),
        (#"{"expect_balance": {"account": "globex", "USD": "1.00"}}"#,
         #"expect_balance: no account "globex" in any API of this sandbox; it has sandbox_login (d24), 76561198000000001 (mannco), "#
         + "DefaultMerchantId (prism)"),
        // The older spellings keep their message.
        (#"{"expect_balance": {"merchant": "globex", "USD": "1.00"}}"#, #"expect_balance: no merchant or user "globex""#),
        (#"{"expect_balance": {"user": "globex", "cents": 1}}"#, #"expect_balance: no merchant or user "globex""#),
    ])
    func expectBalanceOfAnAccountFailsSayingWhatItFound(step: String, message: String) throws {
        let result = try run(#"{"steps": [\#(Self.create), \#(step)]}"#)
        let failure = try #require(result.failure)
        #expect(failure.step == 2)
        #expect(failure.message == message)
    }

    @Test(arguments: [
        (#"{"expect_balance": {"account": "a", "merchant": "a", "USD": "1.00"}}"#, "steps[0].expect_balance: expected {\"account\": ID"),
        (#"{"expect_balance": {"account": "a", "user": "a", "cents": 1}}"#, "steps[0].expect_balance: expected {\"account\": ID"),
        (#"{"expect_balance": {"account": 5, "USD": "1.00"}}"#, "steps[0].expect_balance: expected {\"account\": ID"),
        (#"{"expect_balance": {"account": "a"}}"#, "steps[0].expect_balance: expected a currency and its amount"),
        (#"{"expect_balance": {"account": "a", "USD": "1,00"}}"#, "steps[0].expect_balance.USD: expected"),
    ])
    func expectBalanceWithAnAccountIsCheckedWhenLoaded(step: String, message: String) throws {
        do {
            _ = try load(#"{"steps": [\#(step)]}"#)
            Issue.record("loaded \(step)")
        } catch {
            #expect("\(error.path): \(error.expected)".hasPrefix(message), "\(error.path): \(error.expected)")
        }
    }
}
