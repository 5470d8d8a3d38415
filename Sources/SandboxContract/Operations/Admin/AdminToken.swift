/// The admin token's facts, each written once: `AdminAuth` checks and answers them, the document
/// describes them.
package enum AdminToken {
    /// The admin routes that never need the token, because what calls them cannot hold it:
    /// liveness probes, and the webhook receiver (notifications come from outside).
    package static let openRoutes = Set([AdminRoute.getHealth, AdminRoute.postToSink].map(\.route))
    /// The 401 of a request without `Authorization: Bearer ...`.
    package static let missing = "the admin API needs the header Authorization: Bearer <admin token>"
    /// The 401 of a request with another token.
    package static let invalid = "invalid admin token"
    /// `WWW-Authenticate` of a 401 (RFC 6750 §3), with `invalidTokenError` after it for a wrong token.
    package static let realm = #"Bearer realm="cashout-sandbox admin""#
    package static let invalidTokenError = #", error="invalid_token""#
}
