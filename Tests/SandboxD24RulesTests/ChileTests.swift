// Chile: D24's Cashouts docs (docs.d24.com), "Countries validations" 🇨🇱 (bank_code required, account 6-16 digits, account type
// C/S/V, RUT/RUN/ID of length 8-9).

@testable import SandboxD24
import Testing

@Suite("Chile")
struct ChileTests {
    static let cl = Fixtures.chile

    static let cases: [RuleCase] = [
        RuleCase("bank_code missing", cl, expect: invalid("bankCode: Invalid or missing Bank code")) { $0.bankCode = nil },
        RuleCase("unlisted bank_code", cl, expect: .invalidBankCode) { $0.bankCode = "2" },
        RuleCase("BCI Mach", cl, expect: nil) { $0.bankCode = "116" },
        RuleCase("account of 5 digits", cl, expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "12345" },
        RuleCase("account of 16 digits", cl, expect: nil) { $0.bankAccount = "1234567890123456" },
        RuleCase("account of 17 digits", cl,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "12345678901234567" },
        RuleCase("account with a hyphen", cl, expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "1234-56789" },
        RuleCase("account_type missing", cl, expect: invalid("accountType: Invalid or missing Account type")) { $0.accountType = nil },
        RuleCase("account_type C", cl, expect: nil) { $0.accountType = "C" },
        RuleCase("RUT of 8 characters", cl, expect: nil) { $0.documentID = "1234567K"; $0.documentType = "RUN" },
        RuleCase("RUT lowercase k", cl, expect: nil) { $0.documentID = "12345678k" },
        RuleCase("RUT with dots and hyphen", cl, expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "12.345.678-K" },
        RuleCase("RUT of 7 characters", cl, expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "123456K" },
        RuleCase("RUT with K inside", cl, expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "1234K6789" },
        RuleCase("unknown type", cl, expect: invalid("documentType: Invalid or missing Document type")) { $0.documentType = "DNI" },
        RuleCase("last name optional", cl, expect: nil) { $0.beneficiaryLastname = nil },
    ]

    @Test("Rules", arguments: cases)
    func rules(rule: RuleCase) {
        #expect(D24FieldValidator.firstError(in: rule.fields) == rule.expected)
    }
}
