// The per-country layer of field validation: D24's Cashouts docs (docs.d24.com), "Countries validations" (BR, MX, AR,
// CL, CO, PE, EC), and the Behaviour and choices guide (which countries are fully validated).

/// Rules one fully validated country adds on top of ``D24GenericChecks``.
protocol D24CountryRules: Sendable {
    /// The country's refusal for `field`, or `nil`. Called only when the generic checks of
    /// `field` passed, and in the documented field order.
    func check(_ field: D24Field, in request: D24Request) -> D24FieldError?
}

/// Finds the rules of a country.
enum D24CountryRulesLookup {
    /// The rules for `country`; none of its own for countries with generic checks only.
    static func rules(for country: String) -> any D24CountryRules {
        switch country {
        case "BR": D24BrazilRules()
        case "MX": D24MexicoRules()
        case "AR": D24ArgentinaRules()
        case "CL": D24ChileRules()
        case "CO": D24ColombiaRules()
        case "PE": D24PeruRules()
        case "EC": D24EcuadorRules()
        default: D24GenericOnlyRules()
        }
    }
}

/// The rules of a country with generic checks only: no refusal of its own.
struct D24GenericOnlyRules: D24CountryRules {
    func check(_ field: D24Field, in request: D24Request) -> D24FieldError? { nil }
}

extension D24CountryRules {
    /// `.invalid(.accountType)` unless `account_type` is present and one of `letters`.
    func requireAccountType(_ request: D24Request, in letters: [String]) -> D24FieldError? {
        guard let value = request.value(.accountType), letters.contains(value) else {
            return .invalid(.accountType)
        }
        return nil
    }

    /// `.invalid(.accountType)` when `account_type` is present and not one of `letters`.
    func optionalAccountType(_ request: D24Request, in letters: [String]) -> D24FieldError? {
        guard let value = request.value(.accountType) else { return nil }
        return letters.contains(value) ? nil : .invalid(.accountType)
    }

    /// The check of an account number whose first three digits name the bank (CLABE, CBU,
    /// CCI): 303 when that prefix is not a listed bank, 300 `bankAccount` when it differs
    /// from a `bank_code` the client also sent.
    func checkBankPrefix(of account: String, in request: D24Request) -> D24FieldError? {
        guard let prefix = Int(account.prefix(3)),
              D24Countries.bankName(code: prefix, in: request.country) != nil else {
            return .invalidBankCode
        }
        if let code = request.bankCode, code != prefix { return .invalid(.bankAccount) }
        return nil
    }
}
