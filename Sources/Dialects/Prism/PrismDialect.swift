package import SandboxBank
package import SandboxContract
package import SandboxWire

/// Hyperswitch Prism's `types.PayoutService` on the dialect seam: its gRPC methods (`PrismAPI`,
/// declared in `PrismProtos`), its merchants (`PrismMerchant`: the `prism_merchants` section), and
/// its magic values (`PrismDialect.builtInScenarioText`).
package struct PrismDialect: Dialect {
    /// What its payouts record as their dialect, and what rules name in `"dialect"`.
    package static let name = "prism"
    package var name: String { Self.name }
    package var operations: [APIOperation] { PrismOperation.all }

    package init() {}

    /// CreateLink's recipient pages (`PrismLinks`); Connect's JSON is served with the gRPC methods.
    package func register(in router: inout Router, bank: Bank) {
        PrismLinks(bank: bank).register(in: &router)
    }

    package var grpcFiles: [ProtoFile] { PrismProtos.files }
    package var grpcServices: [ServiceSchema] { PrismProtos.services }

    package func registerGRPC(in grpc: inout GRPCServer, bank: Bank) {
        PrismAPI(bank: bank, registry: grpc.registry).register(in: &grpc)
    }

    /// The signed JSON of `PrismWebhook`, to the Create's `webhook_url`.
    package func notification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification? {
        PrismWebhook.rendered(notification, bank: bank)
    }

    /// Its `X-Webhook-Signature` made with a wrong API key.
    package func forgedNotification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification? {
        PrismWebhook.rendered(notification, bank: bank, forged: true)
    }

    /// A JSON body with `event_id` and `connector_payout_id`: its signature header checked.
    package func readNotification(_ received: ReceivedRequest, bank: Bank) -> ReceivedNotification? {
        PrismWebhook.read(received, bank: bank)
    }

    /// Its merchants (the default `DefaultMerchantId`, API key `sandbox_prism_key`): the
    /// `prism_merchants` section, `/sandbox/accounts/prism/{id}`.
    package var accounts: AccountKind? { PrismMerchant.kind }

    /// A rejection forced without a code (the admin API's, the dashboard's) carries the connector
    /// error its answers give: `payout_rejected`, or `payout_reversed` for a return.
    package func forcedRejection(code: String?, afterCompletion: Bool) -> (code: String, reason: String)? {
        PrismPayout.failure(afterCompletion ? .returned : .rejected, code: code, reason: nil).map { ($0.code, $0.message) }
    }

    /// SUCCESS, FAILED, REVERSED... (`PrismPayout.status`).
    package func statusWord(_ status: PayoutStatus) -> String? { PrismPayout.status(status) }
}
