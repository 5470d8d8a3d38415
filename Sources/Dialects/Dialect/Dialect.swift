import SandboxAPIDocs
import SandboxBank
import SandboxDashboard
import SandboxGRPC
import SandboxHTTP
import SandboxJSON
import SandboxProtobuf
import SandboxReport
import SandboxScenario

/// One payout API the sandbox serves over its one bank: its endpoints, which authenticate,
/// validate and answer in the API's own format, and the notifications of its payouts' changes.
/// The sandbox is assembled from a list of dialects; the bank names none of them.
///
/// ```swift
/// struct EchoDialect: Dialect {
///     let name = "echo"
///     func register(in router: inout Router, bank: Bank) {
///         router.add("POST /echo/payouts") { request in ... bank.createPayout(PayoutRequest(dialect: name, ...)) ... }
///     }
///     func notification(_ change: StatusNotification, bank: Bank) -> RenderedNotification? { ... }
/// }
/// ```
public protocol Dialect: Sendable {
    /// A short lowercase name: recorded on every payout it creates (`PayoutRequest.dialect`), so
    /// that its notifications go out in its format, and matched by a scenario rule's `dialect`.
    var name: String { get }

    /// Adds its endpoints to `router`, serving them over `bank`.
    func register(in router: inout Router, bank: Bank)

    /// The protobuf files of the gRPC services it serves (with everything they import): the
    /// sandbox's one `GRPCServer` is built from every dialect's, and serves them by reflection.
    /// Empty for an API without gRPC.
    var grpcFiles: [ProtoFile] { get }

    /// Sets the handlers of its gRPC methods (declared in `grpcFiles`) on the sandbox's server,
    /// serving them over `bank`; called before the server is installed on the router.
    func registerGRPC(in grpc: inout GRPCServer, bank: Bank)

    /// `notification`, of one of its payouts, in its wire format and signed; nil when it cannot be
    /// sent (its account is gone).
    func notification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification?

    /// `notification` as `notification(_:bank:)` renders it, but signed with a wrong key
    /// (`RenderedNotification.forgedKey`): webhook chaos's `forged`. nil when it signs nothing.
    func forgedNotification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification?

    /// What a receiver of one of its notifications can tell from it (the built-in sink acting as a
    /// handler): which payout, which status, whether its signature holds with the merchant's
    /// secret. nil when the request is not a notification in its format.
    func readNotification(_ received: ReceivedRequest, bank: Bank) -> ReceivedNotification?

    /// Its accounts: their scenario section, admin resource, start-up line and credentials for
    /// an app; nil for an API without accounts of its own.
    var accounts: AccountKind? { get }

    /// What it adds to the scenario format: the request fields rules test, what its declines say
    /// (its accounts' section comes from `accounts`).
    var scenarioVocabulary: ScenarioVocabulary { get }

    /// The code and reason of a rejection forced without them (the admin API's `reject`), given
    /// `code` or not, of a payout that had completed (a return) or not; nil leaves them empty.
    func forcedRejection(code: String?, afterCompletion: Bool) -> (code: String, reason: String)?

    /// Its built-in scenario (`scenarios/default.json` for the first API): rules such as magic
    /// values, layered under every scenario the user loads; nil for none.
    var builtInScenarioText: String? { get }

    /// A scenario step's create for `account` (one of its own): `fields` over its example
    /// payout, notifications to `notificationURL`; nil when its scenarios cannot create payouts.
    func scenarioCreate(fields: [String: JSON], account: Account, notificationURL: String) -> ScenarioCreate?

    /// Performs one of its own scenario steps (an action of `scenarioVocabulary.stepActions`, its
    /// body's templates filled in): nil when it holds, else what was expected and what happened.
    func perform(_ step: Step.DialectStep, in run: inout some ScenarioRun) -> String?

    /// Its own word for a status of one of its payouts, which a scenario's `expect_cashout` may
    /// name (listed in `scenarioVocabulary.statusWords`); nil when it has none but the sandbox's.
    func statusWord(_ status: PayoutStatus) -> String?

