// Mexico: D24's Cashouts docs (docs.d24.com), "Countries validations" 🇲🇽 (CLABE check digit and bank prefix, card numbers
// refused, required last name, documents 7-18).

@testable import SandboxD24
import Testing

@Suite("Mexico")
struct MexicoTests {
    static let mx = Fixtures.mexico

    static let cases: [RuleCase] = [
        RuleCase("USD accepted", mx, expect: nil) { $0.currency = "USD" },
        RuleCase("matching bank_code", mx, expect: nil) { $0.bankCode = "021" },
        RuleCase("bank_code differs from the CLABE's bank", mx,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankCode = "012" },
        RuleCase("unlisted bank_code", mx, expect: .invalidBankCode) { $0.bankCode = "999" },
        RuleCase("CLABE with a wrong check digit", mx,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "021790064060296643" },
        RuleCase("CLABE of an unlisted bank", mx, expect: .invalidBankCode) { $0.bankAccount = Numbers.clabe("99918000123456789") },
        RuleCase("CLABE of BBVA", mx, expect: nil) { $0.bankAccount = Numbers.clabe("01218000123456789") },
        RuleCase("16-digit Visa card", mx, expect: .creditCardAccount) { $0.bankAccount = "4111111111111111" },
        RuleCase("15-digit Amex card", mx, expect: .creditCardAccount) { $0.bankAccount = "378282246310005" },
        RuleCase("16 digits failing Luhn", mx,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "4111111111111112" },
        RuleCase("bank_account missing", mx, expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = nil },
        RuleCase("last name missing", mx,
                 expect: invalid("beneficiaryLastname: Invalid or missing Beneficiary lastname")) { $0.beneficiaryLastname = nil },
        RuleCase("CURP of 17 characters", mx, expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "GODE561231HDFRRN0" },
        RuleCase("RFC", mx, expect: nil) { $0.documentID = "GODE561231GR8"; $0.documentType = "RFC" },
        RuleCase("no type, 7 characters", mx, expect: nil) { $0.documentID = "A123456"; $0.documentType = nil },
        RuleCase("no type, 6 characters", mx,
                 expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "A12345"; $0.documentType = nil },
        RuleCase("document with a hyphen", mx,
                 expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "GODE-561231"; $0.documentType = nil },
        RuleCase("unknown document type", mx, expect: invalid("documentType: Invalid or missing Document type")) { $0.documentType = "INE" },
    ]

    @Test("Rules", arguments: cases)
    func rules(rule: RuleCase) {
        #expect(D24FieldValidator.firstError(in: rule.fields) == rule.expected)
    }

    @Test("The card message is exact")
    func cardMessage() {
        #expect(D24FieldError.creditCardAccount
            == D24FieldError(code: 300, message: "bankAccount: Invalid bank account, it shouldn't be a credit card"))
    }
}
