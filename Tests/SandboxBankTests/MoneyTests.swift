import Testing
@testable import SandboxBank

@Suite struct MoneyTests {
    @Test(arguments: [("100", 10000), ("100.5", 10050), ("100.50", 10050), ("0.01", 1), ("-2.30", -230), ("0", 0), ("10.500", 1050),
                      ("999999999999999.99", 99_999_999_999_999_999), ("-0", 0), ("007.10000", 710), ("000000000000000.00", 0)])
    func parsesUpToTwoDecimals(text: String, hundredths: Int64) {
        #expect(Money(text)?.hundredths == hundredths)
    }

    @Test(arguments: ["1.234", "1.2301", "1e3", "", ".5", "5.", "1,5", "abc", "--1", "1.2.3", "9999999999999999", "-", "-.5", "+1", "1-",
                      " 1", "1 ", "1.5\u{301}", "1.\u{301}5", "\u{661}", "\u{FF11}", "0000000000000000", "1..5"])
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

    @Test func hugeConversionsClampInsteadOfTrapping() {
        let rates = ExchangeRates.sandbox
        let huge = Money("999999999999999.99")!
        #expect(rates.fromUSD(huge, to: "PYG") == Money(hundredths: .max))
        #expect(rates.convertedText(huge, to: "COP") == "4124999999999999958.75")
        #expect(rates.convertedText(Money("3000000000")!, to: "COP") == "12375000000000")
    }

    @Test func sumsSaturateInsteadOfTrapping() {
        let (top, bottom) = (Money(hundredths: .max), Money(hundredths: -.max))
        #expect(top + Money("0.01")! == top)
        #expect(bottom - Money("0.01")! == bottom)
        #expect(-Money(hundredths: .min) == top)
        #expect(top - top == .zero)
        #expect(Money("1.50")! - Money("2.25")! == Money("-0.75")!)
        var balance = Money("999999999999999.99")!
        for _ in 0 ..< 100 { balance += Money("999999999999999.99")! }
        #expect(balance == top)
    }

    @Test func hugeDurationsAreRefusedInsteadOfTrapping() {
        #expect(DurationText.parse("999999999999d") == nil)
        #expect(DurationText.parse("36600d") == .milliseconds(36600 * 86_400_000))
        #expect(DurationText.parse("36601d") == nil)
        #expect(DurationText.parse("1h5m") == .seconds(3900))
    }

    /// Durations are read byte by byte: ASCII digits and the five units, nothing else.
    @Test func durationsAreDigitsAndUnitsAndNothingElse() {
        #expect(DurationText.parse("1h5m30s500ms") == .milliseconds(3_930_500))
        #expect(DurationText.parse("0s") == .zero)
        #expect(DurationText.parse("000000000012s") == .seconds(12))
        for refused in ["", "5", "ms", "1S", "1 s", "1s ", "\u{0661}s", "1\u{00B5}s", "1ss", "1sec", "0000000000012s", "-1s", "1.5s"] {
            #expect(DurationText.parse(refused) == nil, "\(refused)")
        }
        for text in ["30s", "1h5m", "2d", "500ms", "1d2h3m4s5ms"] {
            #expect(DurationText.parse(text).map(DurationText.format) == text)
        }
    }
}
