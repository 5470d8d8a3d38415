/// Why a message could not be parsed, and the status a server answers with before closing.
enum HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Malformed syntax or framing (400); the text says what was wrong.
    case badRequest(String)
    /// The header section is over ``HTTPLimits/maxHeaderBytes`` or ``HTTPLimits/maxHeaderCount`` (431).
    case headerTooLarge
    /// The body is over ``HTTPLimits/maxBodyBytes`` (413).
    case bodyTooLarge
    /// A transfer coding other than `chunked` (501).
    case unsupportedTransferEncoding(String)
    /// An HTTP version other than 1.0 and 1.1 (505).
    case unsupportedVersion(String)
    /// An `Expect` other than `100-continue` (417).
    case expectationFailed(String)
    /// A body to spool (``HTTPLimits/spooledBodyRoutes``) could not be written to its file (500):
    /// the text says why.
    case bodyNotStored(String)

    /// The status a server answers with.
    package var status: Int {
        switch self {
        case .badRequest: 400
        case .headerTooLarge: 431
        case .bodyTooLarge: 413
        case .unsupportedTransferEncoding: 501
        case .unsupportedVersion: 505
        case .expectationFailed: 417
        case .bodyNotStored: 500
        }
    }

    package var description: String {
        switch self {
        case .badRequest(let why): why
        case .headerTooLarge: "header section too large"
        case .bodyTooLarge: "body too large"
        case .unsupportedTransferEncoding(let coding): "unsupported transfer coding: \(coding)"
        case .unsupportedVersion(let version): "unsupported HTTP version: \(version)"
        case .expectationFailed(let value): "unsupported expectation: \(value)"
        case .bodyNotStored(let why): "the request body could not be stored: \(why)"
        }
    }
}
