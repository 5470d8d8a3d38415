// Valid create requests per country (the examples of D24's "Countries validations" pages where they
// give one) and helpers to build failing variants: D24's Cashouts docs (docs.d24.com), "Cashout Creation Endpoint".

@testable import SandboxD24
import Testing

/// One fully valid request per country; tests change one field at a time.
enum Fixtures {
    /// The D24 Brazil page's example request.
    static let brazil = D24CreateFields(
        externalID: "30000000001", country: "BR", currency: "BRL", amount: "100",
        documentID: "01716001340", beneficiaryName: "User", bankCode: "001",
        bankAccount: "3423422-7", bankBranch: "1234", accountType: "C",
        notificationURL: "https://webhook.site/url")

    /// Mexico with D24's example CLABE (HSBC, 021).
    static let mexico = D24CreateFields(
        externalID: "mx-1", country: "MX", currency: "MXN", amount: "250.75",
        documentID: "GODE561231HDFRRN09", documentType: "CURP", beneficiaryName: "Juan",
        beneficiaryLastname: "Pérez", bankAccount: "021790064060296642")

    /// Argentina with a published CBU (Banco Macro, 285).
    static let argentina = D24CreateFields(
        externalID: "ar-1", country: "AR", currency: "ARS", amount: "1500.5",
        documentID: "20123456", documentType: "DNI", beneficiaryName: "John",
        beneficiaryLastname: "Smith", email: "johnSmith@gmail.com",
        bankAccount: "2850590940090418135201")

    /// Chile: BancoEstado, a vista account.
    static let chile = D24CreateFields(
        externalID: "cl-1", country: "CL", currency: "CLP", amount: "10000",
        documentID: "12345678K", documentType: "RUT", beneficiaryName: "Ana",
        bankCode: "012", bankAccount: "123456789", accountType: "V")

    /// Colombia: Bancolombia savings account.
    static let colombia = D24CreateFields(
        externalID: "co-1", country: "CO", currency: "COP", amount: "50000",
        documentID: "1020304050", documentType: "CC", beneficiaryName: "Carlos",
        beneficiaryLastname: "Gómez", phone: "+57 310 4028587", bankCode: "007",
        bankAccount: "12345678901", accountType: "S", address: "Calle 1 # 2-3")

    /// Peru with D24's example CCI (BCP, 002).
    static let peru = D24CreateFields(
        externalID: "pe-1", country: "PE", currency: "PEN", amount: "80",
        documentID: "12345678", documentType: "DNI", beneficiaryName: "Rosa",
        beneficiaryLastname: "Quispe", bankAccount: "00219300153895206813", accountType: "C")

    /// Ecuador: Banco Pichincha savings account, USD.
    static let ecuador = D24CreateFields(
        externalID: "ec-1", country: "EC", currency: "USD", amount: "20.00",
        documentID: "1710034065", documentType: "CI", beneficiaryName: "Luis",
        beneficiaryLastname: "Mora", bankCode: "10", bankAccount: "2200123456", accountType: "S")

    /// Uruguay: generic checks only.
    static let uruguay = D24CreateFields(
        externalID: "uy-1", country: "UY", amount: "300", documentID: "12345672",
        beneficiaryName: "Marta")

    static let all: [(String, D24CreateFields)] = [
        ("BR", brazil), ("MX", mexico), ("AR", argentina), ("CL", chile), ("CO", colombia),
        ("PE", peru), ("EC", ecuador), ("UY", uruguay),
    ]
}

/// A code-300 error with `message`.
func invalid(_ message: String) -> D24FieldError {
    D24FieldError(code: 300, message: message)
}

/// One named variant of a fixture and the error it must produce (`nil`: accepted).
struct RuleCase: Sendable, CustomTestStringConvertible {
    let name: String
    let fields: D24CreateFields
    let expected: D24FieldError?

    init(_ name: String, _ base: D24CreateFields, expect expected: D24FieldError?,
         _ change: (inout D24CreateFields) -> Void) {
        var fields = base
        change(&fields)
        self.name = name
        self.fields = fields
        self.expected = expected
    }

    var testDescription: String { name }
}

/// Appends the check digit(s) the algorithms of D24's "Countries validations" pages give, computed independently of the
/// library, to build valid numbers with chosen prefixes.
enum Numbers {
    static func digits(_ text: String) -> [Int] { text.map { Int(String($0))! } }

    /// 17 digits -> an 18-digit CLABE.
    static func clabe(_ first17: String) -> String {
        let weights = [3, 7, 1]
        let sum = digits(first17).enumerated().reduce(0) { $0 + ($1.element * weights[$1.offset % 3]) % 10 }
        return first17 + String((10 - sum % 10) % 10)
    }

    /// 7 digits (bank + branch) and 13 digits (account) -> a 22-digit CBU.
    static func cbu(_ bankBranch: String, _ account: String) -> String {
        func check(_ part: String, _ weights: [Int]) -> Int {
            (10 - zip(digits(part), weights).reduce(0) { $0 + $1.0 * $1.1 } % 10) % 10
        }
        return bankBranch + String(check(bankBranch, [7, 1, 3, 9, 7, 1, 3]))
            + account + String(check(account, [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3]))
    }

    /// 6 digits (bank + branch) and 12 digits (account) -> a 20-digit CCI.
    static func cci(_ bankBranch: String, _ account: String) -> String {
        func check(_ part: String) -> Int {
            let total = digits(part).enumerated().reduce(0) { sum, item in
                let product = item.element * (item.offset % 2 == 0 ? 1 : 2)
                return sum + product / 10 + product % 10
            }
            return (10 - total % 10) % 10
        }
        return bankBranch + account + String(check(bankBranch)) + String(check(account))
    }

    /// Every variant of `number` with exactly one digit replaced by another.
    static func singleDigitChanges(of number: String) -> [String] {
        var result: [String] = []
        let characters = Array(number)
        for index in characters.indices {
            for digit in "0123456789" where digit != characters[index] {
                var copy = characters
                copy[index] = digit
                result.append(String(copy))
            }
        }
        return result
    }
}
