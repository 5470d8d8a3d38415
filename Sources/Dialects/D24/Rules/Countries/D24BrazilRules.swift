// Brazil: D24's Cashouts docs (docs.d24.com), "Countries validations" 🇧🇷 (required fields, account regex per bank, PIX keys
// 10000/10001/10002) and the generic document table (CPF/CNPJ verifier digits).

/// Brazil's rules.
///
/// - `bank_code`, `bank_account`, `bank_branch`, `account_type` (`C`/`S`) are required, except
///   for PIX keys (10000 phone, 10001 e-mail, 10002 CPF) where account and branch are ignored
///   (empty strings expected) and `account_type` is optional.
/// - PIX 10000 needs `phone` as a Brazilian number: `+55` and 10-11 digits (DDD + number), or
///   the 10-11 digits alone. 10001 needs `email`. 10002 needs `document_id` to be a CPF.
/// - `bank_account` per bank, as the D24 page's regexes: 001 `^\d{1,9}-?[\dxX]$`,
///   033 `^\d{7,8}-?\d$`, 041 `^\d{9}-?\d$`, 104 `^\d{1,14}-?\d$`, 237 `^\d{1,7}-?\d$`,
///   323 `^\d{1,10}-?\d$` (the page's text and example allow 11 digits; its regex says 10),
///   341 `^\d{1,5}-?\d$`; any other bank (sandbox choice) `^\d{1,14}-?[\dxX]$`.
/// - `bank_branch` (sandbox choice; the page's table was not retrieved): `^\d{1,4}(-?[\dxX])?$`.
struct D24BrazilRules: D24CountryRules {
    func check(_ field: D24Field, in request: D24Request) -> D24FieldError? {
        let code = request.bankCode
        let pix = code.map { $0 >= D24Countries.pixPhoneKey && $0 <= D24Countries.pixCPFKey } ?? false
        switch field {
        case .documentID:
            if code == D24Countries.pixCPFKey, let value = request.value(field),
               !CheckDigits.isValidCPF(value) {
                return .invalid(field)
            }
        case .email:
            if code == D24Countries.pixEmailKey { return request.require(field) }
        case .phone:
            if code == D24Countries.pixPhoneKey {
                guard let value = request.value(field), Self.isPixPhone(value) else { return .invalid(field) }
            }
        case .bankCode:
            return request.require(field)
        case .bankAccount:
            if pix { return nil }
            guard let value = request.value(field), let code, Self.isAccount(value, bank: code) else {
                return .invalid(field)
            }
        case .bankBranch:
            if pix { return nil }
            guard let value = request.value(field), Self.isBranch(value) else { return .invalid(field) }
        case .accountType:
            return pix ? optionalAccountType(request, in: ["C", "S"]) : requireAccountType(request, in: ["C", "S"])
        default:
            return nil
        }
        return nil
    }

    /// A PIX phone key: `+55` then 10-11 digits, or 10-11 digits (separators ignored).
    static func isPixPhone(_ text: String) -> Bool {
        let digits = D24Syntax.digits(of: text)
        if text.hasPrefix("+") { return digits.hasPrefix("55") && (12...13).contains(digits.count) }
        return (10...11).contains(digits.count)
            || (digits.hasPrefix("55") && (12...13).contains(digits.count))
    }

    /// Whether `account` has the format of bank `code`'s accounts.
    static func isAccount(_ account: String, bank code: Int) -> Bool {
        switch code {
        case 1: D24Syntax.isAccount(account, body: 1...9, letterX: true)
        case 33: D24Syntax.isAccount(account, body: 7...8)
        case 41: D24Syntax.isAccount(account, body: 9...9)
        case 104: D24Syntax.isAccount(account, body: 1...14)
        case 237: D24Syntax.isAccount(account, body: 1...7)
        case 323: D24Syntax.isAccount(account, body: 1...10)
        case 341: D24Syntax.isAccount(account, body: 1...5)
        default: D24Syntax.isAccount(account, body: 1...14, letterX: true)
        }
    }

    /// A branch (agência): 1-4 digits, optionally a hyphen and a check digit or `X`.
    static func isBranch(_ branch: String) -> Bool {
        D24Syntax.isDigits(branch, lengths: 1...4) || D24Syntax.isAccount(branch, body: 1...4, letterX: true)
    }
}
