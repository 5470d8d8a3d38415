/// A refusal at creation decided by the scenario or the dialect's own atomic checks (not by the
/// bank's checks): the dialect answers with its own error for `code`.
package struct Decline: Sendable, Equatable {
    /// The dialect's code for the refusal, as the scenario wrote it.
    package var code: String
    /// The message; nil for the dialect's standard one for `code`.
    package var message: String?
    /// Anything else the dialect answers with, by its own names.
    package var details: Fields

    package init(code: String, message: String? = nil, details: Fields = [:]) {
        self.code = code
        self.message = message
        self.details = details
    }
}
