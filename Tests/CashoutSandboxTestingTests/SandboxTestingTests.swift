import CashoutSandboxTesting
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The testing library as a Swift team uses it: a real signed create over HTTP, then the clock,
/// the typed cashout, its webhooks and the ledger.
struct SandboxTestingTests {
    static let brazilian: [String: any Sendable] = [
        "country": "BR", "currency": "BRL", "amount": "100.00", "document_id": "01716001340", "document_type": "CPF",
        "beneficiary_name": "LATE REJECT 826", "beneficiary_lastname": "Silva", "bank_code": "001",
        "bank_account": "3423422-7", "bank_branch": "1234", "account_type": "C",
    ]

    @Test func aLateRejectionIsSeenThroughTheTypedAPI() async throws {
        let sandbox = try await Sandbox.start()
        defer { sandbox.stop() }
        #expect(sandbox.clock.mode == .manual && sandbox.clock.now == VirtualTime(iso8601: "2026-01-05T09:00:00Z"))
        var fields = Self.brazilian
        fields["external_id"] = "order-1"
        fields["notification_url"] = "\(sandbox.baseURL)/sandbox/sink/shop"
        let (data, response) = try await URLSession.shared.data(for: try sandbox.signedRequest("POST", "/v3/cashout", fields))
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
        #expect(sandbox.cashout(externalID: "order-1") != nil)  // steps due at once may already have run

        #expect(await sandbox.advance(by: .days(2)) == 6)  // three bank steps, three deliveries
        let cashout = try #require(sandbox.cashout(externalID: "order-1"))
        #expect(cashout.status == .rejected)
        #expect(cashout.returnedAfterCompletion)
        #expect(cashout.rejectionCode == "826")
        #expect(cashout.history == [.pending, .delivered, .completed, .rejected])
        let webhooks = sandbox.webhooks(to: "order-1")
        #expect(webhooks.map(\.status) == [.delivered, .completed, .rejected])
        #expect(webhooks.allSatisfy { $0.delivered && $0.form["external_id"] == "order-1" })
        #expect(webhooks.first?.form["cashout_id"] == String(cashout.id))
        // D24 signs inside the form (control), with no header of its own.
        #expect(webhooks.allSatisfy { $0.contentType == "application/x-www-form-urlencoded" && $0.headers.isEmpty })
        #expect(webhooks.first?.body.contains("external_id=order-1") == true)
        #expect(sandbox.ledger().map(\.kind) == [.debit, .refund])
        #expect(sandbox.balance() == Money("1000000.00"))
        #expect(sandbox.cashouts(status: .rejected).map(\.externalID) == ["order-1"])
    }

    @Test func aScenarioFileDecidesTheBank() async throws {
        let sandbox = try await Sandbox.start(scenario: .json("""
            {"merchants": [{"login": "acme", "pass": "acme_pass", "secret": "acme_secret", "balance": {"USD": "50.00"}}],
             "bank": {"default": [{"after": "1h", "status": "REJECTED", "rejection_code": 801}]}}
            """))
        defer { sandbox.stop() }
        var fields = Self.brazilian
        fields["external_id"] = "a-1"
        fields["beneficiary_name"] = "Ana"
        fields["amount"] = "50.00"
        fields["currency"] = "BRL"
        let (_, response) = try await URLSession.shared.data(for: try sandbox.signedRequest("POST", "/v3/cashout", fields, merchant: "acme"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        await sandbox.advance(by: .hours(1))
        #expect(sandbox.cashout(externalID: "a-1", merchant: "acme")?.status == .rejected)
        #expect(sandbox.cashout(externalID: "a-1", merchant: "acme")?.rejectionCode == "801")
        // The scenario is named after its file: scenario.json for JSON text.
        #expect(sandbox.cashout(externalID: "a-1", merchant: "acme")?.decidedBy.summary == #"the default timeline of scenario "scenario""#)
    }

    @Test func aBrokenScenarioSaysWhereAndWhy() async throws {
        let error = await #expect(throws: ScenarioLoadError.self) { try await Sandbox.start(scenario: .json(#"{"nmae": "x"}"#)) }
        #expect(error?.description == "scenario.json: nmae: unknown key (did you mean \"name\"? expected one of: $schema, name, description, "
                                      + "written_for, expect_failure, needs_app, seed, "
            + "clock, merchants, prism_merchants, users, bank, faults, webhooks, app, explore, report, steps)")
    }

    @Test func anUnknownMerchantIsAnErrorNotTheDefaultOne() async throws {
        let sandbox = try await Sandbox.start()
        defer { sandbox.stop() }
        let unsigned = #expect(throws: UnknownMerchant.self) { try sandbox.signedRequest("POST", "/v3/cashout", [:], merchant: "acme") }
        #expect(unsigned?.description == #"no merchant "acme" in this sandbox"#)
        #expect(throws: UnknownMerchant.self) { try sandbox.signature(for: Array("{}".utf8), merchant: "acme") }
        #expect(sandbox.webhooks(to: "order-1", merchant: "acme").isEmpty)
        let request = try sandbox.signedRequest("GET", "/v3/banks?country=BR", [:])
        #expect(request.url?.absoluteString == "\(sandbox.baseURL)/v3/banks?country=BR")
    }

    @Test func signaturesMatchPythonsHMAC() {
        // python3 -c 'import hmac,hashlib; print(hmac.new(b"sandbox_secret", b"{}", hashlib.sha256).hexdigest())'
        #expect(Sandbox.signature(for: Array("{}".utf8), secret: "sandbox_secret")
            == "d4369d6381031869d43106b57cf0267d41aa5a225e3d29eceadda47cae52b3b2")
    }
}

