package import SandboxBank
package import SandboxContract
package import SandboxWire

/// Mannco.store's user cashouts on the dialect seam: its endpoints (`ManncoAPI`, `ManncoLinks`),
/// its users (`ManncoUser`: the `users` section, `/sandbox/users`), and its notifications, which
/// are emails to the user (`ManncoEmail`, `/sandbox/emails`), never webhooks.
package struct ManncoDialect: Dialect {
    /// What its payouts record as their dialect.
    package static let name = "mannco"
    package var name: String { Self.name }
    package var operations: [APIOperation] { ManncoOperation.all }

    package init() {}

    package func register(in router: inout Router, bank: Bank) {
        ManncoAPI(bank: bank).register(in: &router)
    }

    /// None: a Mannco cashout names no callback URL, and its user hears by email.
    package func notification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification? { nil }

    /// Its users (the default has id `76561198000000001`): the `users` section,
    /// `/sandbox/accounts/mannco/{id}`.
    package var accounts: AccountKind? { ManncoUser.kind }

    /// `pending`, `processing`, `completed`, `failed` or `cancelled`.
    package func statusWord(_ status: PayoutStatus) -> String? { ManncoCashout.status(status) }
}
