import SandboxBank
import SandboxDialect
import SandboxHTTP

/// The D24 Cashouts API v3 on the dialect seam: its endpoints (`D24API`), its signed form
/// notifications (`D24Notification`), the create fields scenario rules match, and the built-in
/// scenario with its magic values.
public struct D24Dialect: Dialect {
    /// What its payouts record as their dialect.
    public static let name = "d24"
    public var name: String { Self.name }
    /// Prepared HMAC keys, shared by the endpoints and the notifications.
    private let keys = D24SigningKeys()

    public init() {}

    public func register(in router: inout Router, bank: Bank) {
        D24API(bank: bank, keys: keys).register(in: &router)
    }

    public func notification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification? {
        guard let secret = bank.merchant(login: notification.merchant, \.secret) else { return nil }
        let keys = keys
        return RenderedNotification(contentType: "application/x-www-form-urlencoded") {
            D24Notification.formBody(notification, key: keys.key(secret: secret))
        }
    }

    /// The create request's fields (spec §4.1 wire names).
    public var ruleFields: Set<String> { Self.createFields }

    static let createFields: Set<String> = [
        "external_id", "country", "currency", "amount", "document_id", "document_type", "beneficiary_id",
        "beneficiary_name", "beneficiary_lastname", "email", "phone", "bank_code", "bank_account", "bank_branch", "account_type",
        "address", "city", "postal_code", "beneficiary_birthdate", "notification_url", "comments", "on_hold", "type",
    ]

    public var builtInScenarioText: String? { Self.builtInScenarioText }
}
