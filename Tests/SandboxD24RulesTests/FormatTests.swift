// Field formats shared by all countries: the e-mail expression of D24's Cashouts docs (docs.d24.com), "Countries
// Specifications" (the document validation table's notes), phone ("Cashout Creation Endpoint", max 20
// characters), account type (the same page), birthdate and notification_url (sandbox choices).

@testable import SandboxD24
import Testing

@Suite("Formats")
struct FormatTests {
    static let goodEmails = ["johnSmith@gmail.com", "a@b.co", "first.last+tag@sub.example.com.br",
                             "x!#$%&'*+/=?^_`{|}~-y@example.org", "USER@EXAMPLE.COM", "a@1-2.io"]
    static let badEmails = ["plain", "@example.com", "a@", "a@b", "a@b.c", "a..b@example.com",
                            ".a@example.com", "a.@example.com", "a@-example.com", "a@example-.com",
                            "a@example..com", "a@@example.com", "a b@example.com", "ñ@example.com",
                            "a@example.com.", "a@exa_mple.com"]

    @Test("E-mails D24's expression accepts", arguments: goodEmails)
    func goodEmail(email: String) {
        #expect(D24FieldValidator.isValidEmail(email))
        var fields = Fixtures.uruguay
        fields.email = email
        #expect(D24FieldValidator.firstError(in: fields) == nil)
    }

    @Test("E-mails D24's expression refuses", arguments: badEmails)
    func badEmail(email: String) {
        #expect(!D24FieldValidator.isValidEmail(email))
        var fields = Fixtures.uruguay
        fields.email = email
        #expect(D24FieldValidator.firstError(in: fields) == invalid("email: Invalid or missing Email"))
    }

    static let goodPhones = ["+5511666666666", "+57 310 4028587", "(011) 4555-1234", "0991234567", "1234567"]
    static let badPhones = ["123456", "+55 11 9999-9999x", "55+11999999999", "1234567890123456", "phone",
                            "+", "11.99999.9999"]

    @Test("Phones accepted", arguments: goodPhones)
    func goodPhone(phone: String) {
        var fields = Fixtures.uruguay
        fields.phone = phone
        #expect(D24FieldValidator.firstError(in: fields) == nil)
    }

    @Test("Phones refused", arguments: badPhones)
    func badPhone(phone: String) {
        var fields = Fixtures.uruguay
        fields.phone = phone
        #expect(D24FieldValidator.firstError(in: fields) == invalid("phone: Invalid or missing Phone"))
    }

    @Test("Account type letters", arguments: [("C", true), ("S", true), ("V", true), ("X", false), ("c", false)])
    func accountType(letter: String, ok: Bool) {
        var fields = Fixtures.uruguay
        fields.accountType = letter
        let expected: D24FieldError? = ok ? nil : invalid("accountType: Invalid or missing Account type")
        #expect(D24FieldValidator.firstError(in: fields) == expected)
    }

    @Test("Birthdate is a real YYYY-MM-DD date",
          arguments: [("1990-05-17", true), ("2000-02-29", true), ("1900-02-29", false), ("1990-13-01", false),
                      ("1990-04-31", false), ("17/05/1990", false), ("1990-5-17", false), ("1899-12-31", false)])
    func birthdate(text: String, ok: Bool) {
        var fields = Fixtures.uruguay
        fields.beneficiaryBirthdate = text
        let expected: D24FieldError? = ok ? nil : invalid("beneficiaryBirthdate: Invalid or missing Beneficiary birthdate")
        #expect(D24FieldValidator.firstError(in: fields) == expected)
    }

    @Test("notification_url is an absolute http(s) URL",
          arguments: [("https://webhook.site/url", true), ("http://localhost:9000/hook?x=1", true),
                      ("HTTPS://EXAMPLE.COM", true), ("ftp://example.com", false), ("webhook.site/url", false),
                      ("https://", false), ("https:///path", false), ("https://exa mple.com", false)])
    func notificationURL(text: String, ok: Bool) {
        var fields = Fixtures.uruguay
        fields.notificationURL = text
        let expected: D24FieldError? = ok ? nil : invalid("notificationUrl: Invalid or missing Notification URL")
        #expect(D24FieldValidator.firstError(in: fields) == expected)
    }

    @Test("Field names, labels and JSON keys")
    func fieldNames() {
        #expect(D24Field.allCases.map(\.messageName) == [
            "externalId", "country", "amount", "currency", "documentId", "documentType", "beneficiaryId",
            "beneficiaryName", "beneficiaryLastname", "email", "phone", "bankCode", "bankAccount", "bankBranch",
            "accountType", "address", "city", "postalCode", "beneficiaryBirthdate", "notificationUrl", "comments",
        ])
        #expect(D24Field.allCases.map(\.jsonKey).filter { $0.contains("_") }.count == 13)
        #expect(D24FieldError.invalid(.bankAccount) == invalid("bankAccount: Invalid or missing Bank account"))
    }

    @Test("bank_code text to number")
    func bankCodeParsing() {
        #expect(D24FieldValidator.bankCode(from: "001") == 1)
        #expect(D24FieldValidator.bankCode(from: "10002") == 10002)
        #expect(D24FieldValidator.bankCode(from: "1234567") == nil)
        #expect(D24FieldValidator.bankCode(from: " 1") == nil)
        #expect(D24FieldValidator.bankCode(from: "") == nil)
    }
}
