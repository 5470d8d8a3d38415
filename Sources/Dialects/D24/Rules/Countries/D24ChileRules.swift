// Chile: D24's Cashouts docs (docs.d24.com), "Countries validations" 🇨🇱 (required bank_code, account `^\d{6,16}$`,
// account type C/S/V).

/// Chile's rules: `bank_code` required; `bank_account` 6-16 digits; `account_type` required,
/// one of `C` (checking), `S` (savings), `V` (vista/salary).
struct D24ChileRules: D24CountryRules {
    func check(_ field: D24Field, in request: D24Request) -> D24FieldError? {
        switch field {
        case .bankCode:
            return request.require(field)
        case .bankAccount:
            guard let value = request.value(field), D24Syntax.isDigits(value, lengths: 6...16) else {
                return .invalid(field)
            }
            return nil
        case .accountType:
            return requireAccountType(request, in: ["C", "S", "V"])
        default:
            return nil
        }
    }
}