    /// Its part of the OpenAPI document and the Postman collection; nil for none.
    var docs: APIDocsFragment? { get }

    /// What it adds to the dashboard (its request form, views, cards on its cashouts' page); nil
    /// for nothing.
    var dashboard: DashboardPart? { get }

    /// What a journaled request to one of its routes was, for the integration report: whose,
    /// about which payout, what it asked; nil when the report cannot tell (the default).
    func reportFacts(_ exchange: JournaledExchange, bank: Bank) -> RequestFacts?

    /// The integration report's checks of its accounts (`IntegrationChecks`' that its API can
    /// show, and its own); none by default.
    var integrationChecks: [IntegrationCheck] { get }
}

extension Dialect {
    public var accounts: AccountKind? { nil }
    public var grpcFiles: [ProtoFile] { [] }
    public func registerGRPC(in grpc: inout GRPCServer, bank: Bank) {}
    public var scenarioVocabulary: ScenarioVocabulary { ScenarioVocabulary() }
    public var builtInScenarioText: String? { nil }
    public var docs: APIDocsFragment? { nil }
    public var dashboard: DashboardPart? { nil }
    public func reportFacts(_ exchange: JournaledExchange, bank: Bank) -> RequestFacts? { nil }
    public var integrationChecks: [IntegrationCheck] { [] }
    public func forcedRejection(code: String?, afterCompletion: Bool) -> (code: String, reason: String)? { nil }
    public func scenarioCreate(fields: [String: JSON], account: Account, notificationURL: String) -> ScenarioCreate? { nil }
    public func perform(_ step: Step.DialectStep, in run: inout some ScenarioRun) -> String? { "\(step.action): not a step of \(name)" }
    public func statusWord(_ status: PayoutStatus) -> String? { nil }
    public func forgedNotification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification? { nil }
    public func readNotification(_ received: ReceivedRequest, bank: Bank) -> ReceivedNotification? { nil }
}

extension Dialect {
    /// Everything scenario files may say in it: `scenarioVocabulary`, and its accounts' section.
    public var vocabulary: ScenarioVocabulary {
        var vocabulary = scenarioVocabulary
        if let (section, read) = accounts?.section { vocabulary.accountSections[section] = read }
        return vocabulary
    }

    /// The accounts it starts with when no scenario names others.
    public var defaultAccounts: [Account] { accounts?.defaults ?? [] }

    /// How the start-up log shows one of its accounts (`AccountKind.startupLine`; the neutral line
    /// for an API without accounts of its own).
    public func startupLine(_ account: Account) -> (text: String, event: String, fields: [(String, String)]) {
        (accounts?.startupLine ?? AccountKind.neutralLine)(account)
    }

    /// One of its accounts' credentials as an app reads them from its environment
    /// (`AccountKind.environment`); none for an API without accounts of its own.
    public func environment(_ account: Account) -> [(name: String, value: String)] { accounts?.environment(account) ?? [] }
}

/// A notification as its dialect sends it: a `POST` with this content type, whose body is
/// rendered when needed (the built-in sink renders it only when it is read), and the header
/// fields it adds besides `Content-Type`, made from the body (a signature of it, such as
/// PayoutService's `X-Webhook-Signature`).
public struct RenderedNotification: Sendable {
    public var contentType: String
    public var body: @Sendable () -> String
    /// The extra header fields for a body; none unless the dialect signs in a header.
    public var headers: @Sendable (_ body: String) -> HTTPHeaders

    public init(contentType: String, headers: @escaping @Sendable (_ body: String) -> HTTPHeaders = { _ in [:] },
                body: @escaping @Sendable () -> String) {
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    /// The key a forged notification is signed with (webhook chaos): the right one with `.stale`
    /// after it, as after a secret was rotated.
    public static func forgedKey(_ secret: String) -> String { secret + ".stale" }

    /// Its fields as a receiver reads them: a form's (the first of a repeated name), or a JSON
    /// object's members (strings and numbers as text); none for another body.
    public var fields: [String: String] {
        ReceivedRequest.fields(contentType: contentType, body: body())
    }
}