/// The testing library's Mannco side: a token for the client under test, the user's balance,
/// the cashout and its emails.
struct ManncoTestingTests {
    @Test func aManncoCashoutIsSeenThroughTheTypedAPI() async throws {
        let sandbox = try await Sandbox.start()
        defer { sandbox.stop() }
        var request = URLRequest(url: sandbox.baseURL.appendingPathComponent("cashout/process"))
        request.httpMethod = "POST"
        request.setValue("Bearer \(sandbox.mannco.token())", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"amount":100000,"method":"tipalti","email":"late-fail@example.com"}"#.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
        #expect(sandbox.mannco.user()?.balanceCents == 900_000)
        await sandbox.advance(by: .days(3))
        let cashout = try #require(sandbox.mannco.cashouts().first)
        #expect(cashout.status == .rejected && cashout.returnedAfterCompletion)
        #expect(cashout.decidedBy.kind == .magicValue && cashout.decidedBy.timeline.rule == "LATE FAIL")
        #expect(cashout.decidedBy.summary == #"magic value "LATE FAIL" (bank.rules[1] of the built-in scenario "Mannco magic emails")"#)
        #expect(sandbox.mannco.user()?.balanceCents == 1_000_000)
        #expect(sandbox.mannco.emails().map(\.status) == ["pending", "processing", "completed", "failed"])
        #expect(sandbox.mannco.emails(of: "nobody").isEmpty)
        #expect(sandbox.mannco.user("nobody") == nil)
    }

    /// `verify` as WireMock's: the app's requests counted by matchers, and a failure that shows
    /// the near misses with their differences.
    @Test func verifyCountsTheAppsRequestsAndShowsNearMisses() async throws {
        let sandbox = try await Sandbox.start()
        defer { sandbox.stop() }
        for (id, amount) in [("order-1", "150.00"), ("order-2", "50.00"), ("order-3", "100")] {
            var fields = SandboxTestingTests.brazilian
            fields["external_id"] = id
            fields["amount"] = amount
            let (data, response) = try await URLSession.shared.data(for: try sandbox.signedRequest("POST", "/v3/cashout", fields))
            #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
        }
        try await sandbox.verify(.post("/v3/cashout", body: ["amount": .gte(100)]), count: .exactly(2))
        try await sandbox.verify(.post("/v3/cashout", body: ["country": "BR", "external_id": .prefix("order-")]), count: .exactly(3))
        try await sandbox.verify(sequence: [.post("/v3/cashout", body: ["external_id": "order-1"]), .post("/v3/cashout", body: ["amount": 100])])
        do {
            try await sandbox.verify(.post("/v3/cashout", body: ["amount": .gte(1000)]))
            Issue.record("verified a request that never came")
        } catch let failure as RequestVerificationFailure {
            #expect(failure.description == """
                expected at least 1 request matching POST /v3/cashout with body.amount >= 1000.00, got 0
                near misses, closest first:
                  request 3 POST /v3/cashout: body.amount: expected >= 1000.00, got "100"
                  request 2 POST /v3/cashout: body.amount: expected >= 1000.00, got "50.00"
                  request 1 POST /v3/cashout: body.amount: expected >= 1000.00, got "150.00"
                """)
            #expect(failure.answer["count"] == 0)
        }
    }
}
