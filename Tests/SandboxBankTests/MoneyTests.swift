import Testing
@testable import SandboxBank

@Suite struct MoneyTests {
    @Test(arguments: [("100", 10000), ("100.5", 10050), ("100.50", 10050), ("0.01", 1), ("-2.30", -230), ("0", 0)])
    func parsesUpToTwoDecimals(text: String, hundredths: Int64) {
        #expect(Money(text)?.hundredths == hundredths)
    }

    @Test(arguments: ["1.234", "1e3", "", ".5", "5.", "1,5", "abc", "--1", "1.2.3", "999999999999999"])
    func refusesAnythingElse(text: String) {
        #expect(Money(text) == nil)
    }

    @Test func printsTwoDecimals() {
        #expect(Money(hundredths: 5).description == "0.05")
        #expect(Money(hundredths: -123456).description == "-1234.56")
        #expect(Money("1000000")!.description == "1000000.00")
    }

    @Test func convertsThroughTheRateTableRoundingHalfAwayFromZero() {
        let rates = ExchangeRates.sandbox
        #expect(rates.rateText("BRL") == "5.8829")
        #expect(rates.toUSD(Money("100")!, from: "BRL") == Money("17.00"))   // 100 / 5.8829 = 16.998...
        #expect(rates.fromUSD(Money("10")!, to: "BRL") == Money("58.83"))    // 58.829
        #expect(rates.convertedText(Money("10")!, to: "BRL") == "58.829")
        #expect(rates.convertedText(Money("1")!, to: "USD") == "1")
        #expect(rates.toUSD(Money("1")!, from: "XXX") == nil)
    }
}
