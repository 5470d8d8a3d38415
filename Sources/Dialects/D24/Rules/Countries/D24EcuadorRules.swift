// Ecuador: D24's Cashouts docs (docs.d24.com), "Countries validations" 🇪🇨 (required fields, account `^\d{5,20}$`, account type
// C/S; USD only through the currency table).

/// Ecuador's rules: `beneficiary_lastname` and `bank_code` required; `bank_account` 5-20
/// digits; `account_type` required, `C` or `S`.
struct D24EcuadorRules: D24CountryRules {
    func check(_ field: D24Field, in request: D24Request) -> D24FieldError? {
        switch field {
        case .beneficiaryLastname, .bankCode:
            return request.require(field)
        case .bankAccount:
            guard let value = request.value(field), D24Syntax.isDigits(value, lengths: 5...20) else {
                return .invalid(field)
            }
            return nil
        case .accountType:
            return requireAccountType(request, in: ["C", "S"])
        default:
            return nil
        }
    }
}
