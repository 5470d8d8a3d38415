import SandboxAPIDocs
import SandboxBank
import SandboxDashboard
import SandboxDialect
import SandboxGRPC
import SandboxHTTP
import SandboxProtobuf
import SandboxScenario

/// Hyperswitch Prism's `types.PayoutService` on the dialect seam: its gRPC methods (`PrismAPI`,
/// declared in `PrismProtos`), its merchants (`PrismMerchant`: the `prism_merchants` section), and
/// its magic values (`PrismDialect.builtInScenarioText`).
public struct PrismDialect: Dialect {
    /// What its payouts record as their dialect, and what rules name in `"dialect"`.
    public static let name = "prism"
    public var name: String { Self.name }

    public init() {}

    /// CreateLink's recipient pages (`PrismLinks`) and its merchants in the admin API
    /// (`PrismMerchantAdmin`); Connect's JSON is served with the gRPC methods.
    public func register(in router: inout Router, bank: Bank) {
        PrismLinks(bank: bank).register(in: &router)
        PrismMerchantAdmin(bank: bank).register(in: &router)
    }

    public var grpcFiles: [ProtoFile] { PrismProtos.files }

    public func registerGRPC(in grpc: inout GRPCServer, bank: Bank) {
        PrismAPI(bank: bank, registry: grpc.registry).register(in: &grpc)
    }

    /// The signed JSON of `PrismWebhook`, to the Create's `webhook_url`.
    public func notification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification? {
        PrismWebhook.rendered(notification, bank: bank)
    }

    /// Its `X-Webhook-Signature` made with a wrong API key.
    public func forgedNotification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification? {
        PrismWebhook.rendered(notification, bank: bank, forged: true)
    }

    /// A JSON body with `event_id` and `connector_payout_id`: its signature header checked.
    public func readNotification(_ received: ReceivedRequest, bank: Bank) -> ReceivedNotification? {
        PrismWebhook.read(received, bank: bank)
    }

    /// The default merchant `DefaultMerchantId` (API key `sandbox_prism_key`).
    public var defaultAccounts: [Account] { [PrismMerchant.sandboxDefault] }

    public func startupLine(_ account: Account) -> (text: String, event: String, fields: [(String, String)]) {
        let merchant = PrismMerchant(account)
        return ("payoutservice merchant: x-merchant-id \(merchant.id), api key \(merchant.apiKey), balance \(account.currency) \(account.balance)",
                "server.prism_merchant",
                [("merchant_id", merchant.id), ("api_key", merchant.apiKey), ("currency", account.currency), ("balance", account.balance.description)])
    }

    /// `MERCHANT_ID` (`x-merchant-id`), `API_KEY` (`x-api-key`) and, when it has them, `KEY1`
    /// (`x-key1`) and `API_SECRET` (`x-api-secret`).
    public func environment(_ account: Account) -> [(name: String, value: String)] {
        let merchant = PrismMerchant(account)
        let optional = [("KEY1", merchant.key1), ("API_SECRET", merchant.apiSecret)].compactMap { name, value in value.map { (name: name, value: $0) } }
        return [("MERCHANT_ID", merchant.id), ("API_KEY", merchant.apiKey)] + optional
    }

    /// The fields rules match (`connector`, `method`, `amount`, `currency`, `recipient_name`...),
    /// the `prism_merchants` section, the step `grpc_call` (`PrismSteps`), and its status words
    /// for `expect_cashout`.
    public var scenarioVocabulary: ScenarioVocabulary {
        ScenarioVocabulary(dialect: Self.name, ruleFields: PrismPayout.Field.ruleFields, rejectionCodes: RejectionCodes(words: true),
                           accountSections: [PrismMerchant.section: PrismMerchant.read],
                           stepActions: PrismSteps.checks, statusWords: Set(PayoutStatus.allCases.map(PrismPayout.status)),
                           expectChecks: PrismSteps.expectChecks)
    }

    public func perform(_ step: Step.DialectStep, in run: inout some ScenarioRun) -> String? {
        PrismSteps.perform(step, in: &run)
    }

    /// A rejection forced without a code (the admin API's, the dashboard's) carries the connector
    /// error its answers give: `payout_rejected`, or `payout_reversed` for a return.
    public func forcedRejection(code: String?, afterCompletion: Bool) -> (code: String, reason: String)? {
        PrismPayout.failure(afterCompletion ? .returned : .rejected, code: code, reason: nil).map { ($0.code, $0.message) }
    }

    /// SUCCESS, FAILED, REVERSED... (`PrismPayout.status`).
    public func statusWord(_ status: PayoutStatus) -> String? { PrismPayout.status(status) }

    public var builtInScenarioText: String? { Self.builtInScenarioText }

    /// The methods as Connect JSON and CreateLink's pages in the OpenAPI document, and a Postman folder (`PrismDocs`).
    public var docs: APIDocsFragment? { PrismDocs.fragment }

    /// Its payouts' details, its merchants and a Create/CreateLink form (`PrismDashboard`).
    public var dashboard: DashboardPart? { PrismDashboard.part }
}
