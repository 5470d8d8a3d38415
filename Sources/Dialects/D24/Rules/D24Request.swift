// The validation context of one create request: D24's Cashouts docs (docs.d24.com), "Cashout Creation Endpoint" (fields),
// and the Behaviour and choices guide (numbers sent as strings: bank_code "001" and 1 are the same code).

/// A create request seen by the rules: the raw fields plus values derived once.
///
/// Empty and whitespace-only strings count as absent (`bank_account: ""` for PIX is "no
/// account"); a required field sent that way is "missing".
struct D24Request: Sendable {
    let fields: D24CreateFields
    /// The `country` as sent, or `""`.
    let country: String
    /// `bank_code` as a number when it is 1-6 ASCII digits, else `nil`.
    let bankCode: Int?
    /// The currencies `country` accepts (``D24Countries/currencies(of:)``); `nil` outside the table.
    let currencies: [String]?
    /// The document types of `country` (``D24DocumentTypes/table(for:)``); `nil` where not checked.
    let documentTypes: D24DocumentTypes.Table?

    init(_ fields: D24CreateFields) {
        self.fields = fields
        self.country = fields.country ?? ""
        self.bankCode = fields.bankCode.flatMap(D24Request.parseBankCode)
        self.currencies = D24Countries.currencies(of: country)
        self.documentTypes = D24DocumentTypes.table(for: country)
    }

    /// `field`'s value, or `nil` when absent, empty or only whitespace.
    func value(_ field: D24Field) -> String? {
        guard let raw = fields[field], !D24Syntax.isBlank(raw) else { return nil }
        return raw
    }

    /// Whether `field` carries a non-blank value.
    func has(_ field: D24Field) -> Bool { value(field) != nil }

    /// `.invalid(field)` when `field` is absent, else `nil`.
    func require(_ field: D24Field) -> D24FieldError? {
        has(field) ? nil : .invalid(field)
    }

    /// `text` as a bank code: 1-6 ASCII digits (`"001"` and `"1"` are both 1).
    static func parseBankCode(_ text: String) -> Int? {
        guard D24Syntax.isDigits(text, lengths: 1...6) else { return nil }
        return Int(text)
    }
}
