/// A refusal at creation decided by the scenario (not by the bank's own checks): the dialect
/// answers with its own error for `code`, `reason` and `reasonCode`.
public struct Decline: Sendable, Equatable {
    public var code: Int
    /// The message; nil for the dialect's standard one for `code`.
    public var message: String?
    public var reason: String?
    public var reasonCode: Int?

    public init(code: Int, message: String? = nil, reason: String? = nil, reasonCode: Int? = nil) {
        self.code = code
        self.message = message
        self.reason = reason
        self.reasonCode = reasonCode
    }
}
