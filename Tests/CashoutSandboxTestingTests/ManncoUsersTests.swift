import CashoutSandboxTesting
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Mannco's side of the testing library as a Swift team uses it: an authenticated cashout over HTTP, then the clock, the
/// typed cashout, the balance and the ledger; an id that is no Mannco user reads as nothing.
struct ManncoUsersTests {
    /// `POST /cashout/process` as the default user, with the library's `Authorization`: the answer.
    static func cashOut(_ sandbox: Sandbox, email: String) async throws -> (status: Int, body: [String: Any]) {
        var request = URLRequest(url: sandbox.baseURL.appendingPathComponent("cashout/process"))
        request.httpMethod = "POST"
        request.setValue(sandbox.mannco.authorization(), forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"amount":100000,"method":"tipalti","email":"\#(email)"}"#.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
    }

    @Test func aReturnedCashoutIsDebitedThenRefundedOnTheLedger() async throws {
        let sandbox = try await Sandbox.start()
        defer { sandbox.stop() }
        #expect(sandbox.mannco.balance() == Money("10000.00"))
        let (status, body) = try await Self.cashOut(sandbox, email: "late-fail@example.com")
        #expect(status == 200, "\(body)")
        #expect(sandbox.mannco.balance() == Money("9000.00"))
        #expect(sandbox.mannco.user()?.balanceCents == 900_000, "the balance in cents, as GET /user/balance answers it")
        let cashout = try #require(sandbox.mannco.cashouts().first)
        #expect(sandbox.mannco.cashout(id: cashout.id)?.id == cashout.id)
        #expect(sandbox.mannco.ledger().map(\.kind) == [.debit])
        await sandbox.advance(by: .days(3))
        #expect(sandbox.mannco.cashout(id: cashout.id)?.returnedAfterCompletion == true)
        #expect(sandbox.mannco.ledger().map(\.kind) == [.debit, .refund])
        #expect(sandbox.mannco.balance() == Money("10000.00"))
    }

    /// The header is the one `POST /user/login` would give: `GET /user/balance` takes it.
    @Test func theAuthorizationIsAcceptedByTheAPI() async throws {
        let sandbox = try await Sandbox.start()
        defer { sandbox.stop() }
        #expect(sandbox.mannco.authorization() == "Bearer \(sandbox.mannco.token())")
        var request = URLRequest(url: sandbox.baseURL.appendingPathComponent("user/balance"))
        request.setValue(sandbox.mannco.authorization(), forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
        #expect(String(decoding: data, as: UTF8.self).contains(#""balance":1000000"#))
    }

    @Test func anIdThatIsNoManncoUserReadsAsNothing() async throws {
        let sandbox = try await Sandbox.start()
        defer { sandbox.stop() }
        let (status, _) = try await Self.cashOut(sandbox, email: "someone@example.com")
        #expect(status == 200)
        let id = try #require(sandbox.mannco.cashouts().first?.id)
        for nobody in ["nobody", Sandbox.defaultMerchantLogin] {  // none, and a D24 merchant
            #expect(sandbox.mannco.balance(of: nobody) == nil)
            #expect(sandbox.mannco.ledger(of: nobody).isEmpty)
            #expect(sandbox.mannco.cashouts(of: nobody).isEmpty)
            #expect(sandbox.mannco.cashout(id: id, of: nobody) == nil)
        }
    }
}
