// Argentina: D24's Cashouts docs (docs.d24.com), "Countries validations" 🇦🇷 (required fields, CBU/CVU check digits, bank code
// from the CBU prefix, iCash 998 with e-mail).

/// Argentina's rules.
///
/// - `beneficiary_lastname` and `email` are required.
/// - `bank_account` is a 22-digit CBU or CVU (prefix 000) with valid check digits; its first
///   three digits must be a listed bank (else 303) and equal `bank_code` when one was sent, so
///   `bank_code` itself is optional (newer D24 copies drop it from the required list).
/// - iCash (998) pays to the `email`: `bank_account` may be empty (if sent it must still be a
///   valid CBU/CVU).
/// - `bank_branch` ("institute number"; sandbox choice) is optional; when sent, digits only.
///   The doc example's `bank_code` 10000 is unexplained by D24 and is not listed (303).
struct D24ArgentinaRules: D24CountryRules {
    func check(_ field: D24Field, in request: D24Request) -> D24FieldError? {
        switch field {
        case .beneficiaryLastname, .email:
            return request.require(field)
        case .bankAccount:
            let iCash = request.bankCode == D24Countries.iCash
            guard let value = request.value(field) else { return iCash ? nil : .invalid(field) }
            guard CheckDigits.isValidCBU(value) else { return .invalid(field) }
            if iCash {
                let prefix = Int(value.prefix(3)) ?? -1
                return D24Countries.bankName(code: prefix, in: "AR") == nil ? .invalidBankCode : nil
            }
            return checkBankPrefix(of: value, in: request)
        case .bankBranch:
            if let value = request.value(field), !D24Syntax.isDigits(value) { return .invalid(field) }
            return nil
        default:
            return nil
        }
    }
}
