
/// What a unary handler answers: a response message or a status, with metadata. (A change the
/// answer reports is made durable by the HTTP pipeline around the call, `HTTPResponse.held(by:until:)`,
/// not by the handler.)
///
/// ```swift
/// return .message(response)
/// return .failure(GRPCStatus(.notFound, "no payout \(id)"))
/// ```
package struct GRPCReply: Sendable {
    enum Outcome: Sendable {
        case message(ProtoMessage)
        case failure(GRPCStatus)
    }

    var outcome: Outcome
    /// Response header metadata (sent before the message).
    package var headers: GRPCMetadata = [:]
    /// Trailer metadata (sent with the status).
    var trailers: GRPCMetadata = [:]
    /// Why a refused call was refused, for the request log and the event log (never sent):
    /// the response carries it (``HTTPResponse/diagnosis``).
    package var diagnosis: Diagnosis?

    /// A successful answer: `message`, of the method's output type.
    package static func message(_ message: ProtoMessage, headers: GRPCMetadata = [:], trailers: GRPCMetadata = [:]) -> GRPCReply {
        GRPCReply(outcome: .message(message), headers: headers, trailers: trailers)
    }

    /// A failed call: `status` (not OK), sent trailers-only with `trailers`.
    package static func failure(_ status: GRPCStatus, trailers: GRPCMetadata = [:]) -> GRPCReply {
        GRPCReply(outcome: .failure(status), trailers: trailers)
    }
}
