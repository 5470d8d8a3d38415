// Colombia: D24's Cashouts docs (docs.d24.com), "Countries validations" 🇨🇴 (required document_type, last name, phone, address;
// account formats; Nequi, Daviplata, Efecty, Punto Red).

@testable import SandboxD24
import Testing

@Suite("Colombia")
struct ColombiaTests {
    static let co = Fixtures.colombia

    static let cases: [RuleCase] = [
        RuleCase("document_type missing", co, expect: invalid("documentType: Invalid or missing Document type")) { $0.documentType = nil },
        RuleCase("CC of 11 digits", co, expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "10203040501" },
        RuleCase("NIT of 11 digits", co, expect: nil) { $0.documentID = "90012345671"; $0.documentType = "NIT" },
        RuleCase("CE of 15 digits (PEP)", co, expect: nil) { $0.documentID = "123456789012345"; $0.documentType = "CE" },
        RuleCase("PASS with letters", co,
                 expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "AB123456"; $0.documentType = "PASS" },
        RuleCase("last name missing", co,
                 expect: invalid("beneficiaryLastname: Invalid or missing Beneficiary lastname")) { $0.beneficiaryLastname = nil },
        RuleCase("phone missing", co, expect: invalid("phone: Invalid or missing Phone")) { $0.phone = nil },
        RuleCase("email longer than 100 is fine in CO", co, expect: nil) { $0.email = String(repeating: "a", count: 120) + "@example.com" },
        RuleCase("bank_code missing", co, expect: invalid("bankCode: Invalid or missing Bank code")) { $0.bankCode = nil },
        RuleCase("unlisted bank_code", co, expect: .invalidBankCode) { $0.bankCode = "3" },
        RuleCase("account of 7 digits", co, expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "1234567" },
        RuleCase("account of 19 digits", co, expect: nil) { $0.bankAccount = "1234567890123456789" },
        RuleCase("account with letters", co, expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "12345678A" },
        RuleCase("account_type V", co, expect: invalid("accountType: Invalid or missing Account type")) { $0.accountType = "V" },
        RuleCase("account_type missing", co, expect: invalid("accountType: Invalid or missing Account type")) { $0.accountType = nil },
        RuleCase("address missing", co, expect: invalid("address: Invalid or missing Address")) { $0.address = nil },
        RuleCase("Nequi with the mobile", co, expect: nil) { $0.bankCode = "1507"; $0.bankAccount = "3104028587"; $0.accountType = nil },
        RuleCase("Daviplata without account", co,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankCode = "1551"; $0.bankAccount = "" },
        RuleCase("Nequi with 21 characters", co,
                 expect: invalid("bankAccount: Invalid or missing Bank "
                                 + "account")) { $0.bankCode = "1507"; $0.bankAccount = String(repeating: "3", count: 21) },
        RuleCase("Efecty without account", co, expect: nil) { $0.bankCode = "10003"; $0.bankAccount = nil; $0.accountType = nil },
        RuleCase("Efecty with an account", co, expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankCode = "10003" },
        RuleCase("Efecty with a short phone", co,
                 expect: invalid("phone: Invalid or missing Phone")) { $0.bankCode = "10003"; $0.bankAccount = nil; $0.phone = "+57 310 402858" },
        RuleCase("Efecty with a non-Colombian phone", co,
                 expect: invalid("phone: Invalid or missing Phone")) { $0.bankCode = "10003"; $0.bankAccount = nil; $0.phone = "+52 310 4028587" },
        RuleCase("Punto Red with email", co, expect: nil) { $0.bankCode = "10006"; $0.bankAccount = ""; $0.email = "cliente@example.co" },
        RuleCase("Punto Red without email", co, expect: invalid("email: Invalid or missing Email")) { $0.bankCode = "10006"; $0.bankAccount = "" },
    ]

    @Test("Rules", arguments: cases)
    func rules(rule: RuleCase) {
        #expect(D24FieldValidator.firstError(in: rule.fields) == rule.expected)
    }
}
