// Accepted `document_type` values and their `document_id` formats per country: D24's Cashouts docs (docs.d24.com),
// "Countries Specifications" (the document validation table; CO and PE require the type). Rows D24's
// pages do not give (MX formats, PE, EC) are the sandbox's choices, documented below.

/// The document types a fully validated country accepts.
///
/// - AR: `DNI` numeric 7-9; `CUIT`/`CUIL` numeric 7-9 or 11 (table).
/// - BR: `CPF` (11 digits, verifier digits); `CNPJ` (12-14 digits, verifier digits) (table).
/// - CL: `ID`/`RUN`/`RUT`, length 8-9: digits then a digit or `K`; verifier not checked.
/// - CO: `CC` numeric 6-10, `NIT` numeric 8-15, `CE` numeric 6-10 or 15 (PEP),
///   `PASS` numeric 6-10 (table and CO page); the type is required.
/// - MX (sandbox choice within the page's "length 7-18"): `CURP` 18 letters/digits,
///   `RFC` 12-13, `IFE` and `PASS` 7-18.
/// - PE (sandbox choice): `DNI` 8 digits, `CE` 9-12 letters/digits, `RUC` 11 digits,
///   `PASS` 6-12 letters/digits; the type is required.
/// - EC (sandbox choice): `CI` 10 digits, `RUC` 13 digits, `PASS` 5-20 letters/digits.
///
/// Without a `document_type` (where it is optional) the `document_id` must match one of the
/// country's formats. Other countries: any `document_id` and `document_type` within the "Cashout Creation Endpoint"
/// lengths. Types are matched case-sensitively (uppercase, as documented).
enum D24DocumentTypes {
    /// One accepted type and its format.
    struct Entry: Sendable {
        let name: String
        let format: D24DocumentFormat
    }

    /// A country's accepted types, and whether `document_type` must be sent.
    struct Table: Sendable {
        let entries: [Entry]
        let typeRequired: Bool

        /// The entry named `type`, if accepted.
        func entry(_ type: String) -> Entry? { entries.first { $0.name == type } }

        /// Whether `documentID` is valid for the declared `type` (when it is one of this
        /// table's), or for any of the country's types otherwise.
        func accepts(_ documentID: String, declaredType type: String?) -> Bool {
            if let type, let entry = entry(type) { return entry.format.matches(documentID) }
            return entries.contains { $0.format.matches(documentID) }
        }
    }

    /// The table of `country`, or `nil` when document types are not validated there.
    static func table(for country: String) -> Table? { tables[country] }

    private static let tables: [String: Table] = [
        "AR": Table(entries: [
            Entry(name: "DNI", format: .numeric([7...9])),
            Entry(name: "CUIT", format: .numeric([7...9, 11...11])),
            Entry(name: "CUIL", format: .numeric([7...9, 11...11])),
        ], typeRequired: false),
        "BR": Table(entries: [
            Entry(name: "CPF", format: .cpf),
            Entry(name: "CNPJ", format: .cnpj),
        ], typeRequired: false),
        "CL": Table(entries: [
            Entry(name: "ID", format: .chileanRUT),
            Entry(name: "RUN", format: .chileanRUT),
            Entry(name: "RUT", format: .chileanRUT),
        ], typeRequired: false),
        "CO": Table(entries: [
            Entry(name: "CC", format: .numeric([6...10])),
            Entry(name: "NIT", format: .numeric([8...15])),
            Entry(name: "CE", format: .numeric([6...10, 15...15])),
            Entry(name: "PASS", format: .numeric([6...10])),
        ], typeRequired: true),
        "MX": Table(entries: [
            Entry(name: "CURP", format: .alphanumeric(18...18)),
            Entry(name: "RFC", format: .alphanumeric(12...13)),
            Entry(name: "IFE", format: .alphanumeric(7...18)),
            Entry(name: "PASS", format: .alphanumeric(7...18)),
        ], typeRequired: false),
        "PE": Table(entries: [
            Entry(name: "DNI", format: .numeric([8...8])),
            Entry(name: "CE", format: .alphanumeric(9...12)),
            Entry(name: "RUC", format: .numeric([11...11])),
            Entry(name: "PASS", format: .alphanumeric(6...12)),
        ], typeRequired: true),
        "EC": Table(entries: [
            Entry(name: "CI", format: .numeric([10...10])),
            Entry(name: "RUC", format: .numeric([13...13])),
            Entry(name: "PASS", format: .alphanumeric(5...20)),
        ], typeRequired: false),
    ]
}

extension D24Countries {
    /// The `document_type` values `country` accepts, in their documented order; `nil` where
    /// document types are not checked.
    ///
    /// ```swift
    /// D24Countries.documentTypes(of: "CO")   // ["CC", "NIT", "CE", "PASS"]
    /// ```
    static func documentTypes(of country: String) -> [String]? {
        D24DocumentTypes.table(for: country)?.entries.map(\.name)
    }
}
