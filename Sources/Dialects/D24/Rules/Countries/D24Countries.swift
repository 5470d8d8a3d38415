// Countries, currencies and bank lists: D24's Cashouts docs (docs.d24.com), "Countries Specifications" (the "Countries
// and currencies" list) and "Cashout Bank Codes" (/v3/banks); the Behaviour and choices guide (countries).

/// The sandbox's country data: accepted currencies, bank lists and which countries get the
/// full per-country validation.
///
/// ```swift
/// D24Countries.currencies(of: "BR")        // ["BRL", "USD"]
/// D24Countries.banks(of: "BR")?.first      // (code: 1, name: "Banco do Brasil")
/// D24Countries.hasFullValidation("UY")     // false
/// ```
enum D24Countries {
    /// ISO country -> accepted currencies, local first. Exactly D24's list, read
    /// literally: a country listed with a single currency accepts only that one.
    static let currencyTable: [String: [String]] = [
        "AR": ["ARS", "USD"], "BR": ["BRL", "USD"], "CL": ["CLP", "USD"],
        "CO": ["COP", "USD"], "MX": ["MXN", "USD"], "PE": ["PEN", "USD"],
        "UY": ["UYU", "USD"], "EC": ["USD"], "PA": ["USD"], "BO": ["BOB"],
        "PY": ["PYG"], "CR": ["CRC"], "DO": ["DOP"], "GT": ["GTQ"], "SV": ["SVC"],
        "NI": ["NIO"], "VE": ["VES"],
    ]

    /// Every country of the currency table, sorted.
    static var allCountries: [String] { currencyTable.keys.sorted() }

    /// ISO country -> accepted currencies (local first, then USD where accepted); `nil` for a
    /// country outside the currency table (the API answers 518 for those).
    static func currencies(of country: String) -> [String]? {
        currencyTable[country]
    }

    /// The currency used when a request omits `currency`: the country's first (local) one.
    static func defaultCurrency(of country: String) -> String? {
        currencyTable[country]?.first
    }

    /// Whether full per-country validation applies (BR, MX, AR, CL, CO, PE, EC); the other
    /// countries of the currency table get the generic checks only.
    static func hasFullValidation(_ country: String) -> Bool {
        fullValidationCountries.contains(country)
    }

    static let fullValidationCountries: Set<String> = ["BR", "MX", "AR", "CL", "CO", "PE", "EC"]

    /// The bank list `/v3/banks` serves and `bank_code` is validated against, as
    /// `(code, name)` in ascending code order.
    ///
    /// BR, MX, AR, CL, CO, PE and EC have realistic lists (D24's pages' plus well-known banks
    /// with their national codes). The other currency-table countries return an empty list:
    /// D24's pages have no data for them, so their `bank_code` is not checked against a list
    /// (any code of up to 6 digits passes). `nil` for countries outside the currency table.
    static func banks(of country: String) -> [(code: Int, name: String)]? {
        bankEntries(of: country)?.map { (code: $0.code, name: $0.name) }
    }

    /// The bank list of `country` as ``D24Bank`` values (see ``banks(of:)``).
    static func bankEntries(of country: String) -> [D24Bank]? {
        guard currencyTable[country] != nil else { return nil }
        return bankTable[country] ?? []
    }

    /// The name of bank `code` in `country`, or `nil` when it is not listed.
    static func bankName(code: Int, in country: String) -> String? {
        bankIndex[country]?[code]
    }

    /// Whether `country` validates `bank_code` against a non-empty list.
    static func hasBankList(_ country: String) -> Bool {
        bankIndex[country] != nil
    }

    private static let bankTable: [String: [D24Bank]] = [
        "BR": brazilBanks, "MX": mexicoBanks, "AR": argentinaBanks, "CL": chileBanks,
        "CO": colombiaBanks, "PE": peruBanks, "EC": ecuadorBanks,
    ]

    private static let bankIndex: [String: [Int: String]] = bankTable.mapValues { banks in
        Dictionary(banks.map { ($0.code, $0.name) }, uniquingKeysWith: { first, _ in first })
    }
}
