import SandboxBank
import SandboxDialect
import SandboxD24Rules
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

    /// `on_hold` and `type` were accepted in rules before the seam; they never reach a payout's
    /// fields, so a rule on them matches nothing (kept so that such files still load).
    static let createFields = Set(D24Field.allCases.map(\.jsonKey)).union(["on_hold", "type"])

    public var builtInScenarioText: String? { Self.builtInScenarioText }
}
