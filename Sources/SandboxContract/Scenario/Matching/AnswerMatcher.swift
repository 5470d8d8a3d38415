import SandboxBank

/// What a webhook receiver's answer must be (`expect_deliveries`' `answered`): an exact status
/// (`200`), a class (`"2xx"`, `"4xx"`), `"non-2xx"` (anything but a 2xx answer, no answer at all
/// included: a timeout, a refused connection), or a matcher of the status (`{"gte": 400}`).
package enum AnswerMatcher: Sendable {
    case status(Int)
    /// `first`xx: 2 for 2xx.
    case family(Int)
    case not2xx
    case matcher(Matcher, written: String)

    /// Whether an answer with `status` (nil: none came) passes.
    package func matches(_ status: Int?) -> Bool {
        switch self {
        case .not2xx: return !DeliveryOutcome(status: status).succeeded
        case .status(let expected): return status == expected
        case .family(let first): return status.map { $0 / 100 == first } ?? false
        case .matcher(let matcher, _): return status.map { matcher.matches(String($0)) } ?? false
        }
    }

    /// As written, for messages.
    package var description: String {
        switch self {
        case .status(let status): "\(status)"
        case .family(let first): "\(first)xx"
        case .not2xx: "non-2xx"
        case .matcher(_, let written): written
        }
    }
}
