// Colombia: D24's Cashouts docs (docs.d24.com), "Countries validations" 🇨🇴 (required fields, account formats per bank, Nequi
// 1507 / Daviplata 1551 mobile accounts, Efecty 10003 and Punto Red 10006 cash networks).

/// Colombia's rules.
///
/// - Required: `document_type` (generic table), `beneficiary_lastname`, `phone`, `bank_code`,
///   `bank_account`, `account_type` (`C`/`S`) and `address`.
/// - `bank_account`: Nequi (1507) and Daviplata (1551) take the customer's mobile, any 1-20
///   characters; Efecty (10003) must have none; Punto Red (10006) may have none or up to 20
///   characters (sandbox choice); every other bank 8-19 digits.
/// - Efecty and Punto Red need `phone` as `+57` and 10 digits (separators allowed, `+`
///   optional); Punto Red also needs `email`.
/// - `account_type` is optional for the wallets and cash networks (sandbox choice).
struct D24ColombiaRules: D24CountryRules {
    func check(_ field: D24Field, in request: D24Request) -> D24FieldError? {
        let code = request.bankCode
        let wallet = code == D24Countries.nequi || code == D24Countries.daviplata
        let cash = code == D24Countries.efecty || code == D24Countries.puntoRed
        switch field {
        case .beneficiaryLastname, .bankCode, .address:
            return request.require(field)
        case .email:
            return code == D24Countries.puntoRed ? request.require(field) : nil
        case .phone:
            guard let value = request.value(field) else { return .invalid(field) }
            if cash, !Self.isColombianMobile(value) { return .invalid(field) }
            return nil
        case .bankAccount:
            let value = request.value(field)
            if wallet { return value.map { $0.count <= 20 } == true ? nil : .invalid(field) }
            if code == D24Countries.efecty { return value == nil ? nil : .invalid(field) }
            if code == D24Countries.puntoRed { return (value?.count ?? 0) <= 20 ? nil : .invalid(field) }
            guard let value, D24Syntax.isDigits(value, lengths: 8...19) else { return .invalid(field) }
            return nil
        case .accountType:
            return wallet || cash
                ? optionalAccountType(request, in: ["C", "S"]) : requireAccountType(request, in: ["C", "S"])
        default:
            return nil
        }
    }

    /// `+57` followed by a 10-digit mobile, e.g. `+57 310 4028587`.
    static func isColombianMobile(_ text: String) -> Bool {
        let digits = D24Syntax.digits(of: text)
        return digits.count == 12 && digits.hasPrefix("57")
    }
}
