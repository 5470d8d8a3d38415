@testable import CashoutSandbox
import Foundation
@testable import SandboxD24
@testable import SandboxWire
import TestHelpers
@testable import SandboxSupport
import Testing

// The D24 guide's "Per-country create fields" against the sandbox's own rules: each example is
// D24Example's and a started sandbox accepts it; the required fields, currencies and document types
// are what the validator enforces; the check-digit column says "none" exactly where changing a
// digit of the document or the account goes unnoticed.

@Suite struct CountryExamplesTests {
    static let countries = ["BR", "MX", "AR", "CL", "CO", "PE", "EC"]
    /// Fields every create needs, which the table leaves out of each row.
    static let common: Set = ["external_id", "country", "amount", "document_id", "beneficiary_name"]

    /// The section's two tables: the rules by country, and the examples by country.
    static let guide: (rules: [String: [String]], examples: [String: String]) = {
        var rules: [String: [String]] = [:], examples: [String: String] = [:]
        for cells in Guide.rows(in: "D24", under: "Per-country create fields") where countries.contains(cells[0]) {
            if cells.count == 2 { examples[cells[0]] = cells[1] } else { rules[cells[0]] = cells }
        }
        return (rules, examples)
    }()

    static func example(_ country: String) throws -> D24Example.Fields {
        try #require(D24Example.createFields(country: country))
    }

    /// The fields as the validator takes them.
    static func fields(_ example: D24Example.Fields) -> D24CreateFields {
        let value = Dictionary(uniqueKeysWithValues: example.map { ($0.name, $0.value) })
        return D24CreateFields(
            externalID: "x-1", country: value["country"], currency: value["currency"], amount: value["amount"],
            documentID: value["document_id"], documentType: value["document_type"], beneficiaryID: value["beneficiary_id"],
            beneficiaryName: value["beneficiary_name"], beneficiaryLastname: value["beneficiary_lastname"], email: value["email"],
            phone: value["phone"], bankCode: value["bank_code"], bankAccount: value["bank_account"], bankBranch: value["bank_branch"],
            accountType: value["account_type"], address: value["address"], city: value["city"], postalCode: value["postal_code"],
            beneficiaryBirthdate: value["beneficiary_birthdate"])
    }

    @Test func theTablesHaveARowForEachCountry() {
        #expect(Self.guide.rules.keys.sorted() == Self.countries.sorted())
        #expect(Self.guide.examples.keys.sorted() == Self.countries.sorted())
        #expect(D24Example.byCountry.map(\.country) == Self.countries)
    }

    @Test(arguments: countries)
    func theGuidesExampleIsD24Example(country: String) throws {
        let cell = try #require(Self.guide.examples[country])
        let shown = try JSON.parse(Array(try #require(Guide.code(cell).first).utf8))
        let example = try Self.example(country)
        #expect(shown == JSON.object(Dictionary(uniqueKeysWithValues: example.map { ($0.name, JSON.string($0.value)) })))
        #expect(shown.serializedString() == cell.trimmingCharacters(in: CharacterSet(charactersIn: "`")), "keys in the order the sandbox writes them")
    }

    @Test(arguments: countries)
    func aStartedSandboxAcceptsTheExample(country: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        var body: [String: JSON] = ["login": "sandbox_login", "pass": "sandbox_pass", "external_id": .string("ex-\(country)")]
        for (name, value) in try Self.example(country) { body[name] = .string(value) }
        let response = try sandbox.create(JSON.object(body).serializedString())
        #expect(response.bodyText == #"{"cashout_id":"1000001"}"#)
    }

    @Test(arguments: countries)
    func theRequiredFieldsAreThoseTheRulesRefuseWithout(country: String) throws {
        let example = try Self.example(country)
        #expect(D24FieldValidator.firstError(in: Self.fields(example)) == nil)
        let required = ["external_id"] + example.map(\.name).filter { name in
            D24FieldValidator.firstError(in: Self.fields(example.filter { $0.name != name })) != nil
        }
        let row = try #require(Self.guide.rules[country])
        let shown = Guide.code(row[2]).filter { name in D24Field.allCases.contains { $0.jsonKey == name } }
        #expect(Set(shown) == Set(required).subtracting(Self.common), "column 3 of \(country)'s row")
        #expect(Self.common.isSubset(of: required))
    }

    @Test(arguments: countries)
    func theCurrenciesAndDocumentTypesAreTheRules(country: String) throws {
        let row = try #require(Self.guide.rules[country])
        #expect(row[1].components(separatedBy: ", ") == D24Countries.currencies(of: country))
        let types = try #require(D24Countries.documentTypes(of: country))
        #expect(Guide.code(row[3]).filter { $0 == $0.uppercased() && !$0.contains(" ") } == types, "column 4 of \(country)'s row")
    }

    /// Where the rules check digits, changing the last digit of the example's document or account
    /// is refused; the guide's column says which, and "none" where nothing is checked.
    @Test(arguments: countries)
    func theCheckDigitsColumnSaysWhatIsChecked(country: String) throws {
        let example = try Self.example(country)
        func refusedWithLastDigitChanged(_ name: String) -> Bool {
            let changed = example.map { field -> (name: String, value: String) in
                guard field.name == name, let last = field.value.last, let digit = last.wholeNumberValue else { return field }
                return (field.name, String(field.value.dropLast()) + String((digit + 1) % 10))
            }
            return D24FieldValidator.firstError(in: Self.fields(changed)) != nil
        }
        let checked = ["document_id", "bank_account"].filter(refusedWithLastDigitChanged)
        let expected: [String: [String]] = ["BR": ["document_id"], "MX": ["bank_account"], "AR": ["bank_account"], "PE": ["bank_account"]]
        #expect(checked == expected[country] ?? [])
        let column = try #require(Self.guide.rules[country])[5]
        #expect(column.hasPrefix("none") == checked.isEmpty, "column 6 of \(country)'s row: \(column)")
    }
}
