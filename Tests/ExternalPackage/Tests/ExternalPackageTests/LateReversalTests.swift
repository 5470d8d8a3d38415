import CashoutSandboxTesting
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// DESIGN.md's in-process test, written as an integrator would: the scenario file from the
/// sandbox's own examples (its bank reverses BR cashouts of 100 or more two days after they
/// complete), a signed create over HTTP, three days on the clock.
struct LateReversalTests {
    @Test func aCompletedCashoutIsReversedTwoDaysLater() async throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../../scenarios/late-reversal-826.json").standardized.path
        let sandbox = try await Sandbox.start(scenario: .file(file))
        defer { sandbox.stop() }

        let fields: [String: any Sendable] = [
            "external_id": "order-1", "country": "BR", "currency": "BRL", "amount": "100.00",
            "document_id": "01716001340", "document_type": "CPF", "beneficiary_name": "Ana",
            "beneficiary_lastname": "Silva", "bank_code": "001", "bank_account": "3423422-7", "bank_branch": "1234",
            "account_type": "C", "notification_url": "\(sandbox.baseURL)/sandbox/sink/shop",
        ]
        let merchant = "acme"
        let (_, response) = try await URLSession.shared.data(for: try sandbox.signedRequest("POST", "/v3/cashout", fields, merchant: merchant))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)

        await sandbox.advance(by: .days(3))
        #expect(sandbox.cashout(externalID: "order-1", merchant: merchant)?.status == .rejected)
        #expect(sandbox.webhooks(to: "order-1", merchant: merchant).count == 3)
    }
}
