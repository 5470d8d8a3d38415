// The in-process test of the Testing your app guide, written as an integrator would, word for
// word (.ci/check-readme compares them). The scenario is the sandbox's own example: its
// bank reverses BR cashouts of 100 or more two days after they complete. `scenarios` beside
// Package.swift links to the repository's, so the path works from the repository and from here.

import CashoutSandboxTesting
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct LateReversalTests {
    @Test func aCompletedCashoutIsReversedTwoDaysLater() async throws {
        let sandbox = try await Sandbox.start(scenario: .file("scenarios/late-reversal-826.json"))  // port 0, manual clock
        defer { sandbox.stop() }

        // What the client under test sends to sandbox.baseURL, as the scenario's merchant "acme":
        let fields: [String: any Sendable] = [
            "external_id": "order-1", "country": "BR", "currency": "BRL", "amount": "100.00",
            "document_id": "01716001340", "document_type": "CPF", "beneficiary_name": "Ana",
            "beneficiary_lastname": "Silva", "bank_code": "001", "bank_account": "3423422-7", "bank_branch": "1234",
            "account_type": "C", "notification_url": "\(sandbox.baseURL)/sandbox/sink/shop",
        ]
        let request = try sandbox.signedRequest("POST", "/v3/cashout", fields, merchant: "acme")
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)

        await sandbox.advance(by: .days(3))  // every bank step and webhook due on the way, in time order
        #expect(sandbox.cashout(externalID: "order-1", merchant: "acme")?.status == .rejected)
        #expect(sandbox.webhooks(to: "order-1", merchant: "acme").count == 3)  // DELIVERED, COMPLETED, REJECTED
        #expect(sandbox.ledger(of: "acme").map(\.kind) == [.debit, .refund])
        #expect(sandbox.balance(of: "acme") == Money("5000.00"))
    }
}
