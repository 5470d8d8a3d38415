// Peru: D24's Cashouts docs (docs.d24.com), "Countries validations" 🇵🇪 (CCI check digits and bank prefix, 18-digit "...00"
// accounts, Yape/Plin with phone, document_type required).

@testable import SandboxD24
import Testing

@Suite("Peru")
struct PeruTests {
    static let pe = Fixtures.peru

    static let cases: [RuleCase] = [
        RuleCase("document_type missing", pe, expect: invalid("documentType: Invalid or missing Document type")) { $0.documentType = nil },
        RuleCase("DNI of 9 digits", pe, expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "123456789" },
        RuleCase("RUC of 11 digits", pe, expect: nil) { $0.documentID = "20100047218"; $0.documentType = "RUC" },
        RuleCase("CE alphanumeric", pe, expect: nil) { $0.documentID = "CE0012345"; $0.documentType = "CE" },
        RuleCase("PASS of 5 characters", pe,
                 expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "AB123"; $0.documentType = "PASS" },
        RuleCase("last name missing", pe,
                 expect: invalid("beneficiaryLastname: Invalid or missing Beneficiary lastname")) { $0.beneficiaryLastname = nil },
        RuleCase("CCI with a wrong check digit", pe,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "00219300153895206814" },
        RuleCase("CCI of an unlisted bank", pe, expect: .invalidBankCode) { $0.bankAccount = Numbers.cci("999110", "013000123456") },
        RuleCase("CCI of Interbank", pe, expect: nil) { $0.bankAccount = Numbers.cci("003110", "013000123456") },
        RuleCase("bank_code differs from the CCI's bank", pe,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankCode = "003" },
        RuleCase("matching bank_code", pe, expect: nil) { $0.bankCode = "002" },
        RuleCase("unlisted bank_code", pe, expect: .invalidBankCode) { $0.bankCode = "4" },
        RuleCase("18 digits ending in 00", pe, expect: nil) { $0.bankAccount = "002193001538952000" },
        RuleCase("18 digits not ending in 00", pe,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "002193001538952001" },
        RuleCase("bank_account missing", pe, expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = nil },
        RuleCase("account_type missing", pe, expect: invalid("accountType: Invalid or missing Account type")) { $0.accountType = nil },
        RuleCase("Yape with phone", pe, expect: nil) { $0.bankCode = "901"; $0.bankAccount = ""; $0.phone = "51987654321"; $0.accountType = nil },
        RuleCase("Plin without phone", pe, expect: invalid("phone: Invalid or missing Phone")) { $0.bankCode = "902"; $0.bankAccount = "" },
        RuleCase("Yape with a 9-digit phone", pe,
                 expect: invalid("phone: Invalid or missing Phone")) { $0.bankCode = "901"; $0.bankAccount = ""; $0.phone = "987654321" },
    ]

    @Test("Rules", arguments: cases)
    func rules(rule: RuleCase) {
        #expect(D24FieldValidator.firstError(in: rule.fields) == rule.expected)
    }
}
