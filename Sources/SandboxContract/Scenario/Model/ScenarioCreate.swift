import SandboxBank
package import SandboxWire
import SandboxSupport

/// How a scenario's `create_cashout` and `create_cashouts` steps create a payout of one of a
/// dialect's accounts: the request the API's own client would send, built once for the step's
/// fields and then once per reference (a bulk step changes only the reference).
///
/// ```swift
/// let create = dialect.scenarioCreate(fields: ["amount": "50.00"], account: account, notificationURL: sink)!
/// let request = create.request(create.fixedReference ?? "my-scenario-1")
/// ```
package struct ScenarioCreate: Sendable {
    /// The reference the step's fields give (D24: `external_id`); nil when each create takes one.
    package var fixedReference: String?
    /// The signed request of the create whose reference is this (ignored when fixed).
    package var request: @Sendable (String) -> HTTPRequest
    /// The new payout's id from a successful answer.
    package var payoutID: @Sendable (HTTPResponse) -> Int?

    package init(fixedReference: String?, request: @escaping @Sendable (String) -> HTTPRequest,
                payoutID: @escaping @Sendable (HTTPResponse) -> Int?) {
        self.fixedReference = fixedReference
        self.request = request
        self.payoutID = payoutID
    }
}
