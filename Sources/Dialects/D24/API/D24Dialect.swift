import SandboxAPIDocs
import SandboxBank
import SandboxDashboard
import SandboxDialect
import SandboxD24Rules
import SandboxHTTP
import SandboxScenario

/// The D24 Cashouts API v3 on the dialect seam: its endpoints (`D24API`), its signed form
/// notifications (`D24Notification`), the create fields scenario rules match, and the built-in
/// scenario with its magic values.
public struct D24Dialect: Dialect {
    /// What its payouts record as their dialect.
    public static let name = "d24"
    public var name: String { Self.name }
    /// Prepared HMAC keys, shared by the endpoints and the notifications.
    let keys = D24SigningKeys()

    public init() {}

    public func register(in router: inout Router, bank: Bank) {
        D24API(bank: bank, keys: keys).register(in: &router)
    }

    public func notification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification? {
        rendered(notification, bank: bank, forged: false)
    }

    /// Its `control` made with a wrong secret.
    public func forgedNotification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification? {
        rendered(notification, bank: bank, forged: true)
    }

    private func rendered(_ notification: StatusNotification, bank: Bank, forged: Bool) -> RenderedNotification? {
        guard let secret = bank.account(id: notification.account, { D24Merchant($0).secret }) else { return nil }
        let keys = keys
        return RenderedNotification(contentType: "application/x-www-form-urlencoded") {
            D24Notification.formBody(notification, key: keys.key(secret: forged ? RenderedNotification.forgedKey(secret) : secret))
        }
    }

    /// A form with `control` and `cashout_id`: its control checked against the merchant's.
    public func readNotification(_ received: ReceivedRequest, bank: Bank) -> ReceivedNotification? {
        D24Notification.read(received, bank: bank, keys: keys)
    }

    /// 807 ERROR_REJECTED_BY_BANK, or 826 WITHDRAWAL_REVERSED after completion; a given code's spec §7.2 name.
    public func forcedRejection(code: String?, afterCompletion: Bool) -> (code: String, reason: String)? {
        let number = code.flatMap { Int($0) } ?? (afterCompletion ? 826 : 807)
        return (String(number), D24RejectionCodes.name(number))
    }

    /// The codes a scenario's timeline may give a D24 cashout: spec §7.2's, and no word code.
    static let rejectionCodes = RejectionCodes(listed: D24RejectionCodes.names.keys.sorted().map { (String($0), D24RejectionCodes.names[$0]!) })

    /// Its merchants: the `merchants` section, `/sandbox/accounts/d24/{login}`.
    public var accounts: AccountKind? { D24Merchant.kind }

    /// The create request's fields (spec §4.1 wire names) for rules, and declines with spec
    /// §7.3's codes (100–999) and a KYC `reason` and `reason_code`.
    public var scenarioVocabulary: ScenarioVocabulary {
        ScenarioVocabulary(dialect: Self.name, ruleFields: Self.createFields, rejectionCodes: Self.rejectionCodes,
                           declineKeys: ["reason", "reason_code"], declineChecks: [Self.name: Self.check])
    }

    @Sendable private static func check(_ decline: Decline) -> (key: String, expected: String)? {
        if !(Int(decline.code).map { (100 ... 999).contains($0) } ?? false) { return ("code", "expected a whole number from 100 to 999") }
        if let code = decline.details["reason_code"], !(Int(code).map { (0 ... 99999).contains($0) } ?? false) {
            return ("reason_code", "expected a whole number from 0 to 99999")
        }
        return nil
    }

    /// `on_hold` and `type` were accepted in rules before the seam; they never reach a payout's
    /// fields, so a rule on them matches nothing (kept so that such files still load).
    static let createFields = Set(D24Field.allCases.map(\.jsonKey)).union(["on_hold", "type"])

    public var builtInScenarioText: String? { Self.builtInScenarioText }

    public var docs: APIDocsFragment? { D24Docs.fragment }

    public var dashboard: DashboardPart? { D24DashboardForm.part }
}
