@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
import Testing

@Suite struct ExchangeRatesTests {
    /// Parses a 200 exchange-rate answer into (fx_rate, currency, converted_amount).
    func rate(_ sandbox: Sandbox, _ query: String,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> (fx: Decimal, currency: String, converted: Decimal) {
        let response = try sandbox.get("/v3/exchange_rates?\(query)")
        try #require(response.status == 200, "\(query): \(response.status) \(response.bodyText)", sourceLocation: sourceLocation)
        let json = try JSON.parse(response.body)
        #expect(Set(json.objectValue.map { Array($0.keys) } ?? []) == ["fx_rate", "currency", "converted_amount"],
                "\(response.bodyText)", sourceLocation: sourceLocation)
        let fxValue = try #require(json["fx_rate"]?.numberText.flatMap { Decimal(string: $0) }, "\(response.bodyText)",
                                   sourceLocation: sourceLocation)
        let convertedValue = try #require(json["converted_amount"]?.numberText.flatMap { Decimal(string: $0) },
                                          "\(response.bodyText)", sourceLocation: sourceLocation)
        let currency = try #require(json["currency"]?.stringValue, "\(response.bodyText)", sourceLocation: sourceLocation)
        return (fxValue, currency, convertedValue)
    }

    @Test func brazilTenUSD() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let response = try sandbox.get("/v3/exchange_rates?country=BR&amount=10")
        expectOK(response, #"{"converted_amount":58.829,"currency":"BRL","fx_rate":5.8829}"#)
        #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
    }

    @Test func amountDefaultsToOne() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectOK(try sandbox.get("/v3/exchange_rates?country=BR"), #"{"converted_amount":5.8829,"currency":"BRL","fx_rate":5.8829}"#)
        let r = try rate(sandbox, "country=BR&amount=1")
        #expect(r.converted == Decimal(string: "5.8829")!)
    }

    @Test func convertedAmountIsAmountTimesRate() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let r = try rate(sandbox, "country=BR&amount=2.5")
        #expect(r.fx == Decimal(string: "5.8829")!)
        #expect(r.converted == Decimal(string: "14.70725")!)
        #expect(r.currency == "BRL")
    }

    @Test func ecuadorIsUSD() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let r = try rate(sandbox, "country=EC&amount=10")
        #expect(r.currency == "USD")
        #expect(r.fx == 1)
        #expect(r.converted == 10)
    }

    @Test(arguments: [("MX", "MXN"), ("AR", "ARS"), ("CL", "CLP"), ("CO", "COP"), ("PE", "PEN"), ("UY", "UYU")])
    func otherCountriesConvertToTheirLocalCurrency(_ country: String, _ currency: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let one = try rate(sandbox, "country=\(country)")
        let ten = try rate(sandbox, "country=\(country)&amount=10")
        #expect(one.currency == currency)
        #expect(one.fx > 1)
        #expect(one.converted == one.fx)
        #expect(ten.fx == one.fx)
        #expect(ten.converted == one.fx * 10)
    }

    @Test func rateMatchesWhatCreateDebits() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let r = try rate(sandbox, "country=BR&amount=10")
        // 58.83 BRL is 10.00 USD at that rate (58.83 / 5.8829 = 10.00017).
        #expect(r.converted == Decimal(string: "58.829")!)
        _ = try sandbox.createOK(externalID: "fx-1", amount: "58.83", currency: "BRL")
        #expect(try sandbox.balance() == "999990.00")
    }

    @Test(arguments: [nil, "Bearer wrong", "Bearer sandbox_secret", "Basic sandbox_read_only", "sandbox_read_only"] as [String?])
    func wrongKeyIs401(_ authorization: String?) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let response = try sandbox.get("/v3/exchange_rates?country=BR&amount=10", authorization: authorization)
        #expect(response.status == 401)
        #expect(response.bodyText == readOnlyUnauthorized)
    }

    @Test(arguments: ["country=ZZ", "country=XX&amount=10", "amount=10", "country=", "country=BR&amount=abc", "country=BR&amount=-5",
                      "country=BR&amount=1e2x"])
    func unknownCountryOrBadAmountIs400WithAnEmptyBody(_ query: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let response = try sandbox.get("/v3/exchange_rates?\(query)")
        #expect(response.status == 400, "\(query): \(response.status) \(response.bodyText)")
        #expect(response.body.isEmpty, "\(query): \(response.bodyText)")
    }
}
