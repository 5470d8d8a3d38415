// Field-validation refusals in the API's own error shape: D24's Cashouts docs (docs.d24.com), "API Codes" (codes
// 300, 303, 518, 526), and the D24 guide, "Codes" (the validation message format).

/// A refusal in the API's own shape: `{"code": code, "message": message}`.
///
/// ```swift
/// D24FieldError.invalid(.bankAccount)
/// // code 300, "bankAccount: Invalid or missing Bank account"
/// ```
struct D24FieldError: Error, Sendable, Equatable {
    /// The API code, e.g. 300.
    let code: Int
    /// The API message, e.g. `bankAccount: Invalid or missing Bank account`.
    package let message: String

    /// Creates an error with any code and message.
    init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    /// Code 300 for `field`: `<camelCaseField>: Invalid or missing <Label>`.
    static func invalid(_ field: D24Field) -> D24FieldError {
        D24FieldError(code: 300, message: "\(field.messageName): Invalid or missing \(field.label)")
    }

    /// Code 300 for a Mexican card number sent as `bank_account` ("Countries validations", Mexico).
    static let creditCardAccount = D24FieldError(
        code: 300, message: "bankAccount: Invalid bank account, it shouldn't be a credit card")

    /// Code 303: `bank_code` (or the bank prefix of an account number) is not a listed bank.
    static let invalidBankCode = D24FieldError(code: 303, message: "Invalid bank code")

    /// Code 518: the country is not in the currency table.
    static let countryNotAvailable = D24FieldError(code: 518, message: "Country not available")

    /// Code 526: the currency is not accepted for the country.
    static let invalidCurrency = D24FieldError(code: 526, message: "Invalid currency")
}
