// Mexico: D24's Cashouts docs (docs.d24.com), "Countries validations" 🇲🇽 (required fields, CLABE check digit and bank prefix,
// card numbers refused on the bank-transfer endpoint).

/// Mexico's rules.
///
/// - `beneficiary_lastname` and `bank_account` are required; `bank_code` is optional (the
///   CLABE's first three digits name the bank).
/// - A `bank_account` of 15-16 digits passing Luhn is a card: 300
///   `bankAccount: Invalid bank account, it shouldn't be a credit card` (cards go to the
///   separate card host). Any other value must be an 18-digit CLABE with a valid check digit,
///   whose prefix is a listed bank (else 303) and equals `bank_code` when one was sent.
struct D24MexicoRules: D24CountryRules {
    func check(_ field: D24Field, in request: D24Request) -> D24FieldError? {
        switch field {
        case .beneficiaryLastname:
            return request.require(field)
        case .bankAccount:
            guard let value = request.value(field) else { return .invalid(field) }
            if D24Syntax.isDigits(value, lengths: 15...16), CheckDigits.isValidLuhn(value) {
                return .creditCardAccount
            }
            guard CheckDigits.isValidCLABE(value) else { return .invalid(field) }
            return checkBankPrefix(of: value, in: request)
        default:
            return nil
        }
    }
}
