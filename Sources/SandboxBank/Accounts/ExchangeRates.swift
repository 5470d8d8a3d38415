/// The sandbox's foreign-exchange table: units of each currency per US dollar, with four
/// decimals, as `GET /v3/exchange_rates` serves them. Fixed, so tests and scenarios are repeatable.
///
/// Conversions round half away from zero to the cent, in 128-bit arithmetic; a result beyond what
/// `Money` holds is clamped to its largest value (no balance covers it), never a crash.
package struct ExchangeRates: Sendable {
    /// Units of the currency per USD, in ten-thousandths (5.8829 BRL per USD is 58829).
    private(set) var perUSD: [String: Int64]

    /// The default table (rates of late 2026, rounded; USD is 1): Latin America's currencies, and
    /// the world's other common payout currencies.
    package static let sandbox = ExchangeRates(perUSD: [
        "USD": 10000, "ARS": 11_800_000, "BOB": 69100, "BRL": 58829, "CLP": 9_512_000, "COP": 41_250_000,
        "CRC": 5_080_000, "DOP": 612_000, "GTQ": 77000, "MXN": 183_500, "NIO": 368_000, "PEN": 37500,
        "PYG": 78_300_000, "SVC": 87500, "UYU": 403_000, "VES": 1_450_000,
        "EUR": 9200, "GBP": 7900, "CHF": 8800, "SEK": 105_000, "NOK": 108_000, "DKK": 68_600, "PLN": 40_000, "CZK": 232_000,
        "HUF": 3_650_000, "RON": 45_800, "CAD": 13_900, "AUD": 15_400, "NZD": 16_800, "JPY": 1_500_000, "CNY": 72_000,
        "HKD": 77_800, "SGD": 13_400, "INR": 840_000, "IDR": 158_000_000, "PHP": 580_000, "THB": 350_000, "MYR": 44_500,
        "KRW": 13_800_000, "AED": 36_730, "SAR": 37_500, "ILS": 37_000, "TRY": 345_000, "ZAR": 180_000, "NGN": 16_000_000,
        "KES": 1_290_000, "EGP": 490_000, "KWD": 3070, "BHD": 3770, "JOD": 7090, "OMR": 3850,
    ])

    /// A table from raw rates.
    init(perUSD: [String: Int64]) {
        self.perUSD = perUSD
    }

    /// The rate as decimal text, e.g. `5.8829`, trailing zeros dropped.
    package func rateText(_ currency: String) -> String? {
        perUSD[currency].map { Self.decimalText(Int128($0), scale: 4) }
    }

    /// `amount` (in `currency`) in USD, or nil for a currency without a rate.
    func toUSD(_ amount: Money, from currency: String) -> Money? {
        guard let rate = perUSD[currency] else { return nil }
        return Money(hundredths: Self.divideRounding(Int128(amount.hundredths) * 10000, by: Int128(rate)))
    }

    /// `amount` USD in `currency`, or nil for a currency without a rate.
    func fromUSD(_ amount: Money, to currency: String) -> Money? {
        guard let rate = perUSD[currency] else { return nil }
        return Money(hundredths: Self.divideRounding(Int128(amount.hundredths) * Int128(rate), by: 10000))
    }

    /// The exact product of a USD amount and the rate, as decimal text (`10` × `5.8829` = `58.829`).
    package func convertedText(_ usd: Money, to currency: String) -> String? {
        guard let rate = perUSD[currency] else { return nil }
        return Self.decimalText(Int128(usd.hundredths) * Int128(rate), scale: 6)
    }

    /// `value / 10^scale` as the shortest exact decimal text.
    static func decimalText(_ value: Int128, scale: Int) -> String {
        var divisor: UInt128 = 1
        for _ in 0 ..< scale { divisor *= 10 }
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        let whole = magnitude / divisor
        var fraction = String(magnitude % divisor)
        fraction = String(repeating: "0", count: scale - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    private static func divideRounding(_ numerator: Int128, by denominator: Int128) -> Int64 {
        let quotient = numerator / denominator
        let remainder = numerator % denominator
        let roundAway = remainder.magnitude * 2 >= denominator.magnitude
        return Int64(clamping: quotient + (roundAway ? (numerator < 0 ? -1 : 1) : 0))
    }
}
