// Brazil: D24's Cashouts docs (docs.d24.com), "Countries validations" 🇧🇷 (required fields, CPF/CNPJ, account regex per bank,
// branch, account type, PIX keys 10000/10001/10002).

@testable import SandboxD24
import Testing

@Suite("Brazil")
struct BrazilTests {
    static let br = Fixtures.brazil
    static let pixCPF = RuleCase("PIX CPF key base", br, expect: nil) {
        $0.bankCode = "10002"; $0.bankAccount = ""; $0.bankBranch = ""
    }.fields

    static let cases: [RuleCase] = [
        RuleCase("CNPJ as document", br, expect: nil) { $0.documentID = "11222333000181"; $0.documentType = "CNPJ" },
        RuleCase("CNPJ with a dropped leading zero", br, expect: nil) { $0.documentID = "6990590000123" },
        RuleCase("CPF with a wrong check digit", br, expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "01716001341" },
        RuleCase("formatted CPF", br, expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "017.160.013-40" },
        RuleCase("CPF declared as CNPJ", br, expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentType = "CNPJ" },
        RuleCase("unknown document type", br, expect: invalid("documentType: Invalid or missing Document type")) { $0.documentType = "RG" },
        RuleCase("bank_code missing", br, expect: invalid("bankCode: Invalid or missing Bank code")) { $0.bankCode = nil },
        RuleCase("bank_account missing", br, expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = nil },
        RuleCase("BB account too long", br, expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "12345678901" },
        RuleCase("BB account with X check", br, expect: nil) { $0.bankAccount = "123456789-X" },
        RuleCase("Santander 9 digits", br, expect: nil) { $0.bankCode = "033"; $0.bankAccount = "12345678-9" },
        RuleCase("Santander 7 digits", br,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankCode = "033"; $0.bankAccount = "1234567" },
        RuleCase("Banrisul 10 digits", br, expect: nil) { $0.bankCode = "041"; $0.bankAccount = "1234567890" },
        RuleCase("Banrisul 9 digits", br,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankCode = "041"; $0.bankAccount = "123456789" },
        RuleCase("Caixa 15 digits", br, expect: nil) { $0.bankCode = "104"; $0.bankAccount = "12345678901234-5" },
        RuleCase("Caixa X check", br,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankCode = "104"; $0.bankAccount = "1234-X" },
        RuleCase("Bradesco 9 digits", br,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankCode = "237"; $0.bankAccount = "12345678-9" },
        RuleCase("Mercado Pago 11 digits", br, expect: nil) { $0.bankCode = "323"; $0.bankAccount = "12345678910" },
        RuleCase("Itaú 7 digits", br,
                 expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankCode = "341"; $0.bankAccount = "123456-7" },
        RuleCase("Itaú 6 digits", br, expect: nil) { $0.bankCode = "341"; $0.bankAccount = "12345-6" },
        RuleCase("Nubank (fallback pattern)", br, expect: nil) { $0.bankCode = "260"; $0.bankAccount = "12345678-9" },
        RuleCase("account with letters", br, expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "12A4567-8" },
        RuleCase("double hyphen", br, expect: invalid("bankAccount: Invalid or missing Bank account")) { $0.bankAccount = "3423422--7" },
        RuleCase("branch missing", br, expect: invalid("bankBranch: Invalid or missing Bank branch")) { $0.bankBranch = "" },
        RuleCase("branch with check digit", br, expect: nil) { $0.bankBranch = "1234-5" },
        RuleCase("branch too long", br, expect: invalid("bankBranch: Invalid or missing Bank branch")) { $0.bankBranch = "123456" },
        RuleCase("account_type missing", br, expect: invalid("accountType: Invalid or missing Account type")) { $0.accountType = nil },
        RuleCase("account_type V not used in BR", br, expect: invalid("accountType: Invalid or missing Account type")) { $0.accountType = "V" },
        RuleCase("phone with 16 digits", br, expect: invalid("phone: Invalid or missing Phone")) { $0.phone = "+5511999999999999" },
        RuleCase("phone with 15 digits", br, expect: nil) { $0.phone = "+551199999999999" },
    ]

    @Test("Bank-transfer rules", arguments: cases)
    func rules(rule: RuleCase) {
        #expect(D24FieldValidator.firstError(in: rule.fields) == rule.expected)
    }

    static let pix: [RuleCase] = [
        RuleCase("CPF key, empty account and branch", pixCPF, expect: nil) { _ in },
        RuleCase("CPF key, no account_type", pixCPF, expect: nil) { $0.accountType = nil },
        RuleCase("CPF key with a CNPJ document", pixCPF,
                 expect: invalid("documentId: Invalid or missing Document ID")) { $0.documentID = "11222333000181" },
        RuleCase("phone key", pixCPF, expect: nil) { $0.bankCode = "10000"; $0.phone = "+5511666666666" },
        RuleCase("phone key without phone", pixCPF, expect: invalid("phone: Invalid or missing Phone")) { $0.bankCode = "10000" },
        RuleCase("phone key with a foreign number", pixCPF,
                 expect: invalid("phone: Invalid or missing Phone")) { $0.bankCode = "10000"; $0.phone = "+5491123456789" },
        RuleCase("email key", pixCPF, expect: nil) { $0.bankCode = "10001"; $0.email = "testuser@gmail.com" },
        RuleCase("email key without email", pixCPF, expect: invalid("email: Invalid or missing Email")) { $0.bankCode = "10001" },
        RuleCase("PIX account_type must still be C/S", pixCPF,
                 expect: invalid("accountType: Invalid or missing Account type")) { $0.accountType = "V" },
    ]

    @Test("PIX keys", arguments: pix)
    func pixKeys(rule: RuleCase) {
        #expect(D24FieldValidator.firstError(in: rule.fields) == rule.expected)
    }
}
