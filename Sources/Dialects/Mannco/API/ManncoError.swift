import SandboxBank
import SandboxWire
import SandboxSupport

/// A refusal in Mannco's terms (Mannco.store's API docs, "Introduction"): HTTP 300 for a business error, 403 `forbidden`, each
/// with `{"err":true,"success":false,"content":"<message>"}`.
enum ManncoError: Error, Equatable {
    /// HTTP 300, the server's `error` type.
    case business(String)
    /// HTTP 403: a missing or bad token, an unknown API key.
    case forbidden(String)
    /// Another status a scenario's decline asks for (429, 500).
    case status(Int, String)
    /// A refusal of authentication, with why it was made (never sent).
    indirect case diagnosed(ManncoError, Diagnosis)

    /// `Missing required parameter: NAME`.
    static func missing(_ name: String) -> ManncoError { .business(ManncoMessage.missing(name)) }

    /// What a protected route answers without a valid token.
    static let noToken = ManncoError.forbidden(ManncoMessage.forbidden)

    /// A decline by the scenario or by the dialect's own checks: its code is the HTTP status when
    /// that is 300, 403, 429 or 500 (else 300), its message the content.
    init(_ decline: Decline) {
        let message = decline.message ?? Self.declineMessage
        switch Int(decline.code) {
        case 403: self = .forbidden(message)
        case let status? where status == 429 || status == 500: self = .status(status, message)
        default: self = .business(message)
        }
    }

    /// The content of a scenario's decline that gives no message.
    static let declineMessage = ManncoMessage.declined

    /// A refusal of the bank's own checks.
    init(_ refusal: PayoutRefusal) {
        switch refusal {
        case .insufficientFunds: self = .business(ManncoMessage.insufficientBalance)
        case .declined(let decline): self.init(decline)
        case .unknownAccount: self = .noToken
        case .limitExceeded: self = .business(ManncoMessage.limitExceeded)
        case .duplicateReference, .unsupportedCurrency, .belowMinimum, .notExecutable: self = .business(ManncoMessage.notProcessed)
        }
    }

    var response: HTTPResponse {
        switch self {
        case .business(let message): return ManncoResponse.error(message, status: 300)
        case .forbidden(let message): return ManncoResponse.error(message, status: 403)
        case .status(let status, let message): return ManncoResponse.error(message, status: status)
        case .diagnosed(let error, let diagnosis):
            var response = error.response
            response.diagnosis = diagnosis
            return response
        }
    }
}
