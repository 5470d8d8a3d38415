/// Valid cashouts, one per fully validated country (BR, MX, AR, CL, CO, PE, EC): the examples that
/// the docs (OpenAPI, Postman, the D24 guide's per-country table), the dashboard's form and a
/// scenario's `create_cashout` defaults use. Each passes its country's rules, check digits
/// included; a test sends every one to a started sandbox.
///
/// ```swift
/// D24Example.value("bank_account")                          // "3423422-7"
/// D24Example.createFields(country: "MX")?.first { $0.name == "bank_account" }?.value
///                                                           // "021790064060296642" (a CLABE)
/// ```
enum D24Example {
    /// The create fields besides the credentials, the external id and the notification URL.
    package typealias Fields = [(name: String, value: String)]

    /// The Brazilian cashout of BRL 100.00 (a CPF and a bank account whose check digits pass): the
    /// one example of the docs and the dashboard.
    static var createFields: Fields { byCountry[0].fields }

    /// The example of `country`, or `nil` for a country without full validation.
    static func createFields(country: String) -> Fields? {
        byCountry.first { $0.country == country }?.fields
    }

    /// The Brazilian example's value of `name` ("" for a field it leaves out).
    package static func value(_ name: String) -> String {
        createFields.first { $0.name == name }?.value ?? ""
    }

    /// The examples in the order of the D24 guide's table. Where the provider's country page gives
    /// an example (BR's CPF and account, MX's CLABE, PE's CCI) it is that one.
    static let byCountry: [(country: String, fields: Fields)] = [
        ("BR", [("country", "BR"), ("currency", "BRL"), ("amount", "100.00"), ("document_id", "01716001340"), ("document_type", "CPF"),
                ("beneficiary_name", "Ana"), ("beneficiary_lastname", "Silva"), ("bank_code", "001"), ("bank_account", "3423422-7"),
                ("bank_branch", "1234"), ("account_type", "C")]),
        // HSBC's CLABE: its first three digits name the bank, so bank_code may be left out.
        ("MX", [("country", "MX"), ("currency", "MXN"), ("amount", "250.00"), ("document_id", "GODE561231HDFRRN09"),
                ("document_type", "CURP"), ("beneficiary_name", "Juan"), ("beneficiary_lastname", "Perez"),
                ("bank_account", "021790064060296642")]),
        // Banco Macro's CBU (285).
        ("AR", [("country", "AR"), ("currency", "ARS"), ("amount", "1500.00"), ("document_id", "20123456"), ("document_type", "DNI"),
                ("beneficiary_name", "Lucia"), ("beneficiary_lastname", "Fernandez"), ("email", "lucia@example.com"),
                ("bank_account", "2850590940090418135201")]),
        // BancoEstado (012), a vista account; the RUT 12.345.678-5 written without dots or hyphen.
        ("CL", [("country", "CL"), ("currency", "CLP"), ("amount", "10000"), ("document_id", "123456785"), ("document_type", "RUT"),
                ("beneficiary_name", "Camila"), ("beneficiary_lastname", "Rojas"), ("bank_code", "012"), ("bank_account", "123456789"),
                ("account_type", "V")]),
        // Bancolombia (007), a savings account.
        ("CO", [("country", "CO"), ("currency", "COP"), ("amount", "50000"), ("document_id", "1020304050"), ("document_type", "CC"),
                ("beneficiary_name", "Carlos"), ("beneficiary_lastname", "Gomez"), ("phone", "+57 310 4028587"), ("bank_code", "007"),
                ("bank_account", "12345678901"), ("account_type", "S"), ("address", "Calle 1 # 2-3")]),
        // BCP's CCI (002).
        ("PE", [("country", "PE"), ("currency", "PEN"), ("amount", "80.00"), ("document_id", "12345678"), ("document_type", "DNI"),
                ("beneficiary_name", "Rosa"), ("beneficiary_lastname", "Quispe"), ("bank_account", "00219300153895206813"),
                ("account_type", "C")]),
        // Banco Pichincha (010), a savings account; Ecuador pays in USD.
        ("EC", [("country", "EC"), ("currency", "USD"), ("amount", "20.00"), ("document_id", "1710034065"), ("document_type", "CI"),
                ("beneficiary_name", "Luis"), ("beneficiary_lastname", "Mora"), ("bank_code", "010"), ("bank_account", "2200123456"),
                ("account_type", "S")]),
    ]
}
