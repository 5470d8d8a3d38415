// Field validation of POST /v3/cashout: D24's Cashouts docs (docs.d24.com), "Cashout Creation Endpoint", "API Codes",
// "Countries validations"; and the D24 guide, "Codes" (the validation message format: code 300, `<camelCaseField>: <reason>`, one field per
// response, the first failing in the documented order).

/// Validates a create request's fields the way D24 does, one field at a time.
///
/// Walks ``D24Field/allCases`` (external_id, country, amount, currency, document_id, ...,
/// comments); for each field the generic checks run, then the country's own rules; the first
/// refusal is returned. `login`/`pass` are checked before this.
///
/// ```swift
/// let fields = D24CreateFields(externalID: "x1", country: "BR", amount: "100",
///                              documentID: "01716001340", beneficiaryName: "User",
///                              bankCode: "001", bankAccount: "3423422-7",
///                              bankBranch: "1234", accountType: "C")
/// D24FieldValidator.firstError(in: fields)          // nil
/// ```
enum D24FieldValidator {
    /// The first failing field in the documented field order, or `nil` when all are valid.
    ///
    /// Errors: 300 `<field>: Invalid or missing <Label>`; 518 `Country not available` (a
    /// well-formed country outside the currency table); 526 `Invalid currency`; 303
    /// `Invalid bank code`; 300 `bankAccount: Invalid bank account, it shouldn't be a credit
    /// card` (Mexico). A missing `currency` means the country's local one
    /// (``D24Countries/defaultCurrency(of:)``); `notification_url` is optional.
    static func firstError(in fields: D24CreateFields) -> D24FieldError? {
        let request = D24Request(fields)
        let rules = D24CountryRulesLookup.rules(for: request.country)
        for field in D24Field.allCases {
            if let error = D24GenericChecks.check(field, in: request) { return error }
            if let error = rules.check(field, in: request) { return error }
        }
        return nil
    }

    /// Every field's outcome, not only the first: useful for dashboards and docs. The API
    /// itself reports only ``firstError(in:)``.
    static func allErrors(in fields: D24CreateFields) -> [(field: D24Field, error: D24FieldError)] {
        let request = D24Request(fields)
        let rules = D24CountryRulesLookup.rules(for: request.country)
        return D24Field.allCases.compactMap { field in
            let error = D24GenericChecks.check(field, in: request) ?? rules.check(field, in: request)
            return error.map { (field: field, error: $0) }
        }
    }

    /// Whether `text` is a valid amount: a decimal number greater than zero with at most two
    /// decimals (`"10"`, `"10.5"`, `"10.50"`; trailing zeros beyond two decimals are allowed).
    static func isValidAmount(_ text: String) -> Bool { D24Syntax.isAmount(text) }

    /// Whether `text` matches D24's documented e-mail expression.
    static func isValidEmail(_ text: String) -> Bool { D24Syntax.isEmail(text) }

    /// `bank_code` text as its number (`"001"` and `"1"` are 1), or `nil` unless 1-6 digits.
    static func bankCode(from text: String) -> Int? { D24Request.parseBankCode(text) }
}
