// Peru: D24's Cashouts docs (docs.d24.com), "Countries validations" 🇵🇪 (required fields, CCI check digits and bank prefix, the
// 18-digit "...00" form, Yape 901 / Plin 902 with phone).

/// Peru's rules.
///
/// - Required: `document_type` (generic table), `beneficiary_lastname`, `bank_account`,
///   `account_type` (`C`/`S`). `bank_code` is optional: the CCI's first three digits name the
///   bank (a listed bank, else 303; equal to `bank_code` when one was sent).
/// - `bank_account`: a 20-digit CCI with valid check digits, or an 18-digit number ending in
///   `00` (accepted by D24's published validator).
/// - Yape (901) and Plin (902): `bank_account` is ignored (send it empty), `phone` is
///   required with 10-11 digits, `account_type` optional.
struct D24PeruRules: D24CountryRules {
    func check(_ field: D24Field, in request: D24Request) -> D24FieldError? {
        let wallet = request.bankCode == D24Countries.yape || request.bankCode == D24Countries.plin
        switch field {
        case .beneficiaryLastname:
            return request.require(field)
        case .phone:
            guard wallet else { return nil }
            guard let value = request.value(field),
                  (10...11).contains(D24Syntax.digits(of: value).count) else { return .invalid(field) }
            return nil
        case .bankAccount:
            if wallet { return nil }
            guard let value = request.value(field), Self.isAccount(value) else { return .invalid(field) }
            return checkBankPrefix(of: value, in: request)
        case .accountType:
            return wallet
                ? optionalAccountType(request, in: ["C", "S"]) : requireAccountType(request, in: ["C", "S"])
        default:
            return nil
        }
    }

    /// A CCI (20 digits, valid checks) or an 18-digit account ending in `00`.
    static func isAccount(_ text: String) -> Bool {
        CheckDigits.isValidCCI(text) || (D24Syntax.isDigits(text, lengths: 18...18) && text.hasSuffix("00"))
    }
}
