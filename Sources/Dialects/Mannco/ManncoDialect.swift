import SandboxAPIDocs
import SandboxBank
import SandboxDashboard
import SandboxDialect
import SandboxHTTP
import SandboxScenario

/// Mannco.store's user cashouts on the dialect seam: its endpoints (`ManncoAPI`, `ManncoLinks`),
/// its users (`ManncoUser`: the `users` section, `/sandbox/users`), and its notifications, which
/// are emails to the user (`ManncoEmail`, `/sandbox/emails`), never webhooks.
public struct ManncoDialect: Dialect {
    /// What its payouts record as their dialect.
    public static let name = "mannco"
    public var name: String { Self.name }

    public init() {}

    public func register(in router: inout Router, bank: Bank) {
        ManncoAPI(bank: bank).register(in: &router)
        router.add("GET /sandbox/emails") { request in
            .json(["emails": .array(ManncoEmail.outbox(of: bank.payouts(account: request.query("user"))).map(\.json))])
        }
    }

    /// None: a Mannco cashout names no callback URL, and its user hears by email.
    public func notification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification? { nil }

    /// Its users (the default has id `76561198000000001`): the `users` section,
    /// `/sandbox/accounts/mannco/{id}`.
    public var accounts: AccountKind? { ManncoUser.kind }

    /// The fields rules match (`user`, `method`, `amount` in dollars, `email`), word rejection
    /// codes (`payee_rejected`: its API answers none, the admin API shows them), the steps `login`, `process_cashout`, `link` and `expect_emails`, and its status
    /// words for `expect_cashout`.
    public var scenarioVocabulary: ScenarioVocabulary {
        ScenarioVocabulary(dialect: Self.name,
                           ruleFields: [ManncoCashout.Field.user, ManncoCashout.Field.method, ManncoCashout.Field.amount, ManncoCashout.Field.email],
                           rejectionCodes: RejectionCodes(words: true), stepActions: ManncoSteps.checks,
                           statusWords: Set(PayoutStatus.allCases.map(ManncoCashout.status)))
    }

    /// `pending`, `processing`, `completed`, `failed` or `cancelled`.
    public func statusWord(_ status: PayoutStatus) -> String? { ManncoCashout.status(status) }

    public func perform(_ step: Step.DialectStep, in run: inout some ScenarioRun) -> String? {
        ManncoSteps.perform(step, in: &run)
    }

    public var builtInScenarioText: String? { Self.builtInScenarioText }

    public var docs: APIDocsFragment? { ManncoDocs.fragment }

    /// Its users, its email outbox, the emails on its cashouts' page and its request form.
    public var dashboard: DashboardPart? { ManncoDashboard.part }
}
