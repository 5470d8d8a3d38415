// Generic checks and the one-field-per-response order: D24's Cashouts docs (docs.d24.com),
// "Cashout Creation Endpoint" (required fields, max lengths) and "API Codes" (518, 526, 303); the D24
// guide, "Codes" (validation message format), and Behaviour and choices (notification_url optional).

@testable import SandboxD24
import Testing

@Suite("Generic rules and field order")
struct GenericRulesTests {
    @Test("Every country's fixture is valid", arguments: Fixtures.all)
    func fixturesAreValid(country: String, fields: D24CreateFields) {
        #expect(D24FieldValidator.firstError(in: fields) == nil, "\(country)")
    }

    @Test("Two bad fields: the earlier one in the documented order is reported")
    func order() {
        var fields = Fixtures.brazil
        fields.bankAccount = "x"
        fields.beneficiaryName = nil
        #expect(D24FieldValidator.firstError(in: fields)
            == invalid("beneficiaryName: Invalid or missing Beneficiary name"))
        fields.email = "not-an-email"
        fields.documentID = "01716001341"
        #expect(D24FieldValidator.firstError(in: fields)
            == invalid("documentId: Invalid or missing Document ID"))
        fields.amount = "0"
        #expect(D24FieldValidator.firstError(in: fields) == invalid("amount: Invalid or missing Amount"))
        fields.externalID = nil
        #expect(D24FieldValidator.firstError(in: fields)
            == invalid("externalId: Invalid or missing External ID"))
    }

    @Test("Amount comes before currency, currency before document_id")
    func amountBeforeCurrency() {
        var fields = Fixtures.brazil
        fields.currency = "EUR"
        fields.documentID = nil
        #expect(D24FieldValidator.firstError(in: fields) == .invalidCurrency)
        fields.amount = "1.234"
        #expect(D24FieldValidator.firstError(in: fields) == invalid("amount: Invalid or missing Amount"))
    }

    @Test("allErrors lists every failing field in order")
    func allErrors() {
        var fields = Fixtures.brazil
        fields.email = "bad"
        fields.bankBranch = "abc"
        fields.externalID = ""
        let errors = D24FieldValidator.allErrors(in: fields)
        #expect(errors.map(\.field) == [.externalID, .email, .bankBranch])
        #expect(errors.first?.error == D24FieldValidator.firstError(in: fields))
    }

    static let required: [RuleCase] = [
        RuleCase("external_id absent", Fixtures.uruguay, expect: invalid("externalId: Invalid or missing External ID")) { $0.externalID = nil },
        RuleCase("external_id empty", Fixtures.uruguay, expect: invalid("externalId: Invalid or missing External ID")) { $0.externalID = "" },
        RuleCase("country absent", Fixtures.uruguay, expect: invalid("country: Invalid or missing Country")) { $0.country = nil },
        RuleCase("document_id absent", Fixtures.uruguay, expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = nil },
        RuleCase("beneficiary_name blank", Fixtures.uruguay,
                 expect: invalid("beneficiaryName: Invalid or missing Beneficiary name")) { $0.beneficiaryName = "   " },
        RuleCase("notification_url absent is fine", Fixtures.brazil, expect: nil) { $0.notificationURL = nil },
        RuleCase("currency absent defaults to local", Fixtures.brazil, expect: nil) { $0.currency = nil },
    ]

    @Test("Required fields of §4.1", arguments: required)
    func requiredFields(rule: RuleCase) {
        #expect(D24FieldValidator.firstError(in: rule.fields) == rule.expected)
    }

    static let lengths: [RuleCase] = [
        RuleCase("external_id 100 ok", Fixtures.uruguay, expect: nil) { $0.externalID = String(repeating: "e", count: 100) },
        RuleCase("external_id 101", Fixtures.uruguay,
                 expect: invalid("externalId: Invalid or missing External ID")) { $0.externalID = String(repeating: "e", count: 101) },
        RuleCase("document_id 41", Fixtures.uruguay,
                 expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = String(repeating: "1", count: 41) },
        RuleCase("document_type 16", Fixtures.uruguay,
                 expect: invalid("documentType: Invalid or missing Document type")) { $0.documentType = String(repeating: "T", count: 16) },
        RuleCase("beneficiary_id 101", Fixtures.uruguay,
                 expect: invalid("beneficiaryId: Invalid or missing Beneficiary ID")) { $0.beneficiaryID = String(repeating: "b", count: 101) },
        RuleCase("beneficiary_name 100 accented ok", Fixtures.uruguay, expect: nil) { $0.beneficiaryName = String(repeating: "é", count: 100) },
        RuleCase("beneficiary_name 101", Fixtures.uruguay,
                 expect: invalid("beneficiaryName: Invalid or missing Beneficiary name")) { $0.beneficiaryName = String(repeating: "n", count: 101) },
        RuleCase("beneficiary_lastname 101", Fixtures.uruguay,
                 expect: invalid("beneficiaryLastname: Invalid or missing Beneficiary "
                                 + "lastname")) { $0.beneficiaryLastname = String(repeating: "n", count: 101) },
        RuleCase("email 101", Fixtures.uruguay,
                 expect: invalid("email: Invalid or missing Email")) { $0.email = String(repeating: "a", count: 89) + "@example.com" },
        RuleCase("phone 21", Fixtures.uruguay, expect: invalid("phone: Invalid or missing Phone")) { $0.phone = "+598 9 123 4567      " },
        RuleCase("bank_account 31", Fixtures.uruguay,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = String(repeating: "1", count: 31) },
        RuleCase("bank_branch 16", Fixtures.uruguay,
                 expect: invalid("bankBranch: Invalid or missing Bank branch")) { $0.bankBranch = String(repeating: "1", count: 16) },
        RuleCase("account_type 2", Fixtures.uruguay, expect: invalid("accountType: Invalid or missing Account type")) { $0.accountType = "CC" },
        RuleCase("address 256", Fixtures.uruguay,
                 expect: invalid("address: Invalid or missing Address")) { $0.address = String(repeating: "a", count: 256) },
        RuleCase("address 255 ok", Fixtures.uruguay, expect: nil) { $0.address = String(repeating: "a", count: 255) },
        RuleCase("city 101", Fixtures.uruguay, expect: invalid("city: Invalid or missing City")) { $0.city = String(repeating: "c", count: 101) },
        RuleCase("postal_code 21", Fixtures.uruguay,
                 expect: invalid("postalCode: Invalid or missing Postal code")) { $0.postalCode = String(repeating: "1", count: 21) },
        RuleCase("comments 201", Fixtures.uruguay,
                 expect: invalid("comments: Invalid or missing Comments")) { $0.comments = String(repeating: "c", count: 201) },
        RuleCase("comments 200 ok", Fixtures.uruguay, expect: nil) { $0.comments = String(repeating: "c", count: 200) },
        RuleCase("notification_url too long", Fixtures.uruguay,
                 expect: invalid("notificationUrl: Invalid or missing Notification "
                                 + "URL")) { $0.notificationURL = "https://example.com/" + String(repeating: "p", count: 2029) },
    ]

    @Test("Max lengths of §4.1", arguments: lengths)
    func maxLengths(rule: RuleCase) {
        #expect(D24FieldValidator.firstError(in: rule.fields) == rule.expected)
    }

    static let countryAndCurrency: [RuleCase] = [
        RuleCase("unknown country", Fixtures.uruguay, expect: .countryNotAvailable) { $0.country = "ZZ" },
        RuleCase("country outside the table (US)", Fixtures.uruguay, expect: .countryNotAvailable) { $0.country = "US" },
        RuleCase("lowercase country", Fixtures.uruguay, expect: invalid("country: Invalid or missing Country")) { $0.country = "uy" },
        RuleCase("three-letter country", Fixtures.uruguay, expect: invalid("country: Invalid or missing Country")) { $0.country = "URY" },
        RuleCase("currency not accepted", Fixtures.brazil, expect: .invalidCurrency) { $0.currency = "ARS" },
        RuleCase("unknown currency", Fixtures.brazil, expect: .invalidCurrency) { $0.currency = "XYZ" },
        RuleCase("USD accepted in BR", Fixtures.brazil, expect: nil) { $0.currency = "USD" },
        RuleCase("USD refused in BO (BOB only)", Fixtures.uruguay, expect: .invalidCurrency) { $0.country = "BO"; $0.currency = "USD" },
        RuleCase("lowercase currency", Fixtures.brazil, expect: invalid("currency: Invalid or missing Currency")) { $0.currency = "brl" },
        RuleCase("two-letter currency", Fixtures.brazil, expect: invalid("currency: Invalid or missing Currency")) { $0.currency = "BR" },
        RuleCase("empty currency defaults", Fixtures.brazil, expect: nil) { $0.currency = "" },
    ]

    @Test("Country (518) and currency (526)", arguments: countryAndCurrency)
    func countryCurrency(rule: RuleCase) {
        #expect(D24FieldValidator.firstError(in: rule.fields) == rule.expected)
    }

    static let bankCodes: [RuleCase] = [
        RuleCase("unlisted BR bank", Fixtures.brazil, expect: .invalidBankCode) { $0.bankCode = "999" },
        RuleCase("BR code as a number", Fixtures.brazil, expect: nil) { $0.bankCode = "1" },
        RuleCase("non-numeric code", Fixtures.brazil, expect: invalid("bankCode: Invalid or missing Bank code")) { $0.bankCode = "BB" },
        RuleCase("seven digits", Fixtures.brazil, expect: invalid("bankCode: Invalid or missing Bank code")) { $0.bankCode = "0000001" },
        RuleCase("negative", Fixtures.brazil, expect: invalid("bankCode: Invalid or missing Bank code")) { $0.bankCode = "-1" },
        RuleCase("decimal", Fixtures.brazil, expect: invalid("bankCode: Invalid or missing Bank code")) { $0.bankCode = "1.0" },
        RuleCase("generic country: any code", Fixtures.uruguay, expect: nil) { $0.bankCode = "4242" },
    ]

    @Test("bank_code syntax (300) and list (303)", arguments: bankCodes)
    func bankCode(rule: RuleCase) {
        #expect(D24FieldValidator.firstError(in: rule.fields) == rule.expected)
    }
}
