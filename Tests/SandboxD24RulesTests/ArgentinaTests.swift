// Argentina: D24's Cashouts docs (docs.d24.com), "Countries validations" 🇦🇷 (CBU/CVU check digits and bank prefix, e-mail and
// last name required, iCash 998) and the generic document table (DNI, CUIT/CUIL).

@testable import SandboxD24
import Testing

@Suite("Argentina")
struct ArgentinaTests {
    static let ar = Fixtures.argentina

    static let cases: [RuleCase] = [
        RuleCase("matching bank_code", ar, expect: nil) { $0.bankCode = "285" },
        RuleCase("bank_code differs from the CBU's bank", ar,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankCode = "007" },
        RuleCase("unlisted bank_code", ar, expect: .invalidBankCode) { $0.bankCode = "10000" },
        RuleCase("CBU with a wrong second check digit", ar,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "2850590940090418135202" },
        RuleCase("CBU with a wrong first check digit", ar,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "2850590840090418135201" },
        RuleCase("CBU of 21 digits", ar,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "285059094009041813520" },
        RuleCase("CBU of an unlisted bank", ar, expect: .invalidBankCode) { $0.bankAccount = Numbers.cbu("9990001", "0000000000001") },
        RuleCase("CVU", ar, expect: nil) { $0.bankAccount = Numbers.cbu("0000003", "1000012345678") },
        RuleCase("CVU with bank_code 000", ar, expect: nil) { $0.bankAccount = Numbers.cbu("0000003", "1000012345678"); $0.bankCode = "000" },
        RuleCase("bank_account missing", ar, expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "" },
        RuleCase("iCash without account", ar, expect: nil) { $0.bankCode = "998"; $0.bankAccount = "" },
        RuleCase("iCash with a bad account", ar,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankCode = "998"; $0.bankAccount = "123" },
        RuleCase("email missing", ar, expect: invalid("email: Invalid or missing Email")) { $0.email = nil },
        RuleCase("last name missing", ar,
                 expect: invalid("beneficiaryLastname: Invalid or missing Beneficiary lastname")) { $0.beneficiaryLastname = "" },
        RuleCase("branch numeric", ar, expect: nil) { $0.bankBranch = "0590" },
        RuleCase("branch with letters", ar, expect: invalid("bankBranch: Invalid or missing Bank branch")) { $0.bankBranch = "05A" },
        RuleCase("DNI of 10 digits", ar, expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "5676586998" },
        RuleCase("DNI of 6 digits", ar, expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "123456" },
        RuleCase("CUIT of 11 digits", ar, expect: nil) { $0.documentID = "20123456786"; $0.documentType = "CUIT" },
        RuleCase("CUIL of 11 digits", ar, expect: nil) { $0.documentID = "27123456780"; $0.documentType = "CUIL" },
        RuleCase("DNI of 11 digits", ar, expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "20123456786" },
        RuleCase("no type, 11 digits", ar, expect: nil) { $0.documentID = "20123456786"; $0.documentType = nil },
        RuleCase("unknown type", ar, expect: invalid("documentType: Invalid or missing Document type")) { $0.documentType = "LE" },
    ]

    @Test("Rules", arguments: cases)
    func rules(rule: RuleCase) {
        #expect(D24FieldValidator.firstError(in: rule.fields) == rule.expected)
    }
}
