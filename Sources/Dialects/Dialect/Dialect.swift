import SandboxBank
import SandboxHTTP

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

    /// `notification`, of one of its payouts, in its wire format and signed; nil when it cannot be
    /// sent (its account is gone).
    func notification(_ notification: StatusNotification, bank: Bank) -> RenderedNotification?

    /// The request fields a scenario rule's `when` may test, by their wire names (besides
    /// `merchant` and `dialect`, which every payout has).
    var ruleFields: Set<String> { get }

    /// Its built-in scenario (`scenarios/default.json` for the first API): rules such as magic
    /// values, layered under every scenario the user loads; nil for none.
    var builtInScenarioText: String? { get }
}

extension Dialect {
    public var ruleFields: Set<String> { [] }
    public var builtInScenarioText: String? { nil }
}

/// A notification as its dialect sends it: a `POST` with this content type, whose body is
/// rendered when needed (the built-in sink renders it only when it is read).
public struct RenderedNotification: Sendable {
    public var contentType: String
    public var body: @Sendable () -> String

    public init(contentType: String, body: @escaping @Sendable () -> String) {
        self.contentType = contentType
        self.body = body
    }
}
