/// A valid Brazilian cashout of BRL 100.00 (a CPF and a bank account whose check digits pass):
/// the one example that the docs (OpenAPI, Postman), the dashboard's form and a scenario's
/// `create_cashout` defaults all use.
public enum D24Example {
    /// The create fields besides the credentials, the external id and the notification URL.
    public static let createFields: [(name: String, value: String)] = [
        ("country", "BR"), ("currency", "BRL"), ("amount", "100.00"), ("document_id", "01716001340"), ("document_type", "CPF"),
        ("beneficiary_name", "Ana"), ("beneficiary_lastname", "Silva"), ("bank_code", "001"), ("bank_account", "3423422-7"),
        ("bank_branch", "1234"), ("account_type", "C"),
    ]

    /// The example's value of `name` ("" for a field it leaves out).
    public static func value(_ name: String) -> String {
        createFields.first { $0.name == name }?.value ?? ""
    }
}
