package import SandboxBank
package import SandboxWire
import SandboxSupport

/// A request a webhook receiver got, as it got it.
package struct ReceivedRequest: Sendable {
    package var contentType: String?
    package var headers: HTTPHeaders
    package var body: String

    package init(contentType: String?, headers: HTTPHeaders, body: String) {
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    /// Its fields: a form's (the first of a repeated name), or a JSON object's members (strings
    /// and numbers as text); none for another body.
    package var fields: [String: String] { Self.fields(contentType: contentType ?? "", body: body) }

    package static func fields(contentType: String, body: String) -> [String: String] {
        if contentType.hasPrefix("application/x-www-form-urlencoded") {
            return Dictionary((FormURLEncoding.decode(body.utf8) ?? []).map { ($0.name, $0.value) }) { first, _ in first }
        }
        guard case .object(let members)? = try? JSON.parse(Array(body.utf8)) else { return [:] }
        return members.compactMapValues { $0.stringValue ?? $0.numberText }
    }
}

/// What a receiver can tell from a notification it got (`Dialect.readNotification`): what a
/// webhook handler checks before it acts, and what it acts on.
package struct ReceivedNotification: Sendable, Equatable {
    /// The payout it is about.
    package var payoutID: Int
    /// The status it reports, when the receiver can tell (D24's form carries none: the time of the
    /// change says which).
    package var status: PayoutStatus?
    /// Equal for every delivery of the same notification (a retry, a duplicate, a replay): what a
    /// handler that drops duplicates keys on (PayoutService's `event_id`; D24's whole form).
    package var identity: String
    /// Why it must be refused (a wrong signature, an unknown payout); nil when it holds.
    package var problem: String?

    package init(payoutID: Int, status: PayoutStatus?, identity: String, problem: String?) {
        self.payoutID = payoutID
        self.status = status
        self.identity = identity
        self.problem = problem
    }
}
