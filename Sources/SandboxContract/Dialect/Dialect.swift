package import SandboxBank
package import SandboxWire
import SandboxSupport

/// One payout API the sandbox serves over its one bank: its operations (``SandboxContract/APIContract``),
/// whose endpoints authenticate, validate and answer in the API's own format, and the
/// notifications of its payouts' changes.
/// The sandbox is assembled from a list of dialects; the bank names none of them. What else an
/// API gives, it gives by conforming to the protocol of that concern, in that concern's module:
/// `ScenarioDialect` (scenario files), `DocumentedDialect` (the OpenAPI document and Postman),
/// `DashboardDialect` (the dashboard), `ReportingDialect` (the integration report).
///
/// ```swift
/// struct EchoDialect: Dialect {
///     let name = "echo"
///     // The operation, declared once: the router, the documents, the dashboard, the report and faults read it.
///     static let create = APIOperation("createEchoPayout", .http("POST", "/echo/payouts"), role: .create)
///     var operations: [APIOperation] { [Self.create] }
///     // Its endpoint: its description and handler.
///     static let createPayout = Endpoint<Bank>(create, OpenAPI.operation(tag: "Echo", ...)) { bank, request in
///         ... bank.createPayout(PayoutRequest(dialect: "echo", ...)) ...
///     }
///     func register(in router: inout Router, bank: Bank) {
///         router.add([Self.createPayout], serving: bank)
///     }
///     // What a request to one of its operations was (the report, faults, the timeline read it).
///     func facts(of call: OperationCall, bank: Bank) -> RequestFacts? { ... }
///     func notification(_ change: StatusNotification, bank: Bank) -> RenderedNotification? { ... }
/// }
/// ```
package protocol Dialect: APIContract {
    /// A short lowercase name: recorded on every payout it creates (`PayoutRequest.dialect`), so
    /// that its notifications go out in its format, and matched by a scenario rule's `dialect`.
    var name: String { get }

    /// Adds its endpoints to `router`, serving them over `bank`.
    func register(in router: inout Router, bank: Bank)

    /// The protobuf files of the gRPC services it serves (with everything they import): the
    /// sandbox's one `GRPCServer` is built from every dialect's, and serves them by reflection.
    /// Empty for an API without gRPC.
    var grpcFiles: [ProtoFile] { get }

    /// The services of `grpcFiles`, in order: what the sandbox routes at start, before it reads
    /// `grpcFiles` (when a call first needs them). By default read from `grpcFiles`; a dialect
    /// whose files take long to read gives them cheaper (``ProtoText/services(of:)``).
    var grpcServices: [ServiceSchema] { get }

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

    /// The code and reason of a rejection forced without them (the admin API's `reject`), given
    /// `code` or not, of a payout that had completed (a return) or not; nil leaves them empty.
    func forcedRejection(code: String?, afterCompletion: Bool) -> (code: String, reason: String)?

    /// Its own word for a status of one of its payouts, which its answers, the admin API's
    /// filters and a scenario's `expect_cashout` use; nil when it has none but the sandbox's.
    func statusWord(_ status: PayoutStatus) -> String?

    /// The code and reason its answers give a rejection the bank made with `code` and `reason` (or
    /// without): what the admin API and the dashboard show of it too (D24 answers 808 for none).
    func answeredRejection(code: String?, reason: String?) -> (code: String?, reason: String?)

    /// Itself as each concern's protocol it conforms to, nil for one it does not: what the
    /// sandbox asks instead of casting (Dialect+Capabilities; never written by a dialect).
    var asScenarioDialect: (any ScenarioDialect)? { get }
    var asReportingDialect: (any ReportingDialect)? { get }
    var asDocumentedDialect: (any DocumentedDialect)? { get }
    var asDashboardDialect: (any DashboardDialect)? { get }
}

extension Dialect {
    package var accounts: AccountKind? { nil }
    package var grpcFiles: [ProtoFile] { [] }
    package var grpcServices: [ServiceSchema] { grpcFiles.flatMap(\.services) }
    package func registerGRPC(in grpc: inout GRPCServer, bank: Bank) {}
    package func forcedRejection(code: String?, afterCompletion: Bool) -> (code: String, reason: String)? { nil }
    package func statusWord(_ status: PayoutStatus) -> String? { nil }
    package func answeredRejection(code: String?, reason: String?) -> (code: String?, reason: String?) { (code, reason) }
    package func forgedNotification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification? { nil }
    package func readNotification(_ received: ReceivedRequest, bank: Bank) -> ReceivedNotification? { nil }
}

extension Dialect {
    /// Everything scenario files may say in it: its `ScenarioDialect` vocabulary, if it has one,
    /// and its accounts' section.
    package var vocabulary: ScenarioVocabulary {
        var vocabulary = asScenarioDialect?.scenarioVocabulary ?? ScenarioVocabulary()
        if let (section, read) = accounts?.section {
            vocabulary.accountSections[section] = read
            if let format = accounts?.sectionFormat { vocabulary.format.accountSections.append((section, format)) }
        }
        return vocabulary
    }

    /// The accounts it starts with when no scenario names others.
    package var defaultAccounts: [Account] { accounts?.defaults ?? [] }

    /// How the start-up log shows one of its accounts (`AccountKind.startupLine`; the neutral line
    /// for an API without accounts of its own).
    package func startupLine(_ account: Account) -> (text: String, event: String, fields: [(String, String)]) {
        (accounts?.startupLine ?? AccountKind.neutralLine)(account)
    }

    /// One of its accounts' credentials as an app reads them from its environment
    /// (`AccountKind.environment`); none for an API without accounts of its own.
    package func environment(_ account: Account) -> [(name: String, value: String)] { accounts?.environment(account) ?? [] }
}

/// A notification as its dialect sends it: a `POST` with this content type, whose body is
/// rendered when needed (the built-in sink renders it only when it is read), and the header
/// fields it adds besides `Content-Type`, made from the body (a signature of it, such as
/// PayoutService's `X-Webhook-Signature`).
package struct RenderedNotification: Sendable {
    package var contentType: String
    package var body: @Sendable () -> String
    /// The extra header fields for a body; none unless the dialect signs in a header.
    package var headers: @Sendable (_ body: String) -> HTTPHeaders

    package init(contentType: String, headers: @escaping @Sendable (_ body: String) -> HTTPHeaders = { _ in [:] },
                body: @escaping @Sendable () -> String) {
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    /// The key a forged notification is signed with (webhook chaos): the right one with `.stale`
    /// after it, as after a secret was rotated.
    package static func forgedKey(_ secret: String) -> String { secret + ".stale" }

    /// Its fields as a receiver reads them: a form's (the first of a repeated name), or a JSON
    /// object's members (strings and numbers as text); none for another body.
    package var fields: [String: String] {
        ReceivedRequest.fields(contentType: contentType, body: body())
    }
}
