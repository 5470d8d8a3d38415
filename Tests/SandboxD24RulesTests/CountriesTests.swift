// Country data: D24's Cashouts docs (docs.d24.com), "Countries Specifications" (currency list), "Cashout Bank Codes"
// (/v3/banks), and the Behaviour and choices guide (full validation for BR, MX, AR, CL, CO, PE, EC).

@testable import SandboxD24
import Testing

@Suite("Countries")
struct CountriesTests {
    @Test("Currencies of D24's list")
    func currencies() {
        let expected: [String: [String]] = [
            "AR": ["ARS", "USD"], "BR": ["BRL", "USD"], "CL": ["CLP", "USD"], "CO": ["COP", "USD"],
            "MX": ["MXN", "USD"], "PE": ["PEN", "USD"], "UY": ["UYU", "USD"], "EC": ["USD"], "PA": ["USD"],
            "BO": ["BOB"], "PY": ["PYG"], "CR": ["CRC"], "DO": ["DOP"], "GT": ["GTQ"], "SV": ["SVC"],
            "NI": ["NIO"], "VE": ["VES"],
        ]
        for (country, list) in expected {
            #expect(D24Countries.currencies(of: country) == list, "\(country)")
            #expect(D24Countries.defaultCurrency(of: country) == list.first, "\(country)")
        }
        #expect(D24Countries.allCountries == expected.keys.sorted())
        #expect(D24Countries.currencies(of: "US") == nil)
        #expect(D24Countries.currencies(of: "br") == nil)
    }

    @Test("Full validation only for BR, MX, AR, CL, CO, PE, EC")
    func fullValidation() {
        let full = D24Countries.allCountries.filter(D24Countries.hasFullValidation)
        #expect(full == ["AR", "BR", "CL", "CO", "EC", "MX", "PE"])
        #expect(!D24Countries.hasFullValidation("US"))
    }

    @Test("Bank lists: realistic for full countries, empty for the rest, nil outside the table")
    func bankLists() throws {
        for country in ["BR", "MX", "AR", "CL", "CO", "PE", "EC"] {
            let banks = try #require(D24Countries.banks(of: country), "\(country)")
            #expect(banks.count >= 15, "\(country)")
            let codes = banks.map(\.code)
            #expect(codes == codes.sorted(), "\(country) sorted")
            #expect(Set(codes).count == codes.count, "\(country) unique")
            #expect(banks.allSatisfy { !$0.name.isEmpty && $0.code >= 0 && $0.code <= 999_999 })
        }
        #expect(D24Countries.banks(of: "UY")?.isEmpty == true)
        #expect(D24Countries.banks(of: "PA")?.isEmpty == true)
        #expect(D24Countries.banks(of: "US") == nil)
    }

    @Test("Well-known codes are listed", arguments: [
        ("BR", [1, 33, 41, 77, 104, 237, 260, 323, 336, 341, 422, 748, 756, 10000, 10001, 10002]),
        ("MX", [2, 12, 14, 21, 30, 36, 44, 58, 72, 127, 137, 646]),
        ("AR", [0, 7, 11, 14, 15, 17, 72, 285, 998]),
        ("CL", [1, 9, 12, 14, 16, 27, 28, 31, 37, 39, 46, 49, 51, 52, 53, 54, 55, 56, 57, 116, 504, 507]),
        ("CO", [1, 2, 6, 7, 13, 19, 23, 51, 52, 1507, 1551, 10003, 10006]),
        ("PE", [2, 3, 9, 11, 18, 901, 902]),
        ("EC", [1, 10, 17, 24, 25, 29, 30, 32, 34, 35, 36, 37, 39, 42, 43, 59, 60, 61, 65, 66, 201]),
    ])
    func wellKnown(country: String, codes: [Int]) {
        for code in codes {
            #expect(D24Countries.bankName(code: code, in: country) != nil, "\(country) \(code)")
        }
    }

    @Test("Names of a few codes")
    func names() {
        #expect(D24Countries.bankName(code: 1, in: "BR") == "Banco do Brasil")
        #expect(D24Countries.bankName(code: 1507, in: "CO") == "Nequi")
        #expect(D24Countries.bankName(code: 901, in: "PE") == "Yape")
        #expect(D24Countries.bankName(code: 998, in: "AR") == "iCash")
        #expect(D24Countries.bankName(code: 1, in: "UY") == nil)
        #expect(D24Countries.bankEntries(of: "BR")?.first == D24Bank(1, "Banco do Brasil"))
    }
}
