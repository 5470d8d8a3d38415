// Check-digit validators on the examples of D24's Cashouts docs (docs.d24.com), "Countries validations" (CPF 01716001340, CLABE
// 021790064060296642, CCI 00219300153895206813) and well-known published numbers.

@testable import SandboxD24
import Testing

@Suite("Check digits")
struct CheckDigitsTests {
    typealias Validator = @Sendable (String) -> Bool

    /// (name, validator, a valid number) for every algorithm.
    static let examples: [(String, Validator, String)] = [
        ("CPF (spec)", CheckDigits.isValidCPF, "01716001340"),
        ("CPF 000.000.001-91", CheckDigits.isValidCPF, "00000000191"),
        ("CNPJ 11.222.333/0001-81", CheckDigits.isValidCNPJ, "11222333000181"),
        ("CLABE (spec)", CheckDigits.isValidCLABE, "021790064060296642"),
        ("CLABE (computed, BBVA 012)", CheckDigits.isValidCLABE, Numbers.clabe("01218000123456789")),
        ("CBU (published, Macro 285)", CheckDigits.isValidCBU, "2850590940090418135201"),
        ("CBU (computed, Galicia 007)", CheckDigits.isValidCBU, Numbers.cbu("0070999", "0004123456789")),
        ("CVU (computed, prefix 000)", CheckDigits.isValidCBU, Numbers.cbu("0000003", "1000012345678")),
        ("CCI (spec)", CheckDigits.isValidCCI, "00219300153895206813"),
        ("CCI (computed, Interbank 003)", CheckDigits.isValidCCI, Numbers.cci("003110", "013000123456")),
        ("Luhn Visa test card", CheckDigits.isValidLuhn, "4111111111111111"),
        ("Luhn Amex test card", CheckDigits.isValidLuhn, "378282246310005"),
    ]

    @Test("Documented and published numbers are valid", arguments: examples)
    func valid(name: String, validator: Validator, number: String) {
        #expect(validator(number), "\(name): \(number)")
    }

    @Test("Every single-digit change is refused", arguments: examples)
    func singleDigitChanges(name: String, validator: Validator, number: String) {
        for variant in Numbers.singleDigitChanges(of: number) {
            #expect(!validator(variant), "\(name): \(variant)")
        }
    }

    @Test("Wrong lengths and non-digits are refused", arguments: examples)
    func wrongShapes(name: String, validator: Validator, number: String) {
        #expect(!validator(number + "0"), "\(name): one digit longer")
        #expect(!validator(String(number.dropLast())), "\(name): one digit shorter")
        #expect(!validator(""), "\(name): empty")
        let half = number.count / 2
        #expect(!validator(String(number.prefix(half)) + "a" + number.dropFirst(half + 1)), "\(name): letter")
        #expect(!validator(" " + number.dropFirst()), "\(name): leading space")
        #expect(!validator(String(number.prefix(3)) + "-" + number.dropFirst(4)), "\(name): hyphen")
    }

    @Test("Formatted CPF and CNPJ are refused: the validators take digits only")
    func formatted() {
        #expect(!CheckDigits.isValidCPF("017.160.013-40"))
        #expect(!CheckDigits.isValidCNPJ("11.222.333/0001-81"))
    }

    @Test("Repeated-digit CPFs and CNPJs are refused though their arithmetic passes")
    func repeatedDigits() {
        for digit in 0...9 {
            #expect(!CheckDigits.isValidCPF(String(repeating: String(digit), count: 11)))
            #expect(!CheckDigits.isValidCNPJ(String(repeating: String(digit), count: 14)))
        }
    }

    @Test("CNPJ is exactly 14 digits for the validator (padding is the document rule's job)")
    func cnpjLength() {
        #expect(!CheckDigits.isValidCNPJ("1222333000181"))
    }

    @Test("Luhn: a one-digit number is refused, swapped digits in a card are detected")
    func luhnEdges() {
        #expect(!CheckDigits.isValidLuhn("0"))
        #expect(CheckDigits.isValidLuhn("18"))
        #expect(!CheckDigits.isValidLuhn("81"))
        #expect(!CheckDigits.isValidLuhn("4111111111111112"))
    }
}
