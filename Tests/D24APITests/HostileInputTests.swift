@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
import TestHelpers
import Testing

/// Inputs at the edges of the number ranges, and addresses in unusual forms: answered, never fatal.
@Suite struct HostileInputTests {
    @Test func hugeExchangeRateAmountsAreComputedExactly() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectOK(try sandbox.get("/v3/exchange_rates?country=CO&amount=3000000000"),
                 #"{"converted_amount":12375000000000,"currency":"COP","fx_rate":4125}"#)
        expectOK(try sandbox.get("/v3/exchange_rates?country=CO&amount=999999999999999.99"),
                 #"{"converted_amount":4124999999999999958.75,"currency":"COP","fx_rate":4125}"#)
    }

    @Test func hugeAmountsAreRefusedAsUnaffordable() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.create(createBody(externalID: "big", amount: "999999999999999.99", currency: "USD")),
                    514, "Insufficient funds")
        expectError(try sandbox.create(createBody(externalID: "big2", amount: "999999999999999.99", currency: "BRL")),
                    514, "Insufficient funds")
        expectError(try sandbox.create(createBody(externalID: "big3", amount: "9999999999999999", currency: "USD")),
                    300, "amount: Invalid or missing Amount")
        #expect(try TestHTTP.send(method: "GET", url: sandbox.base + "/sandbox/health").status == 200)
    }

    @Test func anIPv4ClientOfADualStackServerMatchesAnIPv4AllowList() throws {
        var configuration = Sandbox.Configuration()
        configuration.server.host = "::"
        configuration.clockMode = .manual
        configuration.accounts = [merchant(allowedIPs: ["127.0.0.1"])]
        let sandbox = try Sandbox.launch(configuration)
        defer { sandbox.stop() }
        let url = "http://127.0.0.1:\(sandbox.addresses[0].port)/v3/cashout"
        let body = createBody(externalID: "v4")
        let response = try TestHTTP.send(method: "POST", url: url, headers: ["Payload-Signature": sign(body)], body: Array(body.utf8))
        #expect(response.status == 200)
    }
}
