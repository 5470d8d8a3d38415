// Ecuador (D24's Cashouts docs (docs.d24.com), "Countries validations" 🇪🇨: USD only, bank_code required, account 5-20 digits,
// account type C/S) and a generic-only country (the Behaviour and choices guide: UY and the rest).

@testable import SandboxD24
import Testing

@Suite("Ecuador and generic countries")
struct EcuadorAndGenericTests {
    static let ec = Fixtures.ecuador
    static let uy = Fixtures.uruguay

    static let ecuador: [RuleCase] = [
        RuleCase("currency absent defaults to USD", ec, expect: nil) { $0.currency = nil },
        RuleCase("no local currency besides USD", ec, expect: .invalidCurrency) { $0.currency = "ECS" },
        RuleCase("bank_code missing", ec, expect: invalid("bankCode: Invalid or missing Bank code")) { $0.bankCode = nil },
        RuleCase("unlisted bank_code", ec, expect: .invalidBankCode) { $0.bankCode = "11" },
        RuleCase("account of 4 digits", ec, expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "1234" },
        RuleCase("account of 20 digits", ec, expect: nil) { $0.bankAccount = "12345678901234567890" },
        RuleCase("account_type V", ec, expect: invalid("accountType: Invalid or missing Account type")) { $0.accountType = "V" },
        RuleCase("last name missing", ec,
                 expect: invalid("beneficiaryLastname: Invalid or missing Beneficiary lastname")) { $0.beneficiaryLastname = nil },
        RuleCase("CI of 9 digits", ec, expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "171003406" },
        RuleCase("RUC of 13 digits", ec, expect: nil) { $0.documentID = "1790012345001"; $0.documentType = "RUC" },
        RuleCase("no type, passport", ec, expect: nil) { $0.documentID = "A1234567"; $0.documentType = nil },
    ]

    @Test("Ecuador", arguments: ecuador)
    func ecuadorRules(rule: RuleCase) {
        #expect(D24FieldValidator.firstError(in: rule.fields) == rule.expected)
    }

    static let generic: [RuleCase] = [
        RuleCase("UYU and USD", uy, expect: nil) { $0.currency = "UYU" },
        RuleCase("USD in UY", uy, expect: nil) { $0.currency = "USD" },
        RuleCase("ARS in UY", uy, expect: .invalidCurrency) { $0.currency = "ARS" },
        RuleCase("any document format", uy, expect: nil) { $0.documentID = "1.234.567-2"; $0.documentType = "CI" },
        RuleCase("no bank fields required", uy, expect: nil) { $0.bankAccount = nil; $0.accountType = nil },
        RuleCase("free-form account", uy, expect: nil) { $0.bankAccount = "001-234567/8" },
        RuleCase("Panama, USD only", uy, expect: .invalidCurrency) { $0.country = "PA"; $0.currency = "PAB" },
        RuleCase("Panama defaults to USD", uy, expect: nil) { $0.country = "PA"; $0.currency = nil },
        RuleCase("document still required", uy, expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = " " },
    ]

    @Test("Generic-only countries", arguments: generic)
    func genericRules(rule: RuleCase) {
        #expect(D24FieldValidator.firstError(in: rule.fields) == rule.expected)
    }
}
