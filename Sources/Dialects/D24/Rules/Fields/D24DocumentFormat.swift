// Formats of beneficiary documents: D24's Cashouts docs (docs.d24.com), "Countries Specifications" (the document
// validation table: numeric lengths, CPF/CNPJ verifier digits) and the "Countries validations" pages.

/// The shape a `document_id` must have for one document type.
enum D24DocumentFormat: Sendable {
    /// ASCII digits whose length is in one of the ranges.
    case numeric([ClosedRange<Int>])
    /// ASCII letters and digits, length in the range.
    case alphanumeric(ClosedRange<Int>)
    /// A Brazilian CPF: 11 digits with valid verifier digits.
    case cpf
    /// A Brazilian CNPJ: 12 to 14 digits (leading zeros may be dropped) with valid verifier digits.
    case cnpj
    /// A Chilean RUN/RUT without dots or hyphen: 7-8 digits then a digit or `K` (length 8-9).
    /// The modulus-11 verifier is not checked (D24's pages state no check-digit rule).
    case chileanRUT

    /// Whether `text` has this format.
    func matches(_ text: String) -> Bool {
        switch self {
        case .numeric(let lengths):
            return D24Syntax.isDigits(text) && lengths.contains { $0.contains(text.utf8.count) }
        case .alphanumeric(let lengths):
            return D24Syntax.isAlphanumeric(text, lengths: lengths)
        case .cpf:
            return CheckDigits.isValidCPF(text)
        case .cnpj:
            guard D24Syntax.isDigits(text, lengths: 12...14) else { return false }
            return CheckDigits.isValidCNPJ(String(repeating: "0", count: 14 - text.utf8.count) + text)
        case .chileanRUT:
            guard (8...9).contains(text.utf8.count), let last = text.utf8.last else { return false }
            let body = text.dropLast()
            return D24Syntax.isDigits(body) && (D24Syntax.isDigit(last) || last == 0x4B || last == 0x6B)
        }
    }
}
